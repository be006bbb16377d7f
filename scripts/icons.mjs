// Renders the app icon, build/icon.svg (drawn by hand), into the files that use it; run it after
// changing the drawing, and commit what it writes:
//   build/icon.png            1024 px: electron-builder's icon for macOS (made into .icns) and Linux,
//                             and the desktop window's (main/index.ts)
//   build/icons/NxN.png       Linux sizes, 16 to 512 px
//   build/icon.ico            Windows (16 to 256 px)
//   build/web/favicon.ico     the browser tab's /favicon.ico (16, 32, 48 px), copied into the web build
// The SVG is rendered with @resvg/resvg-js (a prebuilt binary from the npm registry, no install
// script). It is not a dependency of the app; install it beside the project and say where:
//   npm install --prefix /tmp/icon-tools --no-audit --no-fund @resvg/resvg-js@2.6.2
//   ICON_TOOLS=/tmp/icon-tools node scripts/icons.mjs
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const build = join(root, 'build')
const require = createRequire(join(process.env.ICON_TOOLS ?? root, 'package.json'))
const { Resvg } = require('@resvg/resvg-js')

const svg = readFileSync(join(build, 'icon.svg'))
/** The drawing as a PNG of `size` x `size` pixels. */
const png = (size) => new Resvg(svg, { fitTo: { mode: 'width', value: size } }).render().asPng()

/** An ICO file of PNG images (Windows Vista and later read PNG entries; 256 is written as 0). */
function ico(sizes) {
  const images = sizes.map(png)
  const head = Buffer.alloc(6 + 16 * sizes.length)
  head.writeUInt16LE(0, 0)
  head.writeUInt16LE(1, 2)
  head.writeUInt16LE(sizes.length, 4)
  let offset = head.length
  sizes.forEach((size, i) => {
    const at = 6 + 16 * i
    head.writeUInt8(size >= 256 ? 0 : size, at)
    head.writeUInt8(size >= 256 ? 0 : size, at + 1)
    head.writeUInt16LE(1, at + 4) // colour planes
    head.writeUInt16LE(32, at + 6) // bits per pixel
    head.writeUInt32LE(images[i].length, at + 8)
    head.writeUInt32LE(offset, at + 12)
    offset += images[i].length
  })
  return Buffer.concat([head, ...images])
}

mkdirSync(join(build, 'icons'), { recursive: true })
mkdirSync(join(build, 'web'), { recursive: true })
writeFileSync(join(build, 'icon.png'), png(1024))
for (const size of [16, 32, 48, 64, 128, 256, 512]) writeFileSync(join(build, 'icons', `${size}x${size}.png`), png(size))
writeFileSync(join(build, 'icon.ico'), ico([16, 24, 32, 48, 64, 128, 256]))
writeFileSync(join(build, 'web', 'favicon.ico'), ico([16, 32, 48]))
console.log('wrote build/icon.png, build/icons/*.png, build/icon.ico, build/web/favicon.ico')
