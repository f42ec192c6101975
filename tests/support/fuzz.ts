/** Hostile-input pieces shared by the fuzz tests (tests/security, tests/platform) and bench/fuzz.ts. */

/** `{"a":[{"a":…}]}`: `depth` levels of objects and arrays in turn, an object at the top (refused past 64). */
export function nested(depth: number): string {
  let open = ''
  let close = ''
  for (let level = 1; level <= depth; level++) {
    open += level % 2 ? '{"a":' : '['
    close = (level % 2 ? '}' : ']') + close
  }
  return `${open}1${close}`
}

/** A contract with a column of every kind, two of them named as every object's own members are (or nearly). */
export const FUZZ_CONTRACT_COLUMNS = [
  { name: 'title', type: 'text', indexed: true },
  { name: 'note', type: 'text' },
  { name: 'n', type: 'integer', indexed: true },
  { name: 'score', type: 'number' },
  { name: 'done', type: 'boolean' },
  { name: 'at', type: 'timestamp', indexed: true },
  { name: 'meta', type: 'json' },
  { name: 'ref', type: 'uuid' },
  { name: 'constructor', type: 'text', unique: true },
  { name: 'prototype', type: 'integer', indexed: true },
] as const
