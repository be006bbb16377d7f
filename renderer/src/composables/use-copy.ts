/** Copy buttons: copies a text and says in a message whether it worked. */
import { useMessage } from 'naive-ui'
import { useI18n } from 'vue-i18n'
import { copyText } from '../utils/clipboard'

/** A function that copies `text` to the clipboard and reports success or failure. */
export function useCopy(): (text: string) => Promise<void> {
  const { t } = useI18n()
  const message = useMessage()
  return async (text) => {
    if (await copyText(text)) message.success(t('common.action.copied'))
    else message.error(t('common.action.copyFailed'))
  }
}
