// The engine's own codec message for a refused campaigns.create parameter (field-message and form-alert tests).
import { endpoints } from '../../engine/contract/endpoints'
import { messageOf } from '../../renderer/src/api/problems'

/** The message the engine's own codec gives for `raw` in parameter `name` of campaigns.create, its problem kept as a screen's own check keeps it. */
export function codecRefusal(name: string, raw: string | undefined): string {
  const codec = (endpoints['campaigns.create'].params as Record<string, { decode: (raw: string | undefined, name: string) => unknown }>)[name]!
  try {
    codec.decode(raw, name)
  } catch (e) {
    return messageOf(e)
  }
  throw new Error(`${name}=${raw} was not refused`)
}
