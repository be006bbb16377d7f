// The app's words for a data directory that takes no writes: the 507 refusal said in Chinese
// (utils/engine-notice.ts) and the status endpoint's storage member (components/StorageNotice.vue).
import { describe, expect, it } from 'vitest'
import { createI18n } from 'vue-i18n'
import { MemoryStorage } from '../../engine/storage/adapters/memory'
import { messages } from '../../renderer/src/i18n'
import { engineNotice } from '../../renderer/src/utils/engine-notice'
import { storageReason } from '../../renderer/src/utils/storage-reason'
import { makeEngine } from '../helpers/make-engine'
import { asAppClient, clientRefusal } from './app-client'

const tr = (lang: 'en' | 'zh') => {
  const g = createI18n({ legacy: false, locale: lang, messages }).global
  return (k: string, named?: Record<string, unknown>) => (named ? g.t(k, named) : g.t(k))
}

/** Memory storage whose appends fail like a full disk while `full`. */
class FullDisk extends MemoryStorage {
  full = false
  override async append(bytes: Uint8Array): Promise<void> {
    if (this.full) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })
    return super.append(bytes)
  }
}

describe('a data directory that takes no writes', () => {
  it('is said in Chinese when a write is refused, with the directory and the reason, and as the engine said it in English', async () => {
    const storage = new FullDisk()
    const t = asAppClient(await makeEngine({ storage }))
    storage.full = true
    const r = await t.post('/cms/v1/campaigns/create', { campaign_name: 'full', start_date: '2025-01-10', end_date: '2025-01-20' })
    expect(r.status).toBe(507)
    const text = clientRefusal(r)
    expect(engineNotice(text, tr('zh'), 'zh', () => undefined)).toBe('未保存：数据目录 memory 无法写入：磁盘已满（ENOSPC）。此次修改没有生效，所有内容仍可查看。请在该处释放空间后重试。')
    expect(engineNotice(text, tr('en'), 'en', () => undefined)).toBe(text)
    const status = await t.get('/local/v1/status')
    expect(status.body.storage).toEqual({ writable: false, opened_read_only: false, cause: 'ENOSPC', path: 'memory' })
  })

  it('names the reason of each error code, and says "writing fails" for any other', () => {
    const zh = tr('zh')
    expect(['ENOSPC', 'EDQUOT', 'EFBIG', 'EROFS', 'EIO', 'EXYZ'].map((c) => storageReason(c, zh))).toEqual(['磁盘已满', '磁盘配额已用完', '文件已达到大小上限', '文件系统以只读方式挂载', '写入失败', '写入失败'])
    expect(storageReason('ENOSPC', tr('en'))).toBe('its disk is full')
  })
})
