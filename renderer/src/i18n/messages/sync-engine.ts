/**
 * Words the Sync page joins the engine's values with (utils/problem-text.ts: the endpoint groups of
 * a server-mode problem); the messages themselves are said by their problem keys (problem.ts).
 */
export const en = {
  sep: ', ',
}

export const zh: typeof en = {
  sep: '、',
}
