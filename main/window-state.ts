/** The main window's size, position and maximized state, kept in the user data folder between runs. */
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { app, screen, type BrowserWindow, type Rectangle } from 'electron'

export interface WindowState {
  bounds: Rectangle
  maximized: boolean
}

const DEFAULT: WindowState = { bounds: { x: 0, y: 0, width: 1360, height: 860 }, maximized: false }
const file = () => join(app.getPath('userData'), 'window-state.json')

/**
 * Whether saved bounds can be used again: at least 640 x 480, and on one of the work areas with
 * enough of the window (50 px of its width, its title bar) to grab and move it.
 */
export function fits(b: Rectangle, workAreas: readonly Rectangle[]): boolean {
  const visible = workAreas.some((a) => b.x < a.x + a.width - 50 && b.x + b.width > a.x + 50 && b.y >= a.y - 10 && b.y < a.y + a.height - 50)
  return visible && b.width >= 640 && b.height >= 480
}

/** The saved state when it still fits on a connected display, else the default size, centred. */
export function loadWindowState(): WindowState & { centre: boolean } {
  try {
    const s = JSON.parse(readFileSync(file(), 'utf8')) as WindowState
    if (fits(s.bounds, screen.getAllDisplays().map((d) => d.workArea))) return { bounds: s.bounds, maximized: !!s.maximized, centre: false }
  } catch {
    // no saved state yet, or unreadable: start with the default
  }
  return { ...DEFAULT, centre: true }
}

/** Saves the window's state when it closes (temp file, then rename). */
export function keepWindowState(win: BrowserWindow): void {
  win.on('close', () => {
    const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() }
    const tmp = `${file()}.tmp`
    try {
      writeFileSync(tmp, JSON.stringify(state))
      renameSync(tmp, file())
    } catch {
      // losing the window position is not worth an error dialog
    }
  })
}
