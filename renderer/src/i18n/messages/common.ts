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
  theme: { label: 'Theme', light: 'Light', dark: 'Dark', system: 'System' },
  language: { label: 'Language', en: 'English', zh: '中文' },
  server: { address: 'Engine at {url}', desktop: 'desktop' },
  errors: { network: 'The engine could not be reached: {message}', sessionEnded: 'Your session ended; sign in again.' },
  date: { rejected: '"{text}" is not a date: write it YYYY-MM-DD' },
  /** The engine's refusal of a field, said short beside the field's label (utils/field-message.ts). */
  field: {
    required: 'Required', tooLong: 'At most {max} characters', between: 'Between {min} and {max} (got {got})', integer: 'A whole number (got "{got}")',
    date: 'A date written YYYY-MM-DD (got "{got}")', oneOf: 'One of {list} (got "{got}")', url: 'A full address beginning with http:// or https://',
    used: 'Already used by campaign {id}', control: 'No tabs or line breaks',
  },
  confirmDelete: 'Delete {name}? This cannot be undone.',
  required: '{field} is required',
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
  theme: { label: '主题', light: '浅色', dark: '深色', system: '跟随系统' },
  language: { label: '语言', en: 'English', zh: '中文' },
  server: { address: '引擎地址 {url}', desktop: '桌面' },
  errors: { network: '无法连接引擎：{message}', sessionEnded: '会话已结束，请重新登录。' },
  date: { rejected: '“{text}”不是有效日期，格式为 YYYY-MM-DD' },
  field: {
    required: '必填', tooLong: '不能超过 {max} 个字符', between: '须在 {min} 到 {max} 之间（收到 {got}）', integer: '须为整数（收到“{got}”）',
    date: '日期格式应为 YYYY-MM-DD（收到“{got}”）', oneOf: '须为 {list} 之一（收到“{got}”）', url: '须为以 http:// 或 https:// 开头的完整网址',
    used: '已被活动 {id} 使用', control: '不能包含制表符或换行',
  },
  confirmDelete: '删除 {name}？此操作无法撤销。',
  required: '{field}为必填项',
}
