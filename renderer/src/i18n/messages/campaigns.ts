/** Messages of the campaigns screens. */
export const en = {
  title: 'campaigns',
}

export const zh: typeof en = {
  title: 'campaigns',
}
