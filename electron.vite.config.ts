import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'

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

// Three entry points from the top-level folders (STYLE H2); the engine is bundled into main.
// ADMONITOR_BUILD=renderer (scripts/serve.mjs) builds the web interface alone.
export default defineConfig(process.env.ADMONITOR_BUILD === 'renderer' ? { renderer } : {
  main: {
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
