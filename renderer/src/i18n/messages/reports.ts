/** Messages of the reports screens. */
export const en = {
  title: 'reports',
}

export const zh: typeof en = {
  title: 'reports',
}
