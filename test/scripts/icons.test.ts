// The app's icon (scripts/icons.mjs renders build/icon.svg): the files electron-builder takes from
// build/, the browser tab's favicon.ico that the web build serves beside index.html, and the
// links to them. Each image is read back: its format and its size in pixels.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

/** Width and height of a PNG, from its IHDR chunk. */
function pngSize(b: Buffer): [number, number] {
  expect(b.subarray(0, 8).equals(PNG)).toBe(true)
  expect(b.toString('latin1', 12, 16)).toBe('IHDR')
  return [b.readUInt32BE(16), b.readUInt32BE(20)]
}

/** The sizes of an ICO file's images, each checked against the PNG it holds. */
function icoSizes(file: string): number[] {
  const b = readFileSync(join(ROOT, file))
  expect([b.readUInt16LE(0), b.readUInt16LE(2)]).toEqual([0, 1])
  return Array.from({ length: b.readUInt16LE(4) }, (_, i) => {
    const at = 6 + 16 * i
    const size = b.readUInt8(at) || 256
    const [offset, length] = [b.readUInt32LE(at + 12), b.readUInt32LE(at + 8)]
    expect(offset + length).toBeLessThanOrEqual(b.length)
    expect(pngSize(b.subarray(offset, offset + length))).toEqual([size, size])
    return size
  })
}

describe('the app icon', () => {
  it('is drawn in build/icon.svg', () => {
    const svg = readFileSync(join(ROOT, 'build', 'icon.svg'), 'utf8')
    expect(svg).toMatch(/^<svg [^>]*viewBox="0 0 512 512"/)
    expect(svg).toContain('<title>AdMonitor Desk</title>')
  })

  it('has the files electron-builder takes from build/: icon.png, icons/NxN.png, icon.ico with 256 px', () => {
    expect(pngSize(readFileSync(join(ROOT, 'build', 'icon.png')))).toEqual([1024, 1024])
    for (const n of [16, 32, 48, 64, 128, 256, 512]) expect(pngSize(readFileSync(join(ROOT, 'build', 'icons', `${n}x${n}.png`)))).toEqual([n, n])
    expect(icoSizes('build/icon.ico')).toEqual([16, 24, 32, 48, 64, 128, 256])
  })

  it("gives the browser tab a favicon.ico that the web build puts beside index.html, and links it", async () => {
    expect(icoSizes('build/web/favicon.ico')).toEqual([16, 32, 48])
    const config = (await import('../../electron.vite.config')).default as { renderer: { publicDir: string } }
    expect(config.renderer.publicDir).toBe(join(ROOT, 'build', 'web'))
    const html = readFileSync(join(ROOT, 'renderer', 'index.html'), 'utf8')
    expect(html).toContain('<link rel="icon" href="/favicon.ico"')
    expect(html).toContain('<link rel="icon" href="../build/icon.svg" type="image/svg+xml" />')
  })
})
