/** Answers a handler gives that are not a result to serialize as JSON: raw ones, and JSON already written. */

/**
 * An answer that is not JSON (tracking pixels, redirects, file exports): sent as it is, without
 * JSONP wrapping or response caching.
 */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly headers: Record<string, string>,
    readonly body: string | Uint8Array,
  ) {}
}

/**
 * An answer already written as JSON, in UTF-8 pieces (engine/json-bytes.ts), for answers too
 * large to build as objects and serialize (reports/items.ts reportJson). `T` is the result it
 * stands for, so a handler still answers its endpoint's type.
 */
export class JsonParts<T> {
  declare private readonly of?: T
  constructor(readonly parts: readonly Uint8Array[]) {}
}
