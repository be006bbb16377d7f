/** Messages of the campaign screens. */
export const en = {
  title: 'campaign',
}

export const zh: typeof en = {
  title: 'campaign',
}
