/** Electron main: lifecycle only. The engine, its HTTP door and the IPC channel live beside. */
import { join } from 'node:path'
import { app, dialog, type BrowserWindow } from 'electron'
import wasmPath from 'sql.js/dist/sql-wasm.wasm?asset'
import iconPath from '../build/icon.png?asset'
import { createEngine, type Engine } from '../engine/index'
import { fileStorage } from '../engine/storage/adapters/file'
import { FileEventLog } from '../engine/measure/event-log'
import { servingV8 } from '../engine/server/v8-flags'
import { startHttpServer } from './http-server'
import { registerIpc } from './ipc'
import { safeStorageCipher } from './secret-cipher'
import { createMainWindow } from './window'

let engine: Engine | null = null
let win: BrowserWindow | null = null

async function boot(): Promise<void> {
  servingV8()
  const dataDir = join(app.getPath('userData'), 'data')
  const secretCipher = safeStorageCipher()
  // (the window opens while the recorded events are read: reports and hits wait for them)
  engine = await createEngine({ storage: fileStorage(dataDir), eventLog: new FileEventLog(join(dataDir, 'events')), wasmPath, openInBackground: true, ...(secretCipher ? { secretCipher } : {}) })
  const door = await startHttpServer(engine, app.getPath('userData'))
  engine.settings.publicUrl = door.url
  registerIpc(engine)
  win = createMainWindow()
  // the app's icon (build/icon.svg): the window's and the taskbar's, on macOS the Dock's
  if (process.platform === 'darwin') app.dock?.setIcon(iconPath)
  else win.setIcon(iconPath)
  engine.ready.catch((err: Error) => {
    dialog.showErrorBox('AdMonitor Desk could not read its recorded events', `${err.message}\n\nReports cannot be shown and tracking hits are not counted until it is restarted.`)
    app.quit()
  })
}

if (!app.requestSingleInstanceLock()) app.quit()
else {
  app.on('second-instance', () => {
    if (win?.isMinimized()) win.restore()
    win?.focus()
  })
  app.whenReady().then(boot).catch((err: Error) => {
    dialog.showErrorBox('AdMonitor Desk could not start', err.message)
    app.exit(1)
  })
  app.on('window-all-closed', () => app.quit())
  let flushed = false
  app.on('before-quit', (event) => {
    if (flushed || !engine) return
    event.preventDefault()
    void engine
      .close()
      .catch((err: Error) => dialog.showErrorBox('AdMonitor Desk could not save everything on quitting', err.message))
      .finally(() => {
        flushed = true
        app.quit()
      })
  })
}
