/** Small builders for the WHERE, ORDER BY and LIMIT clauses of list endpoints (spec §1). */
import type { Limit } from '../../contract/params'
import type { Db, Param } from '../db'

/** AND of conditions with their bound parameters (spec §1.2). */
export class Where {
  private parts: string[] = []
  readonly params: Param[] = []

  /** Adds a raw condition with its parameters. */
  add(sql: string, ...params: Param[]): this {
    this.parts.push(sql)
    this.params.push(...params)
    return this
  }

  eq(column: string, value: Param | undefined): this {
    return value === undefined ? this : this.add(`${column} = ?`, value)
  }

  /** column IN (list); an absent list adds nothing. */
  in(column: string, values: readonly Param[] | undefined): this {
    if (values === undefined) return this
    if (values.length === 0) return this.add('0')
    return this.add(`${column} IN (${values.map(() => '?').join(',')})`, ...values)
  }

  /** PATTERN: case-insensitive (Unicode) substring; several alternatives match any of them. */
  pattern(column: string, text: string | undefined | readonly string[]): this {
    if (text === undefined) return this
    const alts = (typeof text === 'string' ? [text] : text).map((t) => t.toLowerCase())
    return this.add(`(${alts.map(() => `instr(ulower(${column}), ?) > 0`).join(' OR ')})`, ...alts)
  }

  get sql(): string {
    return this.parts.length === 0 ? '' : ` WHERE ${this.parts.join(' AND ')}`
  }
}

/**
 * ORDER BY for order_asc / order_desc, always ending with `tiebreak` so that paging is stable.
 * `columns` maps each orderable wire name to its SQL expression.
 */
export function orderBy(p: { order_asc?: string | undefined; order_desc?: string | undefined }, columns: Readonly<Record<string, string>>, tiebreak: string): string {
  const name = p.order_asc ?? p.order_desc
  const expr = name === undefined ? undefined : columns[name]
  if (expr === undefined) return ` ORDER BY ${tiebreak}`
  return ` ORDER BY ${expr} ${p.order_desc !== undefined ? 'DESC' : 'ASC'}, ${tiebreak}`
}

/** LIMIT/OFFSET of a decoded limit; use with its parameters appended. */
export function limitSql(l: Limit): { sql: string; params: Param[] } {
  return { sql: ' LIMIT ? OFFSET ?', params: [l.count, l.offset] }
}

/** Integer form of decimal id strings, for binding. */
export const ids = (list: readonly string[] | undefined): number[] | undefined => list?.map(Number)

/**
 * Ids of the rows `from` (FROM ... WHERE ...) selects, ordered by `order` (an ORDER BY clause),
 * read as one group_concat text: sql.js pays per value it hands over, so one text for ten
 * thousand ids costs less than ten thousand values. With `today`, it is bound as ?1 (what
 * STATUS_SQL reads), written first so that the `?` of `from` number from 2.
 */
export function idsInOrder(db: Db, id: string, from: string, order: string, params: readonly Param[], today?: string): number[] {
  const lead = today === undefined ? '' : '?1 AS today, '
  const row = db.get<{ ids: string | null }>(`SELECT ${lead}group_concat(${id}, ','${order}) AS ids ${from}`, today === undefined ? params : [today, ...params])
  return row?.ids ? row.ids.split(',').map(Number) : []
}
