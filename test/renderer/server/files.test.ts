// renderer/src/server/files.ts: import files' format, size and lines, and reading a chosen file
import { describe, expect, it } from 'vitest'
import { countLines, detectFormat, formatBytes, formatFromName, formatFromText, MAX_UPLOAD_BYTES, readChosenFile, tooLarge } from '../../../renderer/src/server/files'

describe('file formats', () => {
  it('reads the format from the name', () => {
    expect(formatFromName('events.CSV')).toBe('csv')
    expect(formatFromName('events.ndjson')).toBe('ndjson')
    expect(formatFromName('log.jsonl')).toBe('ndjson')
    expect(formatFromName('persons.json')).toBe('ndjson')
    expect(formatFromName('events.txt')).toBeNull()
    expect(formatFromName('events')).toBeNull()
  })

  it('reads the format from the first characters otherwise', () => {
    expect(formatFromText('\ufeff\n  {"type":"impression"}')).toBe('ndjson')
    expect(formatFromText('type,ts,campaign_id\n')).toBe('csv')
    expect(formatFromText('')).toBe('ndjson')
    expect(detectFormat('events.txt', 'type,ts')).toBe('csv')
    expect(detectFormat('events.ndjson', 'type,ts')).toBe('ndjson')
  })
})

describe('sizes and lines', () => {
  it('counts lines with content', () => {
    expect(countLines('a\nb\r\n\n  \nc')).toBe(3)
    expect(countLines('')).toBe(0)
  })

  it('formats sizes', () => {
    expect(formatBytes(512)).toBe('512 B')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(64 * 1024 * 1024)).toBe('64.0 MB')
    expect(formatBytes(3 * 1024 ** 3)).toBe('3.0 GB')
  })

  it('refuses files over 64 MiB', () => {
    expect(MAX_UPLOAD_BYTES).toBe(64 * 1024 * 1024)
    expect(tooLarge(MAX_UPLOAD_BYTES)).toBe(false)
    expect(tooLarge(MAX_UPLOAD_BYTES + 1)).toBe(true)
  })
})

describe('readChosenFile', () => {
  const chosen = (name: string, text: string) => ({ name, size: text.length, text: async () => text })

  it('keeps the name, size and text, counts the lines and detects the format', async () => {
    expect(await readChosenFile(chosen('persons.txt', 'person_id,weight\n1,2\n\n'))).toEqual({
      name: 'persons.txt', size: 22, text: 'person_id,weight\n1,2\n\n', lines: 2, format: 'csv',
    })
    expect((await readChosenFile(chosen('events.log', '{"type":"impression"}\n'))).format).toBe('ndjson')
    expect((await readChosenFile(chosen('events.csv', '{"type":"impression"}'))).format).toBe('csv')
  })

  it('passes a read error on', async () => {
    await expect(readChosenFile({ name: 'x.csv', size: 1, text: () => Promise.reject(new Error('gone')) })).rejects.toThrow('gone')
  })
})
