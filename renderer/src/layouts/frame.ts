/**
 * How the app frame (AppLayout.vue) arranges itself for a window width, in CSS pixels. Pure, so
 * the breakpoint decisions are tested without a browser (test/renderer/layouts/frame.test.ts).
 */

/** Windows narrower than this get the narrow frame (phones, a window snapped to a third of a screen). */
export const NARROW_BELOW = 768

export interface FrameLayout {
  /**
   * Where the navigation is: `sider`, the side bar beside the page (collapsible), or `drawer`,
   * behind a menu button in the header, sliding over the page so that it takes no width.
   */
  nav: 'sider' | 'drawer'
  /**
   * Whether the header shows the engine address, the user name and sign-out; when not, they are
   * in the navigation drawer and the header keeps the menu button, the app name, language and theme.
   */
  accountInHeader: boolean
  /** Padding around the page content. */
  contentPadding: string
}

const WIDE: FrameLayout = { nav: 'sider', accountInHeader: true, contentPadding: '20px 24px' }
const NARROW: FrameLayout = { nav: 'drawer', accountInHeader: false, contentPadding: '12px' }

/**
 * The frame for a window `width`. A width that is not a positive number (a window not laid out
 * yet) gets the wide frame, the desktop's.
 */
export function frameLayout(width: number): FrameLayout {
  return Number.isFinite(width) && width > 0 && width < NARROW_BELOW ? NARROW : WIDE
}
