/**
 * The problem catalogue: each refusal the engine writes has a stable key, named arguments, and
 * here the one function that writes its English `error_description` from them. A refusal travels
 * with its key and arguments (docs/errors.md, "Problem keys"), so that a client such as the app
 * says it in its own language without reading the English; the renderer's i18n has an entry per
 * key in English and Chinese (test/renderer/problem-i18n.test.ts keeps the three in step).
 *
 * An argument's name says what it holds, for a client that words it in its own language
 * (renderer/src/utils/problem-text.ts): `param` the parameter the problem is about (a value's
 * problem reads "The '<param>' <problem>."), a name ending in `Param` another parameter, `group`
 * and `groups` endpoint groups of the server modes, `mode` a server mode, `kind` a record kind of
 * the outbox, `records` a kind of pulled list, `ref` a reference kind, `position*` report positions, `level` a region level, `what`
 * a word of the catalogue, `cause` a system error code with its `reason`, `detail` and `reason` a
 * nested message (either may be a nested problem); any other argument is a value shown as it is.
 */

/** A problem's named arguments: ids, names, values as given, limits, and a nested problem (the refusal of a member of a parameter). */
export type ProblemArgs = Readonly<Record<string, string | number | Problem>>

/** A refusal's key and arguments, as it travels beside `error`/`error_description`. */
export interface Problem {
  readonly key: string
  readonly args: ProblemArgs
}

/** A message that is a problem, or a text of no key (a fault's own words) said as it is. */
export type Told = Problem | string

/** The English of `m`: a problem's text, or the text itself. */
export const toldText = (m: Told): string => (typeof m === 'string' ? m : describeProblem(m))

/** A nested problem's English, without its full stop (it stands inside another sentence). */
const inner = (p: Problem): string => describeProblem(p).replace(/\.$/, '')

const say = <A extends ProblemArgs = Record<never, never>>(text: (a: A) => string) => text

/** "The '<param>' <problem>." — a parameter's refusal, the most common form. */
const param = <A extends ProblemArgs = Record<never, never>>(problem: (a: A & { param: string }) => string) => say<A & { param: string }>((a) => `The '${a.param}' ${problem(a)}.`)

type Got = { got: string | number }

/** The end of the refusal of too large a report answer. */
const NARROW = (max: number): string =>
  `more than the ${max} one answer holds: page the positions with limit, name fewer regions (region_id, another by_region) or targets (target_id), or leave out with_null`
type Range = { min: number; max: number; got: string | number }

export const PROBLEMS = {
  // parameter codecs (engine/contract/params.ts)
  'param.required': param(() => 'is required'),
  'param.empty': param(() => 'should not be empty'),
  'param.tooLong': param<{ max: number }>((a) => `is longer than ${a.max} characters`),
  'param.control': param(() => 'contains control characters'),
  'param.urlControl': param(() => 'contains control characters (a tab, a line break or another); a URL has none'),
  'param.emptyEntry': param<{ sep: string }>((a) => `has an empty entry; write ${a.param}=A${a.sep}B${a.sep}C`),
  'param.emptyItem': param(() => 'has an empty entry'),
  'param.tooManyEntries': param<{ max: number }>((a) => `has more than ${a.max} entries`),
  'param.id': param<Got>((a) => `must be a positive integer id, got '${a.got}'`),
  'param.key': param<Got>((a) => `must be an identifier of letters, digits, '_', '.' or '-', got '${a.got}'`),
  'param.date': param<Got>((a) => `must be a date written YYYY-MM-DD, got '${a.got}'`),
  'param.between': param<Range>((a) => `must be between ${a.min} and ${a.max}, got ${a.got}`),
  'param.integer': param<Got>((a) => `must be an integer, got '${a.got}'`),
  'param.url': param<Got>((a) => `must be an absolute http:// or https:// URL, got '${a.got}'`),
  'param.urlScheme': param<Got>((a) => `must begin with http:// or https://, got '${a.got}'`),
  'param.limitForm': param<Got>((a) => `must be written M,N with two non-negative integers, got '${a.got}'`),
  'param.limitN': param<{ max: number; got: number }>((a) => `N must be between 1 and ${a.max}, got ${a.got}`),
  'param.keywordEmpty': param<{ entry: string }>((a) => `has an entry with an empty keyword name ('${a.entry}')`),
  'param.twice': param<{ what: string; value: string }>((a) => `names the ${a.what} '${a.value}' twice`),
  'param.flag01': param<Got>((a) => `must be 0 or 1, got '${a.got}'`),
  'param.onOff': param<Got>((a) => `must be on or off, got '${a.got}'`),
  'param.oneOf': param<Got & { list: string }>((a) => `must be one of ${a.list}, got '${a.got}'`),
  'param.amount': param<Got>((a) => `must be a non-negative amount such as 10000 or 9.99, got '${a.got}'`),
  'param.decimal': param<Got>((a) => `must be a decimal number such as 1 or 0.25, got '${a.got}'`),
  'param.vendingModel': param<Got & { list: string }>((a) => `must be level1-level2 with level 1 one of ${a.list}, got '${a.got}'`),
  'param.emptyGroup': param<Got>((a) => `has an empty group; write tag ids joined by , in groups joined by &, got '${a.got}'`),
  'param.spotIdStr': param<Got>((a) => `must be a base-62 spot id (characters 0-9, A-Z, a-z), got '${a.got}'`),
  'param.spotCap': param<Got>((a) => `must be written like S0+, S3+D or M5-W (case-sensitive), got '${a.got}'`),
  'param.codeOption': param<{ option: string; list: string }>((a) => `has the unknown option '${a.option}'; options: ${a.list}`),
  'param.utmBoth': param(() => 'may hold utm or utm_auto, not both'),
  'param.noKeyword': param(() => 'has no keyword'),
  'param.tooManyKeywords': param<{ max: number }>((a) => `has more than ${a.max} keywords`),
  'param.keywordEntry': param<{ entry: string }>((a) => `entries must be keyword_id^keyword_name^landing_page, got '${a.entry}'`),
  'param.either': param<{ otherParam: string }>((a) => `cannot be combined with ${a.otherParam}; give one of them`),
  'param.together': param<{ otherParam: string }>((a) => `must be sent together with '${a.otherParam}'`),
  'param.nameUsed': param<{ value: string; id: string }>((a) => `'${a.value}' is already used by campaign ${a.id}`),
  // records and reference lists (engine/storage/repos, engine/routes)
  'param.notFound': param<{ value: string }>((a) => `${a.value} cannot be found`),
  'param.notFoundSee': param<{ value: string; list: string }>((a) => `${a.value} cannot be found (see ${a.list})`),
  'param.notFoundQuoted': param<{ value: string }>((a) => `'${a.value}' cannot be found`),
  'param.beforeToday': param<{ date: string; today: string; zone: string }>((a) => `(${a.date}) is earlier than today (${a.today}, ${a.zone})`),
  'ref.namesNo': param<{ value: string; what: string; list: string }>((a) => `${a.value} names no ${a.what} (see ${a.list})`),
  'ref.noBrand': param<{ value: string }>((a) => `${a.value} names no brand`),
  'ref.needsAdvertiser': param<{ otherParam: string }>((a) => `requires ${a.otherParam}, the brand's advertiser`),
  'ref.brandOwner': param<{ value: string; owner: string; chosen: string }>((a) => `${a.value} belongs to advertiser ${a.owner}, not to advertiser_id ${a.chosen}`),
  'ref.notInList': param<{ value: string; list: string }>((a) => `'${a.value}' is not in ${a.list}`),
  // campaigns (engine/routes/campaigns-write.ts)
  'campaign.wares': param<Got>((a) => `must be written advertiser|brand name|product name, got '${a.got}'`),
  'campaign.siteIds': param<Got>((a) => `must be analytics site ids separated by ;, got '${a.got}'`),
  'campaign.noPanel': param<{ platform: string }>((a) => `is required: there is no ${a.platform} panel to default to`),
  'campaign.plansOutside': param<{ start: string; end: string; details: string }>((a) =>
    `would leave plan days outside the campaign's dates ${a.start}..${a.end}: ${a.details}; remove those days from the spots' plans first (update_spot with delete_slot)`),
  'campaign.plansOutsideBoth': param<{ start: string; end: string; details: string }>((a) =>
    `and the 'end_date' would leave plan days outside the campaign's dates ${a.start}..${a.end}: ${a.details}; remove those days from the spots' plans first (update_spot with delete_slot)`),
  'campaign.advertiserBrand': param<{ brand: string; owner: string }>((a) => `changes the advertiser while the campaign's brand ${a.brand} belongs to advertiser ${a.owner}; send brand_id too`),
  // spots, their keywords and plan days (engine/routes/spots-*.ts)
  'spot.programEmpty': param<Got>((a) => `has an empty entry; write program names separated by ',', got '${a.got}'`),
  'spot.keywordNotOfSpot': param<{ id: string; spot: string }>((a) => `names keyword_id ${a.id}, which is not a keyword of spot ${a.spot}`),
  'spot.keywordRenamed': param<{ id: string; value: string; owner: string }>((a) => `renames keyword ${a.id} to '${a.value}', which keyword ${a.owner} of the spot already has`),
  'spot.keywordTwice': param<{ value: string; id: string }>((a) => `names '${a.value}', which the spot already has (keyword_id ${a.id})`),
  'slot.alsoNamed': param<{ date: string; otherParam: string }>((a) => `names ${a.date}, which ${a.otherParam} also names`),
  'slot.notInPlan': param<{ date: string }>((a) => `names ${a.date}, which is not in the plan`),
  'slot.notInPlanAdd': param<{ date: string }>((a) => `names ${a.date}, which is not in the plan; use add_slot`),
  'slot.inPlan': param<{ date: string }>((a) => `names ${a.date}, which is already in the plan; use update_slot`),
  'slot.addAndUpdate': param(() => 'cannot be sent with add_slot in one request'),
  'slot.needsDates': param(() => 'requires add_slot or update_slot'),
  'slot.needsEstimates': param(() => 'needs est_impression or est_click with a value for each date'),
  'batch.memberList': param(() => 'must be a string, or an array of strings or numbers'),
  'batch.member': param(() => 'must be a string or a number'),
  'batch.itemsObjects': param(() => 'items must be JSON objects'),
  'batch.campaignDiffers': param<{ own: string; campaign: string }>((a) => `(${a.own}) differs from the body's campaign_id ${a.campaign}; one request creates spots in one campaign`),
  'batch.body': param(() => 'must be a JSON object {"campaign_id": ..., "spots": [...]}'),
  'batch.noSpots': param(() => 'must be a non-empty array of spot objects'),
  'batch.tooMany': param<{ n: number; max: number }>((a) => `has ${a.n} items; at most ${a.max} are accepted in one request`),
  // targets (engine/routes/targets.ts)
  'target.tagNotInPanel': param<{ value: string; panel: string }>((a) => `names the tag '${a.value}', which panel ${a.panel} does not have (see /cms/v1/panels/show?panel_id=${a.panel})`),
  'target.mixedTypes': param<{ types: string }>((a) => `joins tags of different types (${a.types}) with ','; join types with '&'`),
  'target.typeTwice': param<{ type: string }>((a) => `uses the tag type '${a.type}' in two groups; list its tags in one group joined by ','`),
  'target.nameExists': param(() => 'has been existed in this campaign'),
  // minisites (engine/routes/minisites.ts)
  'minisite.eventsEmpty': param<Got>((a) => `has an empty entry; write event names separated by ',', got '${a.got}'`),
  'minisite.eventLong': param<{ start: string }>((a) => `names an event longer than 100 characters ('${a.start}...')`),
  'minisite.eventTwice': param(() => 'names an event twice'),
  'minisite.nameUsed': param<{ value: string; id: string }>((a) => `'${a.value}' is already the name of minisite ${a.id}`),
  'minisite.eventExists': param<{ value: string }>((a) => `names the event '${a.value}', which the minisite already has`),
  // a spot's plan and a campaign's dates (engine/contract/plan-rules.ts); an argument named *Param names another parameter
  'plan.beforeOther': param<{ date: string; otherParam: string; otherDate: string }>((a) => `(${a.date}) is earlier than ${a.otherParam} (${a.otherDate})`),
  'plan.dateOutside': param<{ date: string; start: string; end: string }>((a) => `has ${a.date}, outside the campaign's dates ${a.start}..${a.end}`),
  'plan.requires': param<{ otherParam: string }>((a) => `requires ${a.otherParam}`),
  'plan.valueCount': param<{ n: number; dates: number; otherParam: string }>((a) => `has ${a.n} values for the ${a.dates} dates of ${a.otherParam}`),
  'plan.combined': param<{ othersParam: string }>((a) => `cannot be combined with ${a.othersParam}`),
  'plan.needsPlan': param<{ beginParam: string; durationParam: string }>((a) => `requires a plan: send ${a.beginParam} and ${a.durationParam}`),
  'plan.together': param<{ otherParam: string }>((a) => `must be sent together with ${a.otherParam}`),
  'plan.beginOutside': param<{ date: string; start: string; end: string }>((a) => `(${a.date}) lies outside the campaign's dates ${a.start}..${a.end}`),
  'plan.runsPast': param<{ days: number; begin: string; last: string; start: string; end: string }>((a) =>
    `(${a.days} days from ${a.begin}, to ${a.last}) runs past the campaign's dates ${a.start}..${a.end}`),
  'plan.bidding': param<Got>((a) => `must be 'Bidding' or 'Bidding word' (Bidding word, capital B) for a spot with keywords, got '${a.got}'`),
  // reports (engine/contract/report-rules.ts, engine/reports, engine/routes/report-days.ts)
  'report.onlyPosition': param<{ position: string }>((a) => `is valid only when by_position=${a.position}`),
  'report.onlyPositions': param<{ position1: string; position2: string }>((a) => `is valid only when by_position is ${a.position1} or ${a.position2}`),
  'report.onlyPositions3': param<{ position1: string; position2: string; position3: string }>((a) => `is valid only when by_position is ${a.position1}, ${a.position2} or ${a.position3}`),
  'report.onlyTarget': param(() => 'is valid only when by_audience=target'),
  'report.onlySdk': param(() => 'is valid only when platform=mb and (metrics=all, or metrics=acc with by_position campaign or publisher)'),
  'report.noDayWithTarget': param(() => "'day' is not valid when by_audience=target"),
  'report.limitStart': param<{ m: number; total: number }>((a) => `starts at ${a.m}, but there are ${a.total} spots (M must be below total_spot_num)`),
  'report.limitEnd': param<{ end: number; total: number }>((a) => `runs to ${a.end}, past the ${a.total} spots there are (M+N must not exceed total_spot_num)`),
  'report.limitStartPublishers': param<{ m: number; total: number }>((a) => `starts at ${a.m}, but there are ${a.total} publishers (M must be below the number of publishers)`),
  'report.limitEndPublishers': param<{ end: number; total: number }>((a) => `runs to ${a.end}, past the ${a.total} publishers there are (M+N must not exceed the number of publishers)`),
  'report.tooManyRows': param<{ rows: number; positions: number; regions: number; max: number }>((a) => `would give an answer of ${a.rows} rows (${a.positions} positions x ${a.regions} regions), ${NARROW(a.max)}`),
  'report.tooManyRowsTargets': param<{ rows: number; positions: number; regions: number; targets: number; max: number }>((a) =>
    `would give an answer of ${a.rows} rows (${a.positions} positions x ${a.regions} regions x ${a.targets} targets), ${NARROW(a.max)}`),
  'report.notRegion': param<{ value: string; level: string }>((a) => `'${a.value}' is not a ${a.level} region (see /cms/v1/regions/list)`),
  'report.notTagType': param<{ value: string; types: string }>((a) => `'${a.value}' is not a tag type of panel ${a.types} (see /cms/v1/panels/show)`),
  'report.orderField': param<{ value: string; list: string }>((a) => `'${a.value}' is not an attribute or metric of this answer; one of: ${a.list}`),
  'report.orderMetric': param<{ value: string; list: string }>((a) =>
    `'${a.value}' is not an attribute or metric of this answer; one of: ${a.list}. A metric is answered, and can order, only when 'metrics' asks for it (metrics=all asks for every one)`),
  'report.tooManyDays': param<{ max: number; start: string }>((a) => `leaves more than ${a.max} days after start_date (${a.start}); ask for fewer days`),
  'report.tooManyDayRows': param<{ rows: number; date: string; max: number }>((a) =>
    `would give an answer of more than the ${a.max} rows one answer holds (${a.rows} rows up to ${a.date}): ask for fewer days, or fewer rows a day (limit, region_id, another by_region, or without with_null)`),
  // imports, jobs and the simulator (engine/measure, engine/routes/measure.ts)
  'job.gone': param<{ id: string }>((a) => `${a.id} is not a job of this run of the engine`),
  'import.unknownColumns': param<{ unknown: string; columns: string }>((a) => `has unknown CSV columns ${a.unknown}; columns: ${a.columns}`),
  'import.tooManyLines': param<{ max: number }>((a) => `has more than ${a.max} lines; split the file`),
  'panel.emptyCsv': param<{ header: string }>((a) => `is empty; a CSV file starts with a header row: ${a.header}`),
  'panel.notCsv': param<{ reason: Problem }>((a) => `is not a panel CSV file: ${describeProblem(a.reason)}`),
  'panel.tooManyPersons': param<{ persons: number; max: number }>((a) => `has ${a.persons} persons; at most ${a.max} are imported at once, split the file`),
  'panel.demoTags': param<{ panel: string; tags: string }>((a) => `names panel ${a.panel}, which lacks the demo tags the generator writes (${a.tags})`),
  'panelFile.lacksColumn': say<{ columns: string; header: string }>((a) => `the header row lacks the column ${a.columns}; a header row is required: ${a.header}`),
  'panelFile.lacksColumns': say<{ columns: string; header: string }>((a) => `the header row lacks the columns ${a.columns}; a header row is required: ${a.header}`),
  'panelFile.columnTwice': say<{ column: string }>((a) => `the header row names the column ${a.column} twice`),
  'panelFile.unknownColumn': say<{ columns: string; header: string }>((a) => `the header row names the unknown column ${a.columns}; the columns are ${a.header}`),
  'panelFile.unknownColumns': say<{ columns: string; header: string }>((a) => `the header row names the unknown columns ${a.columns}; the columns are ${a.header}`),
  'panelLine.missing': say<{ column: string }>((a) => `'${a.column}' is missing`),
  'panelLine.string': say<Got & { column: string }>((a) => `'${a.column}' must be a string, got ${a.got}`),
  'panelLine.strings': say<{ column: string }>((a) => `'${a.column}' must be an array of strings`),
  'panelLine.devices': say(() => "'devices' must be an array of {device, platform} objects"),
  'panelLine.deviceObject': say<{ index: number }>((a) => `'devices[${a.index}]' must be an object {"device": "...", "platform": "pc" or "mb"}`),
  'panelLine.json': say<{ char: number }>((a) => `malformed JSON: it breaks at character ${a.char}`),
  'panelLine.jsonEnd': say(() => 'malformed JSON: the line ends before its JSON does'),
  'panelLine.object': say(() => 'must be a JSON object'),
  'panelLine.weightString': say<Got>((a) => `'weight' must be a number, got the string ${a.got}`),
  'panelLine.weight': say<Got>((a) => `'weight' must be a number, got ${a.got}`),
  'panelLine.weightQuoted': say<Got>((a) => `'weight' must be a number, got '${a.got}'`),
  'panelLine.weightRange': say<Got & { max: number }>((a) => `'weight' must be a number above 0 and at most ${a.max}, got ${a.got}`),
  'panelLine.personId': say<Got>((a) => `'person_id' must be 1-64 ASCII letters, digits or _ . : @ -, got '${a.got}'`),
  'panelLine.region': say<Got & { list: string }>((a) => `'home_region' ${a.got} is not a region id (see ${a.list})`),
  'panelLine.fieldCount': say<{ n: number; header: number }>((a) => `has ${a.n} fields, the header has ${a.header}`),
  'panelLine.tagOfPanel': say<{ tag: string; panel: string }>((a) => `the tag '${a.tag}' is not a tag of panel ${a.panel}`),
  'panelLine.tagTwice': say<{ tag: string }>((a) => `names the tag '${a.tag}' twice`),
  'panelLine.tagType': say<{ type: string; first: string; second: string }>((a) => `has two tags of the type ${a.type} ('${a.first}' and '${a.second}'); a person has at most one tag of each type`),
  'panelLine.deviceCount': say<{ n: number; max: number }>((a) => `has ${a.n} devices; at most ${a.max}`),
  'panelLine.devicePrefix': say<{ device: string }>((a) => `the device '${a.device}' must be written pc:<device> or mb:<device>`),
  'panelLine.platform': say<{ device: string; platform: string }>((a) => `the device '${a.device}' has the platform '${a.platform}'; write pc or mb`),
  'panelLine.deviceTwice': say<{ device: string }>((a) => `names the device '${a.device}' twice`),
  'panelLine.amid': say<{ device: string }>((a) => `the device '${a.device}' is not an amid cookie: its value is 32 hexadecimal digits`),
  'panelLine.namespace': say<{ device: string; list: string }>((a) => `the device '${a.device}' must be written namespace:value with a namespace of ${a.list}`),
  'panelLine.deviceEmpty': say<{ device: string; max: number }>((a) => `the device '${a.device}' holds no device id (empty, a placeholder, only zeros, spaces, or over ${a.max} characters)`),
  'panelLine.devicePipe': say<{ device: string }>((a) => `the device '${a.device}' contains '|', which separates devices in CSV files`),
  'panelLine.mobile': say<{ device: string }>((a) => `the device '${a.device}' is a mobile device id; its platform is mb`),
  'panelLine.personTwice': say<{ person: string; line: number }>((a) => `the person_id '${a.person}' is also on line ${a.line}`),
  'panelLine.deviceLine': say<{ device: string; line: number }>((a) => `the device '${a.device}' is also on line ${a.line}; a device belongs to one person`),
  'panelLine.deviceOwner': say<{ device: string; person: string; panel: string }>((a) => `the device '${a.device}' belongs to the person '${a.person}' of panel ${a.panel}; a device belongs to one person`),
  'panelLine.openQuote': say(() => 'has a quoted field without its closing quote'),
  'panelLine.afterQuote': say(() => 'has text after a closing quote'),
  'sim.noSpots': param<{ id: string }>((a) => `(${a.id}) has no spots: create its spots (and their plans) first, then simulate`),
  'sim.noTraffic': param<{ id: string; from: string; to: string; now: string }>((a) =>
    `(${a.id}) plans no traffic for ${a.from}..${a.to} before now (${a.now}): its spots are planned on other or later days (traffic is simulated up to now, never ahead), or with no impressions`),
  'sim.tooManyDays': param<{ value: string; hits: number; from: string; to: string; max: number }>((a) =>
    `(${a.value}) plans ${a.hits} hits for ${a.from}..${a.to} up to now, more than the ${a.max} one simulation makes: simulate fewer days at a time (a later from_date), or use a scale below 1`),
  'sim.tooManyScale': param<{ value: string; hits: number; from: string; to: string; max: number }>((a) =>
    `(${a.value}${a.value === '1' ? ', the default' : ''}) plans ${a.hits} hits for ${a.from}..${a.to} up to now, more than the ${a.max} one simulation makes: lower it`),
  'sim.tooManyScaleDays': param<{ value: string; hits: number; from: string; to: string; max: number }>((a) =>
    `(${a.value}${a.value === '1' ? ', the default' : ''}) plans ${a.hits} hits for ${a.from}..${a.to} up to now, more than the ${a.max} one simulation makes: lower it, or simulate fewer days at a time`),
  'sim.emptyRange': param<{ from: string; to: string }>((a) => `makes an empty range ${a.from}..${a.to}`),
  'sim.emptyRangeDefault': param<{ from: string; to: string }>((a) => `makes an empty range ${a.from}..${a.to} (to_date defaults to the earlier of today and the campaign end)`),
  'sim.outside': param<{ from: string; to: string; start: string; end: string }>((a) => `makes ${a.from}..${a.to}, outside the campaign's dates ${a.start}..${a.end}`),
  'sim.afterToday': param<{ date: string; today: string; zone: string }>((a) => `(${a.date}) is after today (${a.today}, ${a.zone}): traffic is simulated up to now, never ahead`),
  'sim.append': param<{ from: string; to: string; campaign: string; events: number }>((a) =>
    `must be 1 to simulate ${a.from}..${a.to}: campaign ${a.campaign} already has ${a.events} events on those days, and a second simulation adds its traffic to them (the same seed, the same identities again)`),
  'sim.date': param(() => 'must be a date written YYYY-MM-DD'),
  'sim.integer': param(() => 'must be an integer'),
  'sim.zone': param<{ value: string }>((a) => `'${a.value}' is not an IANA time zone`),
  'sim.scale': param(() => 'must be a number not below 0'),
  'sim.maxHits': param(() => 'must be an integer not below 0'),
  'sim.until': param(() => 'must be a time in ms'),
  'sim.chunkSize': param<{ max: number }>((a) => `must be an integer from 1 to ${a.max}`),
  'panel.bodyTooLarge': say<{ max: number }>((a) => `The request body is larger than ${a.max} bytes; split the file.`),
  // a request's body and parameters as a door reads them (engine/request.ts, engine/dispatch.ts)
  'body.notObject': param(() => 'must be a JSON object'),
  'body.nested': param(() => 'is a JSON object or an array of them; a parameter is text, a number, a boolean or an array of those'),
  'body.listCommas': param(() => 'is a list whose entries hold commas; a list is written as entries without commas'),
  'body.badJson': param<{ detail: string }>((a) => `is not valid JSON (${a.detail})`),
  'body.charset': say<{ charset: string }>((a) => `The body's charset '${a.charset}' is not accepted; send UTF-8.`),
  'body.tooLarge': say<{ max: number }>((a) => `The request body is larger than ${a.max} bytes.`),
  'body.jsonOnly': say(() => 'This endpoint takes a JSON body (Content-Type: application/json).'),
  'body.type': say<{ type: string }>((a) => `The body type '${a.type}' is not accepted; send application/x-www-form-urlencoded.`),
  'body.typeOrJson': say<{ type: string }>((a) => `The body type '${a.type}' is not accepted; send application/x-www-form-urlencoded or application/json.`),
  'param.repeated': param(() => 'is given more than once'),
  'param.notUtf8': param(() => 'is not UTF-8 text: it holds bytes that are not UTF-8 (shown as U+FFFD); send UTF-8, percent-encoded in a query string or form'),
  'token.twoTokens': param(() => 'and the Authorization header carry different tokens; send one'),
  'path.method': say<{ path: string; method: string }>((a) => `${a.path} does not answer ${a.method}.`),
  'path.none': say<{ path: string }>((a) => `There is no endpoint at ${a.path}; the list is at /openapi.json.`),
  'sync.selfForwarded': param<{ url: string; groups: string; profile: string }>((a) => `is this engine itself (${a.url}), and the ${a.groups} group forwards to profile ${a.profile}: forwarding would loop; answer it locally first`),
  'sync.selfForwardedMany': param<{ url: string; groups: string; profile: string }>((a) => `is this engine itself (${a.url}), and the ${a.groups} groups forward to profile ${a.profile}: forwarding would loop; answer them locally first`),
  // a call to a remote profile's service that failed (engine/sync/remote-error.ts, client.ts)
  'remote.timeout': say<{ host: string; wait: string; path: string }>((a) => `${a.host} did not answer within ${a.wait} (${a.path}).`),
  'remote.dns': say<{ host: string; code: string }>((a) => `The address ${a.host} cannot be found (DNS: ${a.code}); check base_url and the network.`),
  'remote.connRefused': say<{ host: string }>((a) => `Nothing answers at ${a.host} (connection refused); check base_url and that the service is up.`),
  'remote.noAnswer': say<{ host: string; code: string }>((a) => `Nothing answers at ${a.host} (${a.code}); check base_url and that the service is up.`),
  'remote.tls': say<{ host: string; code: string }>((a) => `The secure connection to ${a.host} failed (TLS: ${a.code}); check that the address is right and its certificate is trusted.`),
  'remote.reset': say<{ host: string; code: string; path: string }>((a) => `${a.host} closed the connection (${a.code}) during ${a.path}.`),
  'remote.cannotReach': say<{ host: string; said: string }>((a) => `Cannot reach ${a.host}: ${a.said}.`),
  'remote.redirectElsewhere': say<{ where: string; status: number }>((a) => `${a.where} redirects (HTTP ${a.status}) to another address: use that address in the profile.`),
  'remote.redirect': say<{ where: string; status: number; location: string }>((a) => `${a.where} redirects (HTTP ${a.status}) to ${a.location}: use that address in the profile.`),
  'remote.cutShort': say<{ path: string }>((a) => `The answer of ${a.path} was cut short or is not valid JSON.`),
  'remote.notJson': say<{ path: string }>((a) => `The answer of ${a.path} is not JSON: base_url does not point at this API.`),
  'remote.notOAuthJson': say<{ where: string; status: number }>((a) => `${a.where} is not an OAuth token endpoint (HTTP ${a.status}, not JSON): check auth_url.`),
  'remote.notOAuth': say<{ where: string; status: number }>((a) => `${a.where} is not an OAuth token endpoint (HTTP ${a.status}): check auth_url.`),
  'remote.badGrant': say(() => 'The username or password was refused (invalid_grant).'),
  'remote.badClient': say(() => 'The client id or client secret was refused (invalid_client).'),
  'remote.noPasswordGrant': say<{ where: string }>((a) => `${a.where} does not offer the password grant (unsupported_grant_type).`),
  'remote.tokenRefused': say<{ path: string; code: string }>((a) => `The remote refused the token on ${a.path} (${a.code}).`),
  'remote.refusedAfterLogin': say<{ path: string; said: string }>((a) => `The remote refused ${a.path} with a new token too (${a.said}).`),
  'remote.slowDown': say<{ path: string }>((a) => `The remote asked us to slow down (HTTP 429) on ${a.path}.`),
  'remote.failed': say<{ path: string; said: string }>((a) => `The remote failed on ${a.path} (${a.said}).`),
  'remote.noPath': say<{ path: string }>((a) => `The remote has no ${a.path} (HTTP 404): base_url does not point at this API.`),
  'remote.refused': say<{ path: string; said: string }>((a) => `The remote refused ${a.path} (${a.said}).`),
  'remote.notList': say<{ path: string }>((a) => `${a.path} did not answer with a list.`),
  'remote.notListApi': say<{ path: string }>((a) => `${a.path} did not answer with a list: base_url does not point at this API.`),
  'remote.answeredWithout': say<{ path: string; member: string }>((a) => `${a.path} answered without ${a.member}.`),
  'remote.cancelled': say(() => 'It was cancelled.'),
  // what a pull or a push stores (engine/sync/jobs.ts, pull*.ts, push*.ts, service.ts): `what` is pull or push
  'sync.jobCancelled': say<{ what: string }>((a) => `The ${a.what} was cancelled.`),
  'sync.internal': say<{ what: string; detail: string }>((a) => `The ${a.what} stopped on an internal error: ${a.detail}`),
  'sync.noPassword': say<{ name: string }>((a) => `Profile ${a.name} has no stored password: enter it again.`),
  'sync.noClientSecret': say<{ name: string }>((a) => `Profile ${a.name} has no stored client secret: enter it again.`),
  'sync.loggedIn': say<{ name: string; host: string }>((a) => `Logged in as ${a.name} at ${a.host}; the campaign list answers.`),
  'sync.then': say<{ first: Told; next: Told }>((a) => `${toldText(a.first)} ${toldText(a.next)}`),
  'pull.campaignSkipped': say<{ id: string; reason: Told }>((a) => `campaign ${a.id} skipped: ${toldText(a.reason)}`),
  'pull.listSkipped': say<{ records: string; reason: Told }>((a) => `${a.records} list skipped: ${toldText(a.reason)}`),
  'push.finishedNow': say(() => 'made by an earlier push; finished now'),
  'push.reconciled': say<{ kind: string; id: string }>((a) => `found at the remote as ${a.kind} ${a.id} (made by an interrupted push); not sent again`),
  'push.gone': say<{ kind: string; id: string }>((a) => `The remote no longer has ${a.kind} ${a.id}.`),
  'push.conflict': say<{ kind: string; id: string; fields: string }>((a) =>
    `${a.kind} ${a.id} changed at the remote since the last pull (${a.fields}): not sent; resolve it (keep mine, take theirs or edit).`),
  'push.blocked': say<{ id: string }>((a) => `waits for local campaign ${a.id} to be pushed`),
  'push.choose': say<{ details: string }>((a) => `Choose the remote's record: ${a.details} (sync outbox choose, or the Sync page; pull to refresh the lists).`),
  'push.created': say<{ n: number }>((a) => `${a.n} created`),
  'push.updated': say<{ n: number }>((a) => `${a.n} updated`),
  'push.reconciledN': say<{ n: number }>((a) => `${a.n} reconciled`),
  'push.failed': say<{ n: number }>((a) => `${a.n} failed`),
  'push.inConflict': say<{ n: number }>((a) => `${a.n} in conflict`),
  'push.waiting': say<{ n: number }>((a) => `${a.n} waiting for a choice`),
  'push.blockedN': say<{ n: number }>((a) => `${a.n} blocked`),
  'push.cutOff': say<{ n: number }>((a) => `${a.n} cut off (the next push finds out whether it arrived)`),
  'push.and': say<{ first: Told; next: Told }>((a) => `${toldText(a.first)}, ${toldText(a.next)}`),
  'push.done': say<{ outcomes: Told }>((a) => `${toldText(a.outcomes)}.`),
  'push.nothing': say(() => 'Nothing to send.'),
  'push.stopped': say<{ reason: Told; summary: Told }>((a) =>
    `${toldText(a.reason)} ${toldText(a.summary)} What was not sent stays in the outbox; push again to go on.`),
  // why the stored secrets of a remote profile cannot be read or stored (engine/sync/secrets.ts)
  'secrets.keyFileMode': say<{ path: string; perms: string; command: string }>((a) => `the key file ${a.path} can be read by other users (mode ${a.perms}); run: ${a.command}`),
  'secrets.keyFileSize': say<{ path: string; bytes: number; digits: number; size: number }>((a) =>
    `the key file ${a.path} does not hold a ${a.bytes}-byte key (${a.digits} hex digits; it has ${a.size} bytes). It is left as it is: put the right key file back, or move this one away and enter the secrets again`),
  'secrets.keyFileEmpty': say<{ path: string }>((a) => `the key file ${a.path} is empty, so the stored secrets cannot be read; enter them again`),
  'secrets.keyFileMissing': say<{ path: string }>((a) => `the key file ${a.path} is missing, so the stored secrets cannot be read; enter them again`),
  'secrets.noKeyFile': say(() => 'there is no key file for this data directory, so the stored secrets cannot be read; enter them again'),
  'secrets.format': say(() => 'the stored secret is not in a known format'),
  'secrets.undecryptable': say<{ reason: Told }>((a) => `the stored secrets cannot be decrypted (${toldText(a.reason)}); enter the password and client secret again`),
  'secrets.unstorable': say<{ reason: Told }>((a) => `The secrets cannot be stored: ${toldText(a.reason)}.`),
  // the HTTP door's own refusals (engine/server/http.ts) and a body over its limit
  'door.tooLarge': say<{ max: number }>((a) => `The request body is larger than ${a.max} bytes, the most this endpoint reads.`),
  'door.tooLargeOpen': say<{ max: number; form: number }>((a) =>
    `The request body is larger than ${a.max} bytes, the most read before the access token is known: send it in the query or an Authorization header (a form may then hold up to ${a.form} bytes).`),
  'door.tooLargeServer': say<{ max: number }>((a) => `The request body is larger than ${a.max} bytes, the most this server reads.`),
  'door.host': say<{ host: string; port: number }>((a) => `The Host '${a.host}' is not this server; use http://127.0.0.1:${a.port}.`),
  'door.origin': say<{ origin: string }>((a) => `Calls from the origin '${a.origin}' are not allowed.`),
  'door.nothing': say<{ path: string }>((a) => `There is nothing at ${a.path}: no file of the web interface, and no endpoint (the list is at /openapi.json).`),
  'door.unreadable': say(() => 'The request could not be read.'),
  'door.unsendable': say<{ detail: string }>((a) => `The answer could not be sent (${a.detail}).`),
  'door.headersTooLarge': say(() => 'The request line and headers are larger than 16 KiB; send long values in a POST body.'),
  'door.badHttp': say<{ detail: string }>((a) => `The request is not well-formed HTTP/1.1 (${a.detail}).`),
  'measure.fullCampaign': say<{ id: number; capacity: string }>((a) => `campaign ${a.id} is full: it holds ${a.capacity} events, the most one campaign can hold (docs/measurement.md)`),
  'measure.fullMinisite': say<{ id: number; capacity: string }>((a) => `minisite ${a.id} is full: it holds ${a.capacity} events, the most one minisite can hold (docs/measurement.md)`),
  'measure.fullAnd': say<{ first: Told; next: Told }>((a) => `${toldText(a.first)}; ${toldText(a.next)}`),
  'measure.busy': say<{ max: number }>((a) =>
    `The engine is busy with its recorded events (reading them at a start, a rebuild or after a full disk, or taking a checkpoint) and already holds ${a.max} hits that wait for it; this one was not counted: send it again shortly.`),
  // what any call may get
  'engine.shuttingDown': say(() => 'The engine is shutting down.'),
  'engine.serverError': say(() => 'The server met an unexpected condition; the cause is in its log.'),
  'events.unreadable': say<{ detail: string }>((a) => `The recorded events could not be read at start (${a.detail}); reports and tracking wait for the engine to be restarted.`),
  'token.unknown': say<{ path: string }>((a) => `The access token is unknown or was revoked; request a new one from ${a.path}.`),
  'token.expired': say<{ at: string; path: string }>((a) => `The access token expired at ${a.at}; request a new one from ${a.path}.`),
  'storage.refused': say<{ path: string; reason: string; cause: string }>((a) =>
    `The data directory ${a.path} cannot take writes: ${a.reason} (${a.cause}). Nothing of this request was made; reads keep working. Free space there and send it again.`),
  'panel.empty': say<{ panel: string }>((a) =>
    `The panel ${a.panel} has no persons: import them (POST /local/v1/panels/persons/import?panel_id=${a.panel}) or generate a demo panel (POST /local/v1/panels/generate panel_id=${a.panel}).`),
  // an event import's rejected lines (engine/measure/import.ts, import-run.ts)
  'line.tsMissing': say(() => "'ts' is missing"),
  'line.tsSeconds': say<Got>((a) => `'ts' ${a.got} has 10 digits, as Unix seconds have: it must be milliseconds (${a.got}000 if it is seconds) or an ISO 8601 time`),
  'line.tsFormat': say<Got>((a) => `'ts' must be milliseconds since 1970 or an ISO 8601 time, got '${a.got}'`),
  'line.tsReal': say<Got>((a) => `'ts' is not a real time: '${a.got}'`),
  'line.tsOffset': say<Got>((a) => `'ts' has an impossible offset: '${a.got}'`),
  'line.tsRange': say<Got>((a) => `'ts' must lie between 1970 and 2100, got '${a.got}'`),
  'line.identityForm': say<Got & { list: string }>((a) => `'identity' must be namespace:value with a namespace of ${a.list}, got '${a.got}'`),
  'line.identityEmpty': say<Got>((a) => `'identity' holds no usable id: '${a.got}'`),
  'line.identityTooMany': say<{ n: number; max: number }>((a) => `'identity' joins ${a.n} ids with '|': one device holds at most ${a.max}`),
  'line.identityAmid': say<Got>((a) => `'identity' joins device ids with '|': an amid cookie is never joined with others, got '${a.got}'`),
  'line.noIdentity': say(() => "has no identity: give 'identity', or 'ip' and 'user_agent'"),
  'line.type': say<Got>((a) => `'type' must be impression, click or event, got '${a.got}'`),
  'line.region': say<Got>((a) => `'region_id' ${a.got} is not a region`),
  'line.platform': say<Got>((a) => `'platform' must be pc or mb, got '${a.got}'`),
  'line.sdk': say<Got>((a) => `'sdk' must be mm, mz or none, got '${a.got}'`),
  'line.id': say<Got & { column: string }>((a) => `'${a.column}' must be a positive integer id, got '${a.got}'`),
  'line.noSpot': say(() => "has neither 'spot_id' nor a valid 'spot_id_str'"),
  'line.spotOfCampaign': say<{ spot: number; campaign: number }>((a) => `spot ${a.spot} is not a spot of campaign ${a.campaign}`),
  'line.keywordOfSpot': say<{ keyword: number; spot: number }>((a) => `keyword ${a.keyword} is not a keyword of spot ${a.spot}`),
  'line.noMinisite': say<{ minisite: number }>((a) => `minisite ${a.minisite} does not exist`),
  'line.eventOfMinisite': say<{ event: number; minisite: number }>((a) => `event ${a.event} is not an event of minisite ${a.minisite}`),
  'line.spotIdStr': say<Got>((a) => `'spot_id_str' is not a spot id, got '${a.got}'`),
  'line.campaignOfMinisite': say<{ campaign: number; minisite: number }>((a) => `campaign ${a.campaign} is not linked to minisite ${a.minisite}`),
  'line.needsCampaign': say<{ column: string }>((a) => `'${a.column}' needs 'campaign_id' on an event line`),
  'line.fieldCount': say<{ n: number; header: number }>((a) => `has ${a.n} fields, the header ${a.header}`),
  'line.json': say<{ char: number }>((a) => `is not a JSON object: its JSON breaks at character ${a.char}`),
  'line.jsonEnd': say(() => 'is not a JSON object: the line ends before its JSON does'),
  'line.notObject': say(() => 'is JSON but not an object; each line is one JSON object'),
  // a batch's item (engine/routes/spots-batch.ts): item N's refusal, N from 0
  'batch.item': say<{ index: number; reason: Problem }>((a) => `item[${a.index}] ${describeProblem(a.reason)}`),
  // the sync outbox (engine/sync/outbox*.ts)
  'outbox.badMember': say<{ reason: Problem }>((a) => `The 'params' holds a bad member: ${inner(a.reason)}.`),
  'outbox.choiceNoValue': say<{ member: string }>((a) => `The 'params' holds a bad member: ${a.member} has no '=' (${a.member}=REMOTE_ID chooses a record, ${a.member}= chooses none).`),
  'outbox.choiceTwice': say<{ member: string }>((a) => `The 'params' holds a bad member: ${a.member} is given twice.`),
  'outbox.noOp': param<{ id: string }>((a) => `names no outbox operation (${a.id})`),
  'outbox.notPulled': param<{ kind: string; id: string }>((a) => `has no pulled copy of remote ${a.kind} ${a.id} for this profile: pull first, so that changes at the remote can be told apart`),
  'outbox.pushedAlready': param<{ kind: string; id: string }>((a) => `was pushed already as remote ${a.kind} ${a.id}: queue an update instead`),
  'outbox.notPushed': param(() => 'has not been pushed to this profile yet: queue a create'),
  'outbox.sendingQueue': param<{ id: string }>((a) => `is being sent (operation ${a.id}, outcome unknown): push again before queuing it anew`),
  'outbox.sendingEdit': param(() => 'is being sent (outcome unknown): push again before editing it'),
  'outbox.sending': param(() => 'is being sent (outcome unknown): push again first'),
  'outbox.noLocal': param<{ kind: string; id: string }>((a) => `names no local ${a.kind} (${a.id})`),
  'outbox.notParam': param<{ member: string; path: string }>((a) => `member '${a.member}' is not a parameter of ${a.path}`),
  'outbox.lacks': param<{ names: string; path: string }>((a) => `lacks ${a.names} (required by ${a.path})`),
  'outbox.noChange': param(() => 'holds no change to send'),
  'outbox.noDiff': param<{ kind: string; id: string }>((a) => `differs in no field from the pulled copy of remote ${a.kind} ${a.id}: nothing to send`),
  'outbox.brandAlone': param(() => 'holds a brand without its advertiser (advertiser_name or advertiser_id): a brand is found within its advertiser'),
  'outbox.notPulledRef': param<{ member: string; value: string; ref: string }>((a) => `holds ${a.member}=${a.value}, which names no pulled ${a.ref}`),
  'outbox.notPulledBrand': param<{ member: string; value: string }>((a) => `holds ${a.member}=${a.value}, which names no pulled brand of the advertiser`),
  'outbox.notWaiting': param<{ member: string; waiting: string }>((a) => `member '${a.member}' is not a reference waiting for a choice (${a.waiting})`),
  'outbox.noChoice': param<{ state: string }>((a) => `waits for no choice (state ${a.state})`),
  'outbox.needChoice': param(() => 'is required to choose (advertiser_id=REMOTE_ID&...)'),
  'outbox.noTargetUpdate': param(() => 'cannot be update for a target: the service has no target update (publish_target creates)'),
  'outbox.needSlot': param<{ names: string }>((a) => `${a.names} need add_slot (the plan days)`),
  'outbox.needParams': param(() => 'is required without local_id'),
  'outbox.needParamsEdit': param(() => 'is required to edit'),
  'outbox.needRemoteId': param(() => 'is required for an update without local_id'),
  'outbox.needCampaign': param<{ kind: string }>((a) => `is required for a ${a.kind} create without local_id (the remote campaign)`),
  // remote profiles, pulled records and snapshots (engine/sync/profiles.ts, browse.ts, snapshots.ts)
  'profile.none': param<{ id: string }>((a) => `names no remote profile (${a.id})`),
  'profile.urlCredentials': param(() => 'must not carry a user name or password; use the profile fields'),
  'profile.urlQuery': param<Got>((a) => `must not carry a query or a fragment, got '${a.got}'; write the service's address only`),
  'profile.nameTaken': param<{ profile: string }>((a) => `is already the name of profile ${a.profile}`),
  'browse.noPulledCampaign': param<{ profile: string; id: string }>((a) => `names no pulled campaign of profile ${a.profile} (${a.id})`),
  'snapshot.notParam': param<{ path: string }>((a) => `is not a parameter of ${a.path}`),
  'snapshot.refusedBy': param<{ path: string; reason: Problem }>((a) => `would be refused by ${a.path}: ${inner(a.reason)}`),
  'snapshot.needCampaignId': param(() => 'must hold campaign_id, a remote campaign id'),
  'snapshot.needDate': param(() => 'must hold date, written YYYY-MM-DD'),
  'snapshot.mustNotHold': param<{ name: string }>((a) => `must not hold ${a.name}`),
  'snapshot.twice': param<{ name: string }>((a) => `names ${a.name} twice`),
  'snapshot.toDateBefore': param<{ date: string }>((a) => `must not be before the date in params (${a.date})`),
  'snapshot.tooManyDays': param<{ max: number }>((a) => `spans more than ${a.max} days`),
  'snapshot.none': param<{ id: string }>((a) => `names no snapshot (${a.id})`),
  // the app's own client (renderer/src/api/client.ts)
  'client.notJson': say<{ status: number }>((a) => `The engine answered ${a.status} with a body that is not JSON.`),
  // server modes (engine/sync/modes.ts)
  'mode.writeForwarded': say<{ group: string; profile: string; path: string }>((a) =>
    `The ${a.group} group is answered by profile ${a.profile} (forward mode): this write would change a local record, not the one the reads show. Queue it in the Sync outbox for the remote, or set the ${a.group} group back to local (POST ${a.path}).`),
  'mode.writeOffline': say<{ group: string; profile: string; path: string }>((a) =>
    `The ${a.group} group is answered from the recordings of profile ${a.profile} (offline mode): this write would change a local record, not the one the reads show. Queue it in the Sync outbox for the remote, or set the ${a.group} group back to local (POST ${a.path}).`),
  'mode.offlineMissing': say<{ profile: string; path: string; group: string }>((a) =>
    `Offline from profile ${a.profile}: no answer of ${a.path} with these parameters was recorded. Record it in the forward mode while online (or pull a snapshot), or answer the ${a.group} group locally.`),
  'mode.forwardFailed': say<{ profile: string; failure: string; detail: Told }>((a) => `Forwarding to the remote of profile ${a.profile} failed (${a.failure}): ${toldText(a.detail)}`),
  'mode.forwardLoop': say<{ group: string; profile: string; url: string }>((a) =>
    `The ${a.group} group forwards to profile ${a.profile}, whose base_url is this engine itself (${a.url}): forwarding would loop. Point the profile at the remote, or answer the group locally.`),
  'mode.needProfile': say<{ mode: string }>((a) => `The 'profile_id' is required for the ${a.mode} mode.`),
  'mode.selfProfile': say<{ profile: string; url: string }>((a) => `The 'profile_id' names profile ${a.profile}, whose base_url is this engine itself (${a.url}): forwarding would loop.`),
  // sign-in (engine/auth, engine/routes/token.ts)
  'auth.unknownScope': say<{ scope: string; list: string }>((a) => `The scope '${a.scope}' does not exist; scopes: ${a.list}.`),
  'auth.credentialsTwice': param(() => "in the request differs from the one in the Authorization: Basic header; send the client's credentials one way"),
  'auth.passwordRequired': param(() => "is required: the account's current password, asked again before its secrets are replaced through the HTTP API (the desktop app and `admonitor account rotate` on the data directory do not ask)"),
  'auth.passwordWrong': param(() => "is not the account's current password"),
  'auth.clientMissing': say(() => "Client authentication failed: 'client_id' and 'client_secret' are required."),
  'auth.clientWrong': say(() => 'Client authentication failed: unknown client_id or wrong client_secret.'),
  'auth.grantUnavailable': say<{ grant: string }>((a) => `The grant_type '${a.grant}' is not available on this service; use grant_type=password.`),
  'auth.grantUnknown': say<{ grant: string }>((a) => `The grant_type '${a.grant}' is not supported; use grant_type=password.`),
  'auth.passwordGrant': say(() => 'The username or password is wrong.'),
  'token.required': say(() => 'An access token is required to request this resource: send access_token (query or form) or an Authorization: Bearer header.'),
  'token.scope': say<{ scope: string; need: string }>((a) => `The token's scope '${a.scope}' does not include '${a.need}', which this endpoint needs.`),
} as const

export type ProblemKey = keyof typeof PROBLEMS

/** The arguments problem `K` takes. */
export type ArgsOf<K extends ProblemKey> = Parameters<(typeof PROBLEMS)[K]>[0]

/** Problem `key` with `args`, its arguments checked against the catalogue. */
export const problem = <K extends ProblemKey>(key: K, args: ArgsOf<K>): Problem => ({ key, args })

/** Problem `key`'s English text with `args`: the `error_description` the engine sends. */
export function describe<K extends ProblemKey>(key: K, args: ArgsOf<K>): string {
  return (PROBLEMS[key] as (a: ArgsOf<K>) => string)(args)
}

/** The English text of problem `p` (built by problem()). */
export const describeProblem = (p: Problem): string => (PROBLEMS[p.key as ProblemKey] as (a: ProblemArgs) => string)(p.args)

/** The request header a client sends to be told each refusal's problem, and the answer's header that tells it. */
export const PROBLEM_WANTED_HEADER = 'x-admonitor-problem-wanted'
export const PROBLEM_HEADER = 'x-admonitor-problem'

/** A problem as a header value: its JSON, percent-encoded (printable ASCII, whatever the arguments hold). */
export const problemHeader = (p: Problem): string => encodeURIComponent(JSON.stringify({ key: p.key, args: p.args }))

/** The problem an answer's header carries, or null when it carries none or not one of this shape. */
export function problemOfHeader(value: string | undefined): Problem | null {
  if (!value) return null
  try {
    const p = JSON.parse(decodeURIComponent(value)) as Partial<Problem>
    return typeof p.key === 'string' && typeof p.args === 'object' && p.args !== null ? { key: p.key, args: p.args } : null
  } catch {
    return null
  }
}
