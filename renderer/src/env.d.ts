/// <reference types="vite/client" />
import type { EngineBridge } from '../../engine/contract/envelope'

declare global {
  interface Window {
    /** Present in the desktop app (preload); absent in a browser, which uses HTTP. */
    engine?: EngineBridge
  }
}
