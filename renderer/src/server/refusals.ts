/**
 * The engine's refusals that the Server page's pop-ups show (the panel import, export and demo
 * generator, the event import, the simulator, the rebuild), said in Chinese: the sentences of
 * their routes (engine/routes/panel.ts, measure.ts; engine/measure/panel/import.ts,
 * panel/generate, import-run.ts) from the table below, a parameter's refusal by a codec or a
 * panel or campaign that is gone as the forms say it, and the sentences any call may get
 * (utils/engine-notice.ts), with the page's own names of its fields. A toast has no hover: the Chinese is shown alone. In English, and for a
 * sentence of another form, the engine's text is given as it is.
 */
import type { Translate } from '../reports/table'
import { engineNotice } from '../utils/engine-notice'
import type { SentenceRule } from '../utils/field-message'

const none = () => ({})
const range = (m: RegExpExecArray, at = 1) => ({ from: m[at]!, to: m[at + 1]! })
/** "The '<from_date or scale>' (<value>) plans N hits for A..B up to now, more than the M one simulation makes". */
const volume = (m: RegExpExecArray) => ({ value: m[1]!, hits: m[2]!, ...range(m, 3), max: m[5]! })
const NOT_PANEL_CSV = "^The 'body' is not a panel CSV file: "
const TOO_MANY = String.raw`\) plans (\d+) hits for (\S+)\.\.(\S+) up to now, more than the (\d+) one simulation makes: `

/** The refusals of the Server page's routes, each as the engine writes it. */
const RULES: readonly SentenceRule[] = [
  // panels.persons_import (engine/measure/panel/import.ts readFile, the header through parse.ts)
  [/^The 'body' is empty; a CSV file starts with a header row: (\S+)\.$/, 'emptyCsv', (m) => ({ header: m[1]! })],
  [new RegExp(`${NOT_PANEL_CSV}the header row lacks the columns? (.+); a header row is required: (\\S+)\\.$`, 's'), 'headerLacks', (m) => ({ columns: m[1]!, header: m[2]! })],
  [new RegExp(`${NOT_PANEL_CSV}the header row names the column (.*) twice\\.$`, 's'), 'headerTwice', (m) => ({ column: m[1]! })],
  [new RegExp(`${NOT_PANEL_CSV}the header row names the unknown columns? (.+); the columns are (\\S+)\\.$`, 's'), 'headerUnknown', (m) => ({ columns: m[1]!, header: m[2]! })],
  [new RegExp(`${NOT_PANEL_CSV}has a quoted field without its closing quote\\.$`), 'headerOpenQuote', none],
  [new RegExp(`${NOT_PANEL_CSV}has text after a closing quote\\.$`), 'headerAfterQuote', none],
  [/^The 'body' has (\d+) persons; at most (\d+) are imported at once, split the file\.$/, 'tooManyPersons', (m) => ({ persons: m[1]!, max: m[2]! })],
  // panels.generate (engine/measure/panel/generate)
  [/^The 'panel_id' names panel (\S+), which lacks the demo tags the generator writes \((.*)\)\.$/s, 'demoTags', (m) => ({ panel: m[1]!, tags: m[2]! })],
  // events.import (engine/measure/import-run.ts csvHeader) and following its job (jobs.show)
  [/^The 'body' has unknown CSV columns (.+); columns: (.+)\.$/s, 'unknownColumns', (m) => ({ unknown: m[1]!, columns: m[2]! })],
  [/^The 'job_id' (\d+) is not a job of this run of the engine\.$/, 'jobGone', (m) => ({ id: m[1]! })],
  // simulate.run (engine/routes/measure.ts)
  [/^The '(?:from|to)_date' makes an empty range (\S+)\.\.(\S+?)\.$/, 'emptyRange', (m) => range(m)],
  [/^The 'from_date' makes an empty range (\S+)\.\.(\S+) \(to_date defaults to the earlier of today and the campaign end\)\.$/, 'emptyRangeDefault', (m) => range(m)],
  [/^The '(?:from|to)_date' makes (\S+)\.\.(\S+), outside the campaign's dates (\S+)\.\.(\S+?)\.$/, 'outside', (m) => ({ ...range(m), start: m[3]!, end: m[4]! })],
  [/^The 'from_date' \((\S+)\) is after today \((\S+), ([^)]+)\): traffic is simulated up to now, never ahead\.$/, 'afterToday', (m) => ({ date: m[1]!, today: m[2]!, zone: m[3]! })],
  [
    /^The 'append' must be 1 to simulate (\S+)\.\.(\S+): campaign (\d+) already has (\d+) events on those days, and a second simulation adds its traffic to them \(the same seed, the same identities again\)\.$/,
    'append',
    (m) => ({ ...range(m), campaign: m[3]!, events: m[4]! }),
  ],
  [/^The 'campaign_id' \((\d+)\) has no spots: create its spots \(and their plans\) first, then simulate\.$/, 'noSpots', (m) => ({ id: m[1]! })],
  [
    /^The 'campaign_id' \((\d+)\) plans no traffic for (\S+)\.\.(\S+) before now \(([^)]+)\): its spots are planned on other or later days \(traffic is simulated up to now, never ahead\), or with no impressions\.$/,
    'noTraffic',
    (m) => ({ id: m[1]!, ...range(m, 2), now: m[4]! }),
  ],
  [new RegExp(`^The 'from_date' \\((\\S+)${TOO_MANY}simulate fewer days at a time \\(a later from_date\\), or use a scale below 1\\.$`), 'tooManyDays', volume],
  [new RegExp(`^The 'scale' \\(([^,)]+)(?:, the default)?${TOO_MANY}lower it\\.$`), 'tooManyScale', volume],
  [new RegExp(`^The 'scale' \\(([^,)]+)(?:, the default)?${TOO_MANY}lower it, or simulate fewer days at a time\\.$`), 'tooManyScaleDays', volume],
]

/** The Server page's names of the parameters its pop-ups can be refused for (message keys). */
const LABELS: Readonly<Record<string, string>> = {
  panel_id: 'server.panels.panel', format: 'server.file.format', mode: 'server.panels.mode', persons: 'server.panels.generatePersons',
  from_date: 'server.sim.from', to_date: 'server.sim.to', seed: 'server.sim.seed', scale: 'server.sim.scale',
}

/**
 * The pop-up's text for the engine's refusal `text` in the language `lang`: Chinese for a known
 * sentence, else `text`.
 */
export function refusalText(text: string, t: Translate, lang: string): string {
  // (the append refusal names the simulator's checkbox as the card labels it)
  const own = { rules: RULES, prefix: 'server.refusal', say: (key: string, named: Record<string, unknown>) => t(key, { ...named, option: t('server.sim.append') }) }
  return engineNotice(text, t, lang, (param) => (LABELS[param] === undefined ? undefined : t(LABELS[param]!)), own)
}
