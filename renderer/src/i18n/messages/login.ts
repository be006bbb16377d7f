/** The login page (browser mode). */
export const en = {
  title: 'Sign in to AdMonitor Desk',
  intro: 'Use the account and API client that “npm run serve” printed on its first start.',
  username: 'Username', password: 'Password', clientId: 'Client id', clientSecret: 'Client secret',
  placeholder: { username: 'as npm run serve printed it', clientId: 'as npm run serve printed it' },
  submit: 'Sign in',
  wrongPassword: 'The username or password is wrong.',
  wrongClient: 'The client id or client secret is wrong.',
}

export const zh: typeof en = {
  title: '登录 AdMonitor Desk',
  intro: '使用「npm run serve」首次启动时打印的账号和 API 客户端。',
  username: '用户名', password: '密码', clientId: '客户端 ID', clientSecret: '客户端密钥',
  placeholder: { username: '即 npm run serve 打印的用户名', clientId: '即 npm run serve 打印的客户端 ID' },
  submit: '登录',
  wrongPassword: '用户名或密码错误。',
  wrongClient: '客户端 ID 或客户端密钥错误。',
}
