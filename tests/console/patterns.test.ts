import { describe, expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// Chromium compiles an input's `pattern` with the `v` flag, where a bare `-` at the edge of a
// character class (`[a-z0-9_-]`) is a syntax error: the browser then ignores the pattern and
// logs an error on every keystroke. Every pattern of the console must compile as Chromium does.

const CONSOLE = join(import.meta.dir, '../../console')
/** How Chromium turns a `pattern` attribute into a regular expression (HTML's "compiled pattern regular expression"). */
const compile = (pattern: string) => new RegExp(`^(?:${pattern})$`, 'v')

/** Every pattern attribute of a source: `pattern="…"` as written, and the string literals of `pattern={…}`. */
export function patternsOf(source: string): string[] {
  const found: string[] = []
  for (const m of source.matchAll(/\bpattern="([^"]*)"/g)) found.push(m[1]!)
  for (const m of source.matchAll(/\bpattern=\{((?:'(?:[^'\\]|\\.)*'|[^}'])*)\}/g)) {
    for (const literal of m[1]!.matchAll(/'((?:[^'\\]|\\.)*)'/g)) found.push(JSON.parse(`"${literal[1]!.replaceAll('"', '\\"')}"`))
  }
  return found
}

describe('the console’s input patterns', () => {
  test('the reader finds both forms, and the v flag refuses a bare hyphen in a class', () => {
    expect(patternsOf(`<input pattern="[a-z_-]+" /><input pattern={x ? '[0-9\\\\-]{2}' : undefined} />`)).toEqual(['[a-z_-]+', '[0-9\\-]{2}'])
    expect(() => compile('[a-z0-9_-]')).toThrow()
    expect(compile('[a-z0-9_\\-]+').test('a-b')).toBe(true)
  })

  test('every pattern attribute in console/ compiles with the v flag', () => {
    const all: { file: string; pattern: string }[] = []
    for (const file of new Glob('**/*.tsx').scanSync(CONSOLE)) {
      for (const pattern of patternsOf(readFileSync(join(CONSOLE, file), 'utf8'))) all.push({ file, pattern })
    }
    expect(all.length).toBeGreaterThanOrEqual(10)
    const broken = all.filter(({ pattern }) => {
      try {
        compile(pattern)
        return false
      } catch {
        return true
      }
    })
    expect(broken).toEqual([])
  })
})
