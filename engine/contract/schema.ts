/**
 * A small description language for response shapes. One declaration gives three things:
 * the TypeScript type (`Infer`), the JSON Schema used by the generated OpenAPI document,
 * and `validate()`, which contract tests run over every response the engine returns.
 * It describes; it never coerces, so a value that validates is sent exactly as it is.
 */

/** JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1), as plain data. */
export type JsonSchema = { readonly [key: string]: unknown }

/** A schema that describes values of type T. */
export interface Schema<T> {
  readonly json: JsonSchema
  readonly check: (value: unknown, path: string, errors: string[]) => void
  /** Phantom member carrying T; never set. */
  readonly _type?: T
}

/** The TypeScript type a schema describes. */
export type Infer<S> = S extends Schema<infer T> ? T : never

function make<T>(json: JsonSchema, check: Schema<T>['check']): Schema<T> {
  return { json, check }
}

const describeType = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)

/** A string; `pattern` (a RegExp source) is checked too. */
export function str(opts: { pattern?: string; description?: string; format?: string } = {}): Schema<string> {
  const re = opts.pattern === undefined ? null : new RegExp(opts.pattern)
  return make({ type: 'string', ...opts }, (v, path, errors) => {
    if (typeof v !== 'string') errors.push(`${path}: expected string, got ${describeType(v)}`)
    else if (re && !re.test(v)) errors.push(`${path}: '${v}' does not match ${opts.pattern}`)
  })
}

/** A date written YYYY-MM-DD. */
export const date = (): Schema<string> => str({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', format: 'date' })

/** A string made only of digits: the wire form of numeric identifiers. */
export const idStr = (description?: string): Schema<string> =>
  str({ pattern: '^[0-9]+$', ...(description === undefined ? {} : { description }) })

/** A JSON integer (never a float, never a numeric string). */
export function int(description?: string): Schema<number> {
  return make({ type: 'integer', ...(description === undefined ? {} : { description }) }, (v, path, errors) => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v)) errors.push(`${path}: expected integer, got ${JSON.stringify(v)}`)
  })
}

/** A finite JSON number (a ratio: the panel's calibration factors). */
export function num(description?: string): Schema<number> {
  return make({ type: 'number', ...(description === undefined ? {} : { description }) }, (v, path, errors) => {
    if (typeof v !== 'number' || !Number.isFinite(v)) errors.push(`${path}: expected number, got ${JSON.stringify(v)}`)
  })
}

/** A JSON boolean. */
export function bool(description?: string): Schema<boolean> {
  return make({ type: 'boolean', ...(description === undefined ? {} : { description }) }, (v, path, errors) => {
    if (typeof v !== 'boolean') errors.push(`${path}: expected boolean, got ${JSON.stringify(v)}`)
  })
}

/** One of the listed string values. */
export function lit<const V extends string>(...values: V[]): Schema<V> {
  return make({ type: 'string', enum: values }, (v, path, errors) => {
    if (typeof v !== 'string' || !(values as string[]).includes(v)) errors.push(`${path}: expected one of ${values.join('|')}, got ${JSON.stringify(v)}`)
  })
}

/** An array of items of one schema. */
export function arr<T>(item: Schema<T>): Schema<T[]> {
  return make({ type: 'array', items: item.json }, (v, path, errors) => {
    if (!Array.isArray(v)) return void errors.push(`${path}: expected array, got ${describeType(v)}`)
    v.forEach((x, i) => item.check(x, `${path}[${i}]`, errors))
  })
}

/** A value that may also be null. */
export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return make({ oneOf: [inner.json, { type: 'null' }] }, (v, path, errors) => {
    if (v !== null) inner.check(v, path, errors)
  })
}

type Shape = { readonly [key: string]: Schema<unknown> }
type ShapeType<R extends Shape, O extends Shape> = { -readonly [K in keyof R]: Infer<R[K]> } & {
  -readonly [K in keyof O]?: Infer<O[K]>
}

/**
 * An object with required members `req` and optional members `opt`. Members not declared are
 * reported by `validate`, so the documented shape and the sent shape cannot drift apart.
 */
export function obj<R extends Shape, O extends Shape = {}>(req: R, opt?: O): Schema<ShapeType<R, O>> {
  const optional: Shape = opt ?? {}
  const properties: Record<string, JsonSchema> = {}
  for (const [k, s] of Object.entries({ ...req, ...optional })) properties[k] = s.json
  const json = { type: 'object', properties, required: Object.keys(req), additionalProperties: false }
  return make(json, (v, path, errors) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return void errors.push(`${path}: expected object, got ${describeType(v)}`)
    const rec = v as Record<string, unknown>
    for (const [k, s] of Object.entries(req)) {
      if (!(k in rec)) errors.push(`${path}.${k}: missing`)
      else s.check(rec[k], `${path}.${k}`, errors)
    }
    for (const [k, x] of Object.entries(rec)) {
      if (k in req) continue
      const s = optional[k]
      if (s) s.check(x, `${path}.${k}`, errors)
      else errors.push(`${path}.${k}: not declared`)
    }
  })
}

/** An object whose member names vary (report metrics); every value has one schema. */
export function dict<T>(value: Schema<T>, keyPattern?: string): Schema<Record<string, T>> {
  const re = keyPattern === undefined ? null : new RegExp(keyPattern)
  const json = { type: 'object', additionalProperties: value.json, ...(keyPattern ? { propertyNames: { pattern: keyPattern } } : {}) }
  return make(json, (v, path, errors) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return void errors.push(`${path}: expected object`)
    for (const [k, x] of Object.entries(v)) {
      if (re && !re.test(k)) errors.push(`${path}: member name '${k}' does not match ${keyPattern}`)
      value.check(x, `${path}.${k}`, errors)
    }
  })
}

/** Anything (used only where the spec leaves a shape open). */
export const any = (description: string): Schema<unknown> => make({ description }, () => undefined)

/** Checks a value against a schema; returns the list of problems, empty when it conforms. */
export function validate<T>(schema: Schema<T>, value: unknown, path = '$'): string[] {
  const errors: string[] = []
  schema.check(value, path, errors)
  return errors
}
