import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

// Rules for the test files themselves, each learned from a failure that only showed on some runs.

const ROOT = import.meta.dir
const files = [...new Glob('**/*.{ts,tsx}').scanSync(ROOT)].filter((file) => !file.includes('node_modules'))
const lines = (pattern: RegExp, only: (file: string) => boolean = () => true) =>
  files.filter(only).flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        pattern.test(line) && !line.trimStart().startsWith('//') && !line.trimStart().startsWith('*') ? [`${file}:${i + 1}: ${line.trim()}`] : [],
      ),
  )

test('no expect(promise).resolves / .rejects: it can stall the server under test (use await, or rejection() from support/wait)', () => {
  // bun:test waits for such a promise in a nested event-loop tick that does not run the rest of the
  // setImmediate batch it was called from; postgres.js sends the second half of a query from
  // setImmediate, so the in-process server's query stalls until the test times out. That was the
  // console browser test failing about half the time on PostgreSQL (issue 32).
  expect(lines(/\)\s*\.(resolves|rejects)\b|^\s*\.(resolves|rejects)\b/, (file) => file !== 'test-hygiene.test.ts')).toEqual([])
})

test('browser tests wait for an element in a state, never a fixed time', () => {
  expect(lines(/waitForTimeout|Bun\.sleep|setTimeout\(/, (file) => file.startsWith('browser/') && file !== 'browser/support.ts')).toEqual([])
})
