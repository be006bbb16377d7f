/** The main window, hardened (DESIGN §5): sandbox, context isolation, no Node, no navigation. */
import { join } from 'node:path'
import { BrowserWindow, shell } from 'electron'
import { isAppUrlOf, isExternalLink } from './url-rules'
import { keepWindowState, loadWindowState } from './window-state'

const devUrl = process.env.ELECTRON_RENDERER_URL
const rendererDir = join(__dirname, '../renderer')

/** Whether a frame URL is the app itself (the built renderer's files or the dev server). */
export const isAppUrl = (url: string): boolean => isAppUrlOf(url, rendererDir, devUrl)

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
    if (isExternalLink(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
  win.webContents.on('will-navigate', (event, url) => {
    if (!isAppUrl(url)) event.preventDefault()
  })
  if (devUrl) void win.loadURL(devUrl)
  else void win.loadFile(join(rendererDir, 'index.html'))
  return win
}
