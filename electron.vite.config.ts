import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import { REGIONS_BUILT, regionsModule } from './scripts/server-build.mjs'

/**
 * The web interface: all that `npm run serve` builds (it runs no Electron main or preload). Its
 * public folder holds favicon.ico (scripts/icons.mjs), which the build puts beside index.html.
 */
const renderer = {
  root: resolve(__dirname, 'renderer'),
  publicDir: resolve(__dirname, 'build', 'web'),
  plugins: [vue()],
  build: { rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } } },
}

/**
 * The main process carries the region table computed at build time, as the server bundle does
 * (scripts/server-build.mjs, regionsBuilt): the app's first report reads it in one piece instead of
 * building it from the packages' tables and the pinyin of every city.
 */
const regionsBuilt = { name: 'regions-built', load: (id: string) => (REGIONS_BUILT.test(id) ? regionsModule() : null) }

// Three entry points from the top-level folders (STYLE H2); the engine is bundled into main.
// ADMONITOR_BUILD=renderer (scripts/serve.mjs) builds the web interface alone.
export default defineConfig(process.env.ADMONITOR_BUILD === 'renderer' ? { renderer } : {
  main: {
    plugins: [regionsBuilt],
    build: {
      rollupOptions: { input: { index: resolve(__dirname, 'main/index.ts') } },
      // sql.js is bundled so that its wasm can be an asset of the build (`?asset` in main/index.ts).
      externalizeDeps: { exclude: ['sql.js'] },
    },
  },
  preload: {
    // A sandboxed preload must be CommonJS.
    build: { rollupOptions: { input: { index: resolve(__dirname, 'preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } } },
  },
  renderer,
})
