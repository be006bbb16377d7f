import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'

// Three entry points from the top-level folders (STYLE H2); the engine is bundled into main.
export default defineConfig({
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
  renderer: {
    root: resolve(__dirname, 'renderer'),
    plugins: [vue()],
    build: { rollupOptions: { input: { index: resolve(__dirname, 'renderer/index.html') } } },
  },
})
