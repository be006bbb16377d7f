/** The main window, hardened (DESIGN §5): sandbox, context isolation, no Node, no navigation. */
import { join } from 'node:path'
import { BrowserWindow, shell } from 'electron'
import { keepWindowState, loadWindowState } from './window-state'

const devUrl = process.env.ELECTRON_RENDERER_URL

/** Whether a frame URL is the app itself (the built file or the dev server). */
export function isAppUrl(url: string): boolean {
  if (devUrl && url.startsWith(devUrl)) return true
  return url.startsWith('file://') && url.includes('/renderer/')
}

export function createMainWindow(): BrowserWindow {
  const state = loadWindowState()
  const win = new BrowserWindow({
    ...(state.centre ? { width: state.bounds.width, height: state.bounds.height, center: true } : state.bounds),
    minWidth: 960,
    minHeight: 600,
    show: false,
    title: 'AdMonitor Desk',
    webPreferences: {
      preload: join(__dirname, '../preload/index.cjs'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  })
  keepWindowState(win)
  win.once('ready-to-show', () => {
    if (state.maximized) win.maximize()
    win.show()
  })
  win.webContents.setWindowOpenHandler(({ url }) => {
    if (url.startsWith('https://') || url.startsWith('http://127.0.0.1')) void shell.openExternal(url)
    return { action: 'deny' }
  })
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  if (devUrl) void win.loadURL(devUrl)
  else void win.loadFile(join(__dirname, '../renderer/index.html'))
  return win
}
