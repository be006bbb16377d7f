/**
 * A panel's name in the interface language. The engine names its built-in panels in English only
 * ("China PC panel 2026", engine/reference/demo.ts); their ids say platform and year
 * (`china-pc-2026`), so the interface names them itself. Any other panel keeps its own name.
 */
type Translate = (key: string, named?: Record<string, unknown>) => string

const BUILT_IN = /^china-(pc|pm|pmo)-(\d{4})$/

/** The panel's name as the interface says it, "name (id)". */
export function panelLabel(panelId: string, panelName: string | undefined, t: Translate): string {
  const m = BUILT_IN.exec(panelId)
  const name = m ? t('common.panel.builtIn', { platform: m[1]!.toUpperCase(), year: m[2]! }) : panelName
  return name ? `${name} (${panelId})` : panelId
}
