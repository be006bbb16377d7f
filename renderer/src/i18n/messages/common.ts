/** Words every screen uses: navigation, actions, states, the header. */
export const en = {
  app: 'AdMonitor Desk',
  nav: { campaigns: 'Campaigns', reports: 'Reports', server: 'Local server & data', sync: 'Sync', label: 'Navigation', open: 'Open the navigation' },
  action: {
    save: 'Save', cancel: 'Cancel', delete: 'Delete', edit: 'Edit', create: 'Create', close: 'Close', refresh: 'Refresh',
    search: 'Search', reset: 'Reset', copy: 'Copy', copied: 'Copied to the clipboard', copyFailed: 'Could not copy: select the text and copy it by hand.', exportCsv: 'Export CSV', exportXlsx: 'Export XLSX',
    confirm: 'Confirm', back: 'Back', signOut: 'Sign out', add: 'Add', remove: 'Remove', apply: 'Apply', upload: 'Choose file', increase: 'Increase', decrease: 'Decrease',
  },
  state: { loading: 'Loading…', empty: 'Nothing here yet', error: 'Something went wrong', noData: 'No data' },
  panel: { builtIn: 'China {platform} panel {year}' },
  zone: 'Times in {zone}, the engine’s time zone',
  theme: { label: 'Theme', light: 'Light', dark: 'Dark', system: 'System' },
  language: { label: 'Language', en: 'English', zh: '中文' },
  server: { address: 'Engine at {url}', desktop: 'desktop' },
  errors: { network: 'The engine could not be reached: {message}', sessionEnded: 'Your session ended; sign in again.' },
  date: { rejected: '"{text}" is not a date: write it YYYY-MM-DD' },
  /** The engine's refusal of a save as a whole, for the alert above a form (utils/form-alert.ts). */
  alert: {
    field: '{field}: {problem}',
    param: { campaign_id: 'Campaign', spot_id: 'Spot', spot_id_str: 'Spot', keyword_id: 'Keyword', minisite_id: 'Minisite', target_name: 'Target name', minisite_name: 'Minisite name' },
  },
  confirmDelete: 'Delete {name}? This cannot be undone.',
  required: '{field} is required',
  /** The notice that the engine takes no changes (components/StorageNotice.vue). */
  storage: {
    refused: 'Changes are not saved now: the data directory {path} cannot take writes: {reason} ({cause}). Everything can still be read. Once there is room again, changes are saved again, without a restart.',
    openedReadOnly: 'The engine opened its data directory {path} read-only: it could not take writes when the engine started: {reason} ({cause}). Everything can still be read. Once there is room again, changes are saved again, without a restart.',
    reason: { ENOSPC: 'its disk is full', EDQUOT: 'the disk quota is used up', EFBIG: 'a file reached the size limit', EROFS: 'its file system is mounted read-only', other: 'writing to it fails' },
  },
}

export const zh: typeof en = {
  app: 'AdMonitor Desk',
  nav: { campaigns: '活动', reports: '报表', server: '本地服务与数据', sync: '同步', label: '导航', open: '打开导航' },
  action: {
    save: '保存', cancel: '取消', delete: '删除', edit: '编辑', create: '新建', close: '关闭', refresh: '刷新',
    search: '搜索', reset: '重置', copy: '复制', copied: '已复制到剪贴板', copyFailed: '无法复制：请选中文本手动复制。', exportCsv: '导出 CSV', exportXlsx: '导出 XLSX',
    confirm: '确认', back: '返回', signOut: '退出登录', add: '添加', remove: '移除', apply: '应用', upload: '选择文件', increase: '增加', decrease: '减少',
  },
  state: { loading: '加载中…', empty: '暂无内容', error: '出错了', noData: '无数据' },
  panel: { builtIn: '中国 {platform} 样本库 {year}' },
  zone: '时间均为引擎时区 {zone}',
  theme: { label: '主题', light: '浅色', dark: '深色', system: '跟随系统' },
  language: { label: '语言', en: 'English', zh: '中文' },
  server: { address: '引擎地址 {url}', desktop: '桌面' },
  errors: { network: '无法连接引擎：{message}', sessionEnded: '会话已结束，请重新登录。' },
  date: { rejected: '“{text}”不是有效日期，格式为 YYYY-MM-DD' },
  alert: {
    field: '{field}：{problem}',
    param: { campaign_id: '活动', spot_id: '广告位', spot_id_str: '广告位', keyword_id: '关键词', minisite_id: '活动站点', target_name: '目标受众名称', minisite_name: '活动站点名称' },
  },
  confirmDelete: '删除 {name}？此操作无法撤销。',
  required: '{field}为必填项',
  storage: {
    refused: '修改暂时无法保存：数据目录 {path} 无法写入：{reason}（{cause}）。所有内容仍可查看。空间恢复后，修改即可再次保存，无需重启。',
    openedReadOnly: '引擎以只读方式打开了数据目录 {path}：启动时它无法写入：{reason}（{cause}）。所有内容仍可查看。空间恢复后，修改即可再次保存，无需重启。',
    reason: { ENOSPC: '磁盘已满', EDQUOT: '磁盘配额已用完', EFBIG: '文件已达到大小上限', EROFS: '文件系统以只读方式挂载', other: '写入失败' },
  },
}
