/** Messages of the server screens. */
export const en = {
  title: 'server',
}

export const zh: typeof en = {
  title: 'server',
}
