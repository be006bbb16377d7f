/**
 * The prose of a source file: its comments, with everything else masked. Code characters become
 * U+0001 (so a phrase never runs from one comment through code into the next), whitespace and
 * line breaks stay where they are (so an offset gives the line), and comment markers (`//`, `/*`,
 * `*\/`, a JSDoc line's leading `*`, `<!--`, `#`) become spaces (so consecutive comment lines read
 * as one text). String, template and regular-expression literals count as code.
 */

const CODE = '\u0001'

/** Masks a code character, keeping whitespace. */
const mask = (c: string): string => (/\s/.test(c) ? c : CODE)

/** Keywords after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set(['return', 'typeof', 'case', 'in', 'of', 'void', 'delete', 'throw', 'new', 'else', 'do', 'instanceof', 'yield', 'await'])

/** Whether a `/` at `at` (not `//` or `/*`) starts a regular-expression literal, by what precedes it. */
function regexStarts(src: string, at: number): boolean {
  let k = at - 1
  while (k >= 0 && /\s/.test(src[k]!)) k--
  if (k < 0) return true
  const prev = src[k]!
  if (/[\w$]/.test(prev)) {
    let s = k
    while (s > 0 && /[\w$]/.test(src[s - 1]!)) s--
    return BEFORE_REGEX.has(src.slice(s, k + 1))
  }
  return !/[)\]]/.test(prev)
}

/** The comments of TypeScript or JavaScript source, masked as the file header says. */
export function scriptProse(src: string): string {
  let out = ''
  // one entry per open template literal: the depth of `{` inside its current `${ }`
  const templates: number[] = []
  let i = 0
  const n = src.length
  const template = (): void => {
    // inside a template literal's text, from i, up to its end or a `${`
    while (i < n) {
      const c = src[i]!
      if (c === '\\') {
        out += mask(c) + mask(src[i + 1] ?? '')
        i += 2
      } else if (c === '`') {
        out += CODE
        i++
        templates.pop()
        return
      } else if (c === '$' && src[i + 1] === '{') {
        out += CODE + CODE
        i += 2
        return
      } else {
        out += mask(c)
        i++
      }
    }
  }
  while (i < n) {
    const c = src[i]!
    const next = src[i + 1]
    if (c === '/' && next === '/') {
      const end = src.indexOf('\n', i)
      const stop = end < 0 ? n : end
      out += '  ' + src.slice(i + 2, stop)
      i = stop
    } else if (c === '/' && next === '*') {
      const end = src.indexOf('*/', i + 2)
      const stop = end < 0 ? n : end
      const body = src.slice(i + 2, stop).replace(/^\*/, ' ').replace(/\n([ \t]*)\*(?!\/)/g, '\n$1 ')
      out += '  ' + body + (end < 0 ? '' : '  ')
      i = end < 0 ? n : end + 2
    } else if (c === '"' || c === "'") {
      out += CODE
      i++
      while (i < n && src[i] !== c && src[i] !== '\n') {
        if (src[i] === '\\') {
          out += mask(src[i]!)
          i++
        }
        out += mask(src[i] ?? '')
        i++
      }
      if (i < n) {
        out += mask(src[i]!)
        i++
      }
    } else if (c === '`') {
      out += CODE
      i++
      templates.push(0)
      template()
    } else if (c === '{' && templates.length > 0) {
      templates[templates.length - 1]!++
      out += CODE
      i++
    } else if (c === '}' && templates.length > 0) {
      out += CODE
      i++
      if (templates[templates.length - 1] === 0) template()
      else templates[templates.length - 1]!--
    } else if (c === '/' && regexStarts(src, i)) {
      out += CODE
      i++
      let inClass = false
      while (i < n && src[i] !== '\n' && (inClass || src[i] !== '/')) {
        if (src[i] === '\\') {
          out += mask(src[i]!)
          i++
        } else if (src[i] === '[') inClass = true
        else if (src[i] === ']') inClass = false
        out += mask(src[i] ?? '')
        i++
      }
      if (i < n) {
        out += mask(src[i]!)
        i++
      }
    } else {
      out += mask(c)
      i++
    }
  }
  return out
}

/** Masks every character of a text but its line breaks and whitespace. */
const maskAll = (text: string): string => text.replace(/\S/g, CODE)

/**
 * The comments of a Vue single-file component: its `<script>` blocks read as TypeScript, its
 * `<style>` blocks' `/* *\/` comments, and the `<!-- -->` comments around them.
 */
export function vueProse(src: string): string {
  let out = ''
  let at = 0
  for (const m of src.matchAll(/(<script\b[^>]*>)([\s\S]*?)(<\/script>)|(<style\b[^>]*>)([\s\S]*?)(<\/style>)/g)) {
    out += htmlProse(src.slice(at, m.index))
    if (m[1] !== undefined) out += maskAll(m[1]) + scriptProse(m[2]!) + maskAll(m[3]!)
    else out += maskAll(m[4]!) + styleProse(m[5]!) + maskAll(m[6]!)
    at = m.index + m[0].length
  }
  return out + htmlProse(src.slice(at))
}

/** The `<!-- -->` comments of markup. */
function htmlProse(src: string): string {
  return maskOutside(src, /<!--([\s\S]*?)-->/g, 4, 3)
}

/** The `/* *\/` comments of a style sheet. */
function styleProse(src: string): string {
  return maskOutside(src, /\/\*([\s\S]*?)\*\//g, 2, 2)
}

/** Keeps the bodies of the matches of `re` (markers of the given lengths as spaces), masks the rest. */
function maskOutside(src: string, re: RegExp, open: number, close: number): string {
  let out = ''
  let at = 0
  for (const m of src.matchAll(re)) {
    out += maskAll(src.slice(at, m.index)) + ' '.repeat(open) + m[1] + ' '.repeat(close)
    at = m.index + m[0].length
  }
  return out + maskAll(src.slice(at))
}

/** The comments of a shell script: from a `#` that starts a line or follows a space (not `#!`). */
export function shellProse(src: string): string {
  return src
    .split('\n')
    .map((line) => {
      const m = /(^|\s)#(?!!)/.exec(line)
      if (!m) return maskAll(line)
      const at = m.index + m[1]!.length
      return maskAll(line.slice(0, at)) + ' ' + line.slice(at + 1)
    })
    .join('\n')
}

/** The prose of a file by its name: comments of source files, all of a Markdown page. */
export function prose(name: string, src: string): string {
  if (name.endsWith('.md')) return src
  if (name.endsWith('.vue')) return vueProse(src)
  if (name.endsWith('.sh')) return shellProse(src)
  return scriptProse(src)
}
