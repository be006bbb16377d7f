/**
 * The DuckDB baseline of the measure bench: the same raw events (the NDJSON file the engine
 * imported) loaded once into DuckDB, attributed by the rules of docs/metrics.md in SQL, and the
 * three reports of the bench as SQL queries computing the same figures (each query is timed; the
 * load is not). Reference data DuckDB cannot derive itself comes in as small lookup tables: the
 * region tree, spots (publisher, dangerous_source_filtration), the panel's persons (export),
 * targets' tag expressions, the bot verdict of each distinct user agent and the region and ISP
 * class of each distinct address (see measure.ts for where each comes from).
 */
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api'

export const GLOBAL_REGION = '000000000000000000000000'

export interface DuckInputs {
  eventsFile: string
  /** The panel's persons as /local/v1/panels/persons/export writes them (NDJSON). */
  personsFile: string
  regions: { region_id: string; parent_id: string; level: number }[]
  spots: { spot_id: number; publisher_id: string; dsf: number }[]
  targets: { target_id: string; tag_id: string }[]
  panelTags: string[]
  /** Each distinct user agent of the file and whether it is a declared bot. */
  agents: { ua: string; bot: boolean }[]
  /** Each distinct address of the file: its region id and whether its ISP is a data centre. */
  addresses: { ip: string; region_id: string; dc: boolean }[]
  zoneOffsetMs: number
  threads: number
}

export interface Window {
  campaignId: number
  /** Day numbers (days since 1970-01-01, local) of the window and of D. */
  from: number
  to: number
  day: number
  days: number
}

export interface Duck {
  conn: DuckDBConnection
  loadMs: number
  /** CPU time of the load, every thread of this process (DuckDB's threads are this process's). */
  loadCpuMs: number
  events: number
  identities: number
  close(): void
}

const q = (s: string) => `'${s.replace(/'/g, "''")}'`
const values = (rows: string[]) => rows.join(',\n')

/** The cells of each region at each level: its ancestors-or-self of that level (region-cells rule). */
function regionCells(regions: DuckInputs['regions']): { level: number; region_id: string; cell: string }[] {
  const byId = new Map(regions.map((r) => [r.region_id, r]))
  const out: { level: number; region_id: string; cell: string }[] = []
  for (const r of regions) {
    for (let at = byId.get(r.region_id); at; at = byId.get(at.parent_id)) out.push({ level: at.level, region_id: r.region_id, cell: at.region_id })
  }
  return out
}

export async function loadDuck(inp: DuckInputs): Promise<Duck> {
  const instance = await DuckDBInstance.create(':memory:', { threads: String(inp.threads) })
  const conn = await instance.connect()
  const run = (sql: string) => conn.run(sql)
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  await run(`CREATE TABLE raw AS SELECT * FROM read_ndjson(${q(inp.eventsFile)}, columns = {
    type: 'VARCHAR', ts: 'BIGINT', campaign_id: 'INTEGER', spot_id: 'INTEGER', keyword_id: 'INTEGER', identity: 'VARCHAR',
    ip: 'VARCHAR', user_agent: 'VARCHAR', platform: 'VARCHAR', sdk: 'VARCHAR', region_id: 'VARCHAR' })`)
  await run(`CREATE TABLE agents (ua VARCHAR, bot BOOLEAN)`)
  if (inp.agents.length) await run(`INSERT INTO agents VALUES ${values(inp.agents.map((a) => `(${q(a.ua)}, ${a.bot})`))}`)
  await run(`CREATE TABLE addresses (ip VARCHAR, region_id VARCHAR, dc BOOLEAN)`)
  if (inp.addresses.length) await run(`INSERT INTO addresses VALUES ${values(inp.addresses.map((a) => `(${q(a.ip)}, ${q(a.region_id)}, ${a.dc})`))}`)
  // The identity dictionary (numbers, like the engine's), then the attributed events: class
  // (bot, data centre, abnormal frequency in arrival order = ts order, else valid; 4: a data-centre
  // hit beyond the limit, abnormal where data centres count), local day and hour. Abnormal: the
  // identity's 31st impression (6th click) within the 10 minutes up to its own time, sliding
  // (docs/attribution.md §5): the 30th (5th) one before it lies less than 10 minutes back.
  await run(`CREATE TABLE ids AS SELECT identity, (row_number() OVER (ORDER BY identity))::INTEGER AS ident FROM (SELECT DISTINCT lower(identity) AS identity FROM raw)`)
  await run(`CREATE TABLE ev AS
    WITH a AS (
      SELECT CASE r.type WHEN 'impression' THEN 1 WHEN 'click' THEN 2 END AS kind, r.ts, r.campaign_id, r.spot_id, i.ident, (r.platform = 'mb') AS mb,
        coalesce(r.region_id, ad.region_id, '${GLOBAL_REGION}') AS region,
        coalesce(ag.bot, false) AS bot, coalesce(ad.dc, false) AS dc
      FROM raw r JOIN ids i ON i.identity = lower(r.identity)
      LEFT JOIN agents ag ON ag.ua = r.user_agent
      LEFT JOIN addresses ad ON ad.ip = r.ip
    )
    SELECT kind::TINYINT AS kind, campaign_id, spot_id, ident, mb, region,
      ((ts + ${inp.zoneOffsetMs}) // 86400000)::INTEGER AS day,
      (((ts + ${inp.zoneOffsetMs}) % 86400000) // 3600000)::TINYINT AS hour,
      (CASE WHEN bot THEN 3
        WHEN (CASE kind WHEN 2 THEN lag(ts, 5) OVER w ELSE lag(ts, 30) OVER w END) > ts - 600000 THEN (CASE WHEN dc THEN 4 ELSE 1 END)
        WHEN dc THEN 2
        ELSE 0 END)::TINYINT AS cls
    FROM a
    WINDOW w AS (PARTITION BY ident, kind, bot ORDER BY ts)`)
  await run(`DROP TABLE raw`)
  // Regions as small integers (the engine's columns keep a region index too): rid, and the cells
  // of each region at each level (rcells: level, rid, cell rid).
  await run(`CREATE TABLE regions (rid SMALLINT, region_id VARCHAR)`)
  await run(`INSERT INTO regions VALUES ${values(inp.regions.map((r, i) => `(${i}, ${q(r.region_id)})`))}`)
  const rid = new Map(inp.regions.map((r, i) => [r.region_id, i]))
  await run(`CREATE TABLE rcells (level INTEGER, rid SMALLINT, cell SMALLINT)`)
  await run(`INSERT INTO rcells VALUES ${values(regionCells(inp.regions).map((c) => `(${c.level}, ${rid.get(c.region_id)}, ${rid.get(c.cell)})`))}`)
  const globalRid = rid.get(GLOBAL_REGION) ?? 0
  await run(`CREATE TABLE ev2 AS SELECT ev.kind, ev.campaign_id, ev.spot_id, ev.ident, ev.mb, coalesce(r.rid, ${globalRid})::SMALLINT AS rid, ev.day, ev.hour, ev.cls
    FROM ev LEFT JOIN regions r ON r.region_id = ev.region`)
  await run(`DROP TABLE ev`)
  await run(`ALTER TABLE ev2 RENAME TO ev`)
  await run(`CREATE TABLE spots (spot_id INTEGER, publisher_id VARCHAR, dsf INTEGER)`)
  await run(`INSERT INTO spots VALUES ${values(inp.spots.map((s) => `(${s.spot_id}, ${q(s.publisher_id)}, ${s.dsf})`))}`)
  await run(`CREATE TABLE panel_tags (tag_id VARCHAR)`)
  await run(`INSERT INTO panel_tags VALUES ${values(inp.panelTags.map((t) => `(${q(t)})`))}`)
  await run(`CREATE TABLE persons_raw AS SELECT * FROM read_ndjson(${q(inp.personsFile)}, columns = {
    person_id: 'VARCHAR', weight: 'DOUBLE', home_region: 'VARCHAR', tags: 'VARCHAR[]', devices: 'STRUCT(device VARCHAR, platform VARCHAR)[]' })`)
  await run(`CREATE TABLE persons AS SELECT p.person_id, p.weight, coalesce(r.rid, ${globalRid})::SMALLINT AS home, len(coalesce(p.devices, [])) > 0 AS has_device
    FROM persons_raw p LEFT JOIN regions r ON r.region_id = p.home_region`)
  await run(`CREATE TABLE person_tags AS SELECT person_id, unnest(tags) AS tag_id FROM persons_raw`)
  await run(`CREATE TABLE person_of AS
    SELECT i.ident, d.person_id FROM (SELECT person_id, unnest(devices, recursive := true) FROM persons_raw) d JOIN ids i ON i.identity = lower(d.device)`)
  await run(`DROP TABLE persons_raw`)
  const loadMs = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  const loadCpuMs = (cpu.user + cpu.system) / 1000
  const count = async (sql: string) => Number((await conn.runAndReadAll(sql)).getRows()[0]![0])
  const events = await count('SELECT count(*) FROM ev')
  const identities = await count('SELECT count(*) FROM ids')
  return { conn, loadMs, loadCpuMs, events, identities, close: () => (conn.closeSync(), instance.closeSync()) }
}

const hh = (h: number) => String(h).padStart(2, '0')
/** Counted by the `net` rule (metrics.md): valid hits; data-centre hits within the limit only on spots without dangerous_source_filtration. */
const NET = '(ev.cls = 0 OR (ev.cls = 2 AND s.dsf = 0))'
const inWindow = (w: Window) => `ev.campaign_id = ${w.campaignId} AND ev.day BETWEEN ${w.from} AND ${w.to}`
/** Math.round of a non-negative double, as the engine rounds (half up). */
const round = (x: string) => `floor(${x} + 0.5)`

/**
 * basic/show, by_position=spot, by_region=level2, metrics=all, platform=pm, overall audience,
 * net traffic: one row per (spot, city) with data; 60 metrics and the universe attribute. Uniques
 * in two steps (per cell, kind and identity first: its days as a bit mask, whether it was seen on
 * D), counts per (cell, kind, hour): several times faster in DuckDB than count(DISTINCT) per cell.
 */
export function basicSql(w: Window): string {
  const hours = Array.from({ length: 24 }, (_, h) => h)
  // distinct days of an identity in a cell: a bit per day of the window when it fits in 63 bits
  const days = w.to - w.from < 63 ? `bit_count(bit_or(1::BIGINT << (day - ${w.from})))` : 'count(DISTINCT day)'
  const sums = ['imp_acc', 'clk_acc', 'imp_day', 'clk_day', ...hours.map((x) => `imp_acc_h${hh(x)}`), ...hours.map((x) => `clk_acc_h${hh(x)}`)]
  return `WITH e AS (
      SELECT ev.spot_id, rc.cell, ev.kind, ev.day, ev.hour, ev.ident
      FROM ev JOIN spots s ON s.spot_id = ev.spot_id JOIN rcells rc ON rc.level = 2 AND rc.rid = ev.rid
      WHERE ${inWindow(w)} AND ${NET}),
    ci AS (SELECT spot_id, cell, kind, ident, bool_or(day = ${w.day}) AS on_d, ${days} AS nd FROM e GROUP BY spot_id, cell, kind, ident),
    u AS (SELECT spot_id, cell,
        count(*) FILTER (WHERE kind = 1) AS uim_acc, count(*) FILTER (WHERE kind = 2) AS ucl_acc,
        count(*) FILTER (WHERE kind = 1 AND on_d) AS uim_day, count(*) FILTER (WHERE kind = 2 AND on_d) AS ucl_day,
        coalesce(sum(nd) FILTER (WHERE kind = 1), 0) AS uim_days, coalesce(sum(nd) FILTER (WHERE kind = 2), 0) AS ucl_days
      FROM ci GROUP BY spot_id, cell),
    h AS (SELECT spot_id, cell, kind, hour, count(*) AS n, count(*) FILTER (WHERE day = ${w.day}) AS nd FROM e GROUP BY spot_id, cell, kind, hour),
    c AS (SELECT spot_id, cell,
        coalesce(sum(n) FILTER (WHERE kind = 1), 0) AS imp_acc, coalesce(sum(n) FILTER (WHERE kind = 2), 0) AS clk_acc,
        coalesce(sum(nd) FILTER (WHERE kind = 1), 0) AS imp_day, coalesce(sum(nd) FILTER (WHERE kind = 2), 0) AS clk_day,
        ${hours.map((x) => `coalesce(sum(n) FILTER (WHERE kind = 1 AND hour = ${x}), 0) AS imp_acc_h${hh(x)}`).join(', ')},
        ${hours.map((x) => `coalesce(sum(n) FILTER (WHERE kind = 2 AND hour = ${x}), 0) AS clk_acc_h${hh(x)}`).join(', ')}
      FROM h GROUP BY spot_id, cell),
    uni AS (SELECT rc.cell, sum(p.weight) AS u FROM persons p JOIN rcells rc ON rc.level = 2 AND rc.rid = p.home WHERE p.has_device GROUP BY 1)
    SELECT c.spot_id::VARCHAR AS spot_id, s.publisher_id, r.region_id, ${round('coalesce(uni.u, 0)')}::DOUBLE AS universe,
      ${sums.map((n) => `c.${n}::INTEGER AS ${n}`).join(', ')},
      ${['uim_acc', 'ucl_acc', 'uim_day', 'ucl_day'].map((n) => `u.${n}::INTEGER AS ${n}`).join(', ')},
      ${round(`c.imp_acc / ${w.days}`)}::INTEGER AS imp_avg_day, ${round(`c.clk_acc / ${w.days}`)}::INTEGER AS clk_avg_day,
      ${round(`u.uim_days / ${w.days}`)}::INTEGER AS uim_avg_day, ${round(`u.ucl_days / ${w.days}`)}::INTEGER AS ucl_avg_day
    FROM c JOIN u ON u.spot_id = c.spot_id AND u.cell = c.cell JOIN spots s ON s.spot_id = c.spot_id
    JOIN regions r ON r.rid = c.cell LEFT JOIN uni ON uni.cell = c.cell`
}

/** Persons of each target (its tag expression: `,` any of within a group, `&` all groups). */
function targetPersons(targets: DuckInputs['targets'], panelTags: Set<string>): string {
  return targets.map((t) => {
    const groups = t.tag_id.split('&').map((g) => g.split(',').map((x) => x.trim()).filter((x) => panelTags.has(x)))
    const conds = groups.map((g) => (g.length === 0 ? 'FALSE' : `EXISTS (SELECT 1 FROM person_tags pt WHERE pt.person_id = p.person_id AND pt.tag_id IN (${g.map(q).join(', ')}))`))
    return `SELECT ${q(t.target_id)} AS target_id, p.person_id FROM persons p WHERE ${conds.join(' AND ')}`
  }).join('\nUNION ALL\n')
}

/**
 * Calibration factors per publisher and platform (docs/metrics.md, "Calibration"): the census's net
 * impressions (clicks) of the publisher on the platform / the panel's raw projection of them (its
 * persons' impressions x weight), 0 where no panel person was exposed there. `x` names a CTE of
 * (person_id, publisher_id, ipc, imb, cpc, cmb): each panel person's net counts per publisher on pc
 * and mobile.
 */
function factorsSql(w: Window, kind: 'imp' | 'clk'): string {
  const [pc, mb, k] = kind === 'imp' ? ['ipc', 'imb', 1] : ['cpc', 'cmb', 2]
  return `SELECT cen.publisher_id,
      CASE WHEN coalesce(raw.rpc, 0) > 0 THEN cen.npc / raw.rpc ELSE 0 END AS kpc,
      CASE WHEN coalesce(raw.rmb, 0) > 0 THEN cen.nmb / raw.rmb ELSE 0 END AS kmb
    FROM (SELECT s.publisher_id, count(*) FILTER (WHERE NOT ev.mb) AS npc, count(*) FILTER (WHERE ev.mb) AS nmb
          FROM ev JOIN spots s ON s.spot_id = ev.spot_id WHERE ${inWindow(w)} AND ev.kind = ${k} AND ${NET} GROUP BY 1) cen
    LEFT JOIN (SELECT x.publisher_id, sum(x.${pc} * p.weight) AS rpc, sum(x.${mb} * p.weight) AS rmb
          FROM x JOIN persons p ON p.person_id = x.person_id WHERE p.has_device GROUP BY 1) raw ON raw.publisher_id = cen.publisher_id`
}

/** Each panel person's net impressions and clicks per publisher, on pc and on mobile. */
const personCountsSql = (w: Window) => `SELECT po.person_id, s.publisher_id,
      count(*) FILTER (WHERE ev.kind = 1 AND NOT ev.mb) AS ipc, count(*) FILTER (WHERE ev.kind = 1 AND ev.mb) AS imb,
      count(*) FILTER (WHERE ev.kind = 2 AND NOT ev.mb) AS cpc, count(*) FILTER (WHERE ev.kind = 2 AND ev.mb) AS cmb
    FROM ev JOIN spots s ON s.spot_id = ev.spot_id JOIN person_of po ON po.ident = ev.ident
    WHERE ${inWindow(w)} AND ${NET}
    GROUP BY 1, 2`

/**
 * reach/show, by_audience=target, by_position=publisher, by_region=level1 (the person's home),
 * platform=pm, metrics=all, net: per (target, publisher, province) with a reached person.
 * Impressions are projected with their platform's factor, a reached person counts with weight x
 * the impression-weighted mean of their factors, reach capped at the universe.
 */
export function reachSql(w: Window, targets: DuckInputs['targets'], panelTags: string[]): string {
  const n = Array.from({ length: 10 }, (_, i) => i + 1)
  return `WITH tp AS (${targetPersons(targets, new Set(panelTags))}),
    x AS (${personCountsSql(w)}),
    k AS (${factorsSql(w, 'imp')}),
    home AS (SELECT p.person_id, p.weight, p.has_device, r.region_id FROM persons p JOIN rcells rc ON rc.level = 1 AND rc.rid = p.home JOIN regions r ON r.rid = rc.cell),
    pc AS (SELECT tp.target_id, x.publisher_id, h.region_id, x.ipc + x.imb AS imps,
        x.ipc * h.weight * k.kpc + x.imb * h.weight * k.kmb AS pimp,
        h.weight * (x.ipc * k.kpc + x.imb * k.kmb) / (x.ipc + x.imb) AS pw
      FROM x JOIN tp ON tp.person_id = x.person_id JOIN home h ON h.person_id = x.person_id JOIN k ON k.publisher_id = x.publisher_id
      WHERE x.ipc + x.imb > 0),
    uni AS (SELECT tp.target_id, h.region_id, sum(h.weight) AS u FROM tp JOIN home h ON h.person_id = tp.person_id WHERE h.has_device GROUP BY 1, 2)
    SELECT pc.target_id, pc.publisher_id, pc.region_id, ${round('uni.u')}::DOUBLE AS universe,
      ${round('sum(pc.pimp)')}::DOUBLE AS imp_acc,
      (CASE WHEN uni.u > 0 THEN ${round('100 * sum(pc.pimp) / uni.u')} END)::DOUBLE AS grp_acc,
      ${n.map((k) => `${round(`least(coalesce(sum(pc.pw) FILTER (WHERE pc.imps >= ${k}), 0), uni.u)`)}::DOUBLE AS rch_acc_p${hh(k)}`).join(', ')},
      ${n.map((k) => `(count(*) FILTER (WHERE pc.imps >= ${k}))::INTEGER AS rch_spl_p${hh(k)}`).join(', ')}
    FROM pc JOIN uni ON uni.target_id = pc.target_id AND uni.region_id = pc.region_id
    GROUP BY pc.target_id, pc.publisher_id, pc.region_id, uni.u`
}

/**
 * audience/show, by_position=publisher, metrics=all, every tag: tag shares (pct) and indexes (idx)
 * of the exposed (impression) and clicking persons, net traffic, any platform and region, each
 * person with weight x the mean of their calibration factors (impressions' for uim, clicks' for ucl).
 */
export function audienceSql(w: Window): string {
  const pct = (part: string, total: string) => `CASE WHEN ${total} > 0 THEN ${round(`100 * ${part} / ${total}`)} END`
  const idx = (part: string, total: string) => `CASE WHEN ${total} > 0 AND base.bw > 0 THEN ${round(`100 * (100 * ${part} / ${total}) / (100 * base.bw / btot.w)`)} END`
  return `WITH x AS (${personCountsSql(w)}),
    ki AS (${factorsSql(w, 'imp')}),
    kc AS (${factorsSql(w, 'clk')}),
    xw AS (SELECT x.person_id, x.publisher_id, x.ipc + x.imb > 0 AS imp, x.cpc + x.cmb > 0 AS clk,
        CASE WHEN x.ipc + x.imb > 0 THEN p.weight * (x.ipc * ki.kpc + x.imb * ki.kmb) / (x.ipc + x.imb) ELSE 0 END AS iweight,
        CASE WHEN x.cpc + x.cmb > 0 THEN p.weight * (x.cpc * kc.kpc + x.cmb * kc.kmb) / (x.cpc + x.cmb) ELSE 0 END AS cweight
      FROM x JOIN persons p ON p.person_id = x.person_id LEFT JOIN ki ON ki.publisher_id = x.publisher_id LEFT JOIN kc ON kc.publisher_id = x.publisher_id),
    tot AS (SELECT publisher_id, coalesce(sum(iweight) FILTER (WHERE imp), 0) AS iw, coalesce(sum(cweight) FILTER (WHERE clk), 0) AS cw FROM xw GROUP BY 1),
    bytag AS (SELECT xw.publisher_id, t.tag_id, coalesce(sum(xw.iweight) FILTER (WHERE imp), 0) AS it, coalesce(sum(xw.cweight) FILTER (WHERE clk), 0) AS ct
      FROM xw JOIN person_tags t ON t.person_id = xw.person_id GROUP BY 1, 2),
    base AS (SELECT pt.tag_id, coalesce(sum(p.weight), 0) AS bw FROM panel_tags pt LEFT JOIN person_tags t ON t.tag_id = pt.tag_id LEFT JOIN persons p ON p.person_id = t.person_id GROUP BY 1),
    btot AS (SELECT sum(weight) AS w FROM persons)
    SELECT tot.publisher_id, base.tag_id,
      (${pct('coalesce(bytag.it, 0)', 'tot.iw')})::DOUBLE AS uim_pct, (${pct('coalesce(bytag.ct, 0)', 'tot.cw')})::DOUBLE AS ucl_pct,
      (${idx('coalesce(bytag.it, 0)', 'tot.iw')})::DOUBLE AS uim_idx, (${idx('coalesce(bytag.ct, 0)', 'tot.cw')})::DOUBLE AS ucl_idx
    FROM tot CROSS JOIN base CROSS JOIN btot LEFT JOIN bytag ON bytag.publisher_id = tot.publisher_id AND bytag.tag_id = base.tag_id
    WHERE tot.iw > 0 OR tot.cw > 0`
}

/** Runs `sql` `runs` times (after one untimed run); returns the times (ms) and the rows of the last run. */
export async function timeQuery(conn: DuckDBConnection, sql: string, runs: number): Promise<{ ms: number[]; rows: Record<string, unknown>[] }> {
  await conn.run(sql)
  const ms: number[] = []
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now()
    await conn.run(sql)
    ms.push(performance.now() - t0)
  }
  const rows = (await conn.runAndReadAll(sql)).getRowObjectsJS() as Record<string, unknown>[]
  return { ms, rows }
}
