// Panel devices as the identity texts hits carry (docs/panel.md, docs/attribution.md)
import { describe, expect, it } from 'vitest'
import { LineError, deviceIdentity, type DevicePlatform } from '../../../../engine/measure/panel/person'

const AMID = 'a'.repeat(32)

describe('deviceIdentity', () => {
  it.each([
    ['idfa:6D92078A-8246-4BA4-AE5B-76104861E7DC', 'mb', 'idfa:6d92078a-8246-4ba4-ae5b-76104861e7dc'],
    ['IDFA:abc', 'mb', 'idfa:abc'],
    [' oaid:ABCdef ', 'mb', 'oaid:abcdef'],
    ['imei:869651791679673', 'mb', 'imei:869651791679673'],
    ['mac:AA:BB:CC:DD:EE:FF', 'mb', 'mac:aabbccddeeff'],
    [`amid:${AMID.toUpperCase()}`, 'pc', `amid:${AMID}`],
    [`amid:${AMID}`, 'mb', `amid:${AMID}`],
  ] as const)('writes %j (%s) as %j', (text, platform, id) => {
    expect(deviceIdentity(text, platform)).toBe(id)
  })

  it.each([
    ['cookie:abc', 'mb', 'namespace'],
    ['abc', 'mb', 'namespace'],
    ['amid:xyz', 'pc', '32 hexadecimal digits'],
    ['idfa:00000000-0000-0000-0000-000000000000', 'mb', 'holds no device id'],
    ['idfa:__IDFA__', 'mb', 'holds no device id'],
    ['oaid:null', 'mb', 'holds no device id'],
    ['idfa:a|b', 'mb', "contains '|'"],
    ['idfa:abc', 'pc', 'platform is mb'],
  ] as const)('refuses %j (%s)', (text, platform, message) => {
    expect(() => deviceIdentity(text, platform as DevicePlatform)).toThrow(LineError)
    expect(() => deviceIdentity(text, platform as DevicePlatform)).toThrow(message)
  })
})
