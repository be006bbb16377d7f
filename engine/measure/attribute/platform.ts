/**
 * PC or mobile, and the SDK that reported a mobile hit (DESIGN §3.4, basic report `sdk`).
 * Rules for users: docs/attribution.md.
 */
import { PLATFORM, SDK, type SdkCode } from '../types'
import { firstDeviceId } from './device-ids'
import type { PlatformResult } from './types'
import { isMobileOs, userAgentFacts } from './user-agent'

/** MMA `mo` (OS) macro values: 0 Android, 1 iOS, 2 Windows Phone, 3 other; names accepted too. */
const MO_VALUES: Readonly<Record<string, string>> = {
  '0': 'android',
  '1': 'ios',
  '2': 'windows phone',
  '3': 'other',
  android: 'android',
  ios: 'ios',
  iphoneos: 'ios',
  ipados: 'ios',
  harmonyos: 'harmonyos',
  harmony: 'harmonyos',
  ohos: 'harmonyos',
  wp: 'windows phone',
  windowsphone: 'windows phone',
  'windows phone': 'windows phone',
}

/** The OS the `mo` macro names ('' when absent, unfilled or unknown). */
export function osFromMacro(value: string | undefined): string {
  if (value === undefined || value === '') return ''
  return MO_VALUES[value.trim().toLowerCase()] ?? ''
}

/** The SDK a `sdk=` parameter names (`mm` MMA SDK, `mz` Miaozhen SDK), or null. */
export function sdkFromParam(value: string | undefined): SdkCode | null {
  const v = value?.trim().toLowerCase()
  return v === 'mm' ? SDK.mm : v === 'mz' ? SDK.mz : null
}

/**
 * `mb` when a device-id macro is filled, the `mo` macro names a mobile OS, or the user agent is
 * not a personal computer (a mobile, tablet, TV, … device type, or a mobile OS); `pc` otherwise.
 * The SDK (mobile hits only) comes from `sdk=mm|mz`, else a `MMA-SDK`/`MiaozhenSDK` token in the
 * user agent. `os` is the macro's OS when it names one, else the user agent's ('' unknown).
 */
export function detectPlatform(params: ReadonlyMap<string, string>, userAgent: string): PlatformResult & { os: string } {
  const facts = userAgentFacts(userAgent)
  const macroOs = osFromMacro(params.get('mo'))
  const os = macroOs !== '' && macroOs !== 'other' ? macroOs : facts.os || macroOs
  const mobile = isMobileOs(macroOs) || facts.mobile || firstDeviceId(params) !== null
  if (!mobile) return { platform: PLATFORM.pc, sdk: SDK.none, os }
  return { platform: PLATFORM.mb, sdk: sdkFromParam(params.get('sdk')) ?? facts.sdk, os }
}
