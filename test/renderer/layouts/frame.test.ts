// renderer/src/layouts/frame.ts: the app frame's breakpoint decisions
import { describe, expect, it } from 'vitest'
import { frameLayout, NARROW_BELOW } from '../../../renderer/src/layouts/frame'

describe('frameLayout', () => {
  it('puts the navigation in a drawer and the account in it below the breakpoint, beside the page from it on', () => {
    expect(NARROW_BELOW).toBe(768)
    for (const w of [320, 420, 767]) expect(frameLayout(w), `${w}`).toMatchObject({ nav: 'drawer', accountInHeader: false })
    for (const w of [768, 1024, 1360, 3840]) expect(frameLayout(w), `${w}`).toMatchObject({ nav: 'sider', accountInHeader: true })
  })

  it('gives a narrow window a smaller padding around the page', () => {
    expect(frameLayout(420).contentPadding).toBe('12px')
    expect(frameLayout(1360).contentPadding).toBe('20px 24px')
  })

  it('takes a width that is not a positive number (a window not laid out yet) as the desktop frame', () => {
    for (const w of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) expect(frameLayout(w).nav, `${w}`).toBe('sider')
  })
})
