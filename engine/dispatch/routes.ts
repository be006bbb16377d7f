/** From a request's method and path to its endpoint (the contract's table), or the refusal that says why none. */
import { E, refuse } from '../contract/errors'
import { endpoints, type EndpointId } from '../contract/endpoints'

const routes = new Map<string, EndpointId>()
const paths = new Set<string>()
const prefixes: [string, EndpointId][] = []
for (const id of Object.keys(endpoints) as EndpointId[]) {
  const def = endpoints[id]
  if (def.prefix) prefixes.push([def.prefix, id])
  for (const path of [def.path, ...(def.aliases ?? [])]) {
    const key = `${def.method} ${path}`
    if (routes.has(key)) throw new Error(`two endpoints at ${key}`)
    routes.set(key, id)
    paths.add(path)
  }
}

/** The longest endpoint path: a longer one (a tracking tag's path) can only be a prefix endpoint's. */
const LONGEST = Math.max(...[...paths].map((p) => p.length))

/** vendor-notes §0.13: the vendor's index writes /report/ where the detail pages write /reports/. */
const REPORT_ALIAS = '/admonitor/v1/report/'
const normalize = (path: string) => (path.startsWith(REPORT_ALIAS) ? `/admonitor/v1/reports/${path.slice(REPORT_ALIAS.length)}` : path)

/** The endpoint of `method` at `rawPath` (HEAD as GET); throws 405 for a path of another method, 404 for none. */
export function lookup(method: string, rawPath: string): EndpointId {
  const path = normalize(rawPath)
  const exact = path.length <= LONGEST ? routes.get(`${method === 'HEAD' ? 'GET' : method} ${path}`) : undefined
  const id = exact ?? prefixes.find(([p]) => path.startsWith(p) && (method === 'GET' || method === 'HEAD'))?.[1]
  if (id) return id
  if (paths.has(path)) throw refuse(E.methodNotAllowed, 'path.method', { path, method })
  throw refuse(E.notFound, 'path.none', { path: rawPath })
}
