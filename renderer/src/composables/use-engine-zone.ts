/**
 * The engine's time zone (`time_zone` of GET /local/v1/status), asked once per page load. The
 * Server and Sync pages show every time in it and name it, as the engine's "today" is in it; the
 * computer's own zone may differ (a laptop abroad, a server elsewhere).
 */
import { ref, type Ref } from 'vue'
import { api } from '../api'

const zone = ref<string | null>(null)
let asked = false

/** The zone's IANA name once known (null until the first answer). */
export function useEngineZone(): Ref<string | null> {
  if (!asked) {
    asked = true
    void api.call('local.status').then((s) => (zone.value = s.time_zone), () => (asked = false))
  }
  return zone
}
