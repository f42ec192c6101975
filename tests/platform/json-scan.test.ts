import { expect, test } from 'bun:test'
import { MAX_JSON_DEPTH, refusedJson, urlHasLoneSurrogate } from '../../src/platform/request'

/** The raw-text scan every JSON body passes before it is parsed (src/platform/request.ts). */
test('depth: 64 levels of arrays and objects pass, 65 do not; brackets inside strings do not count', () => {
  expect(MAX_JSON_DEPTH).toBe(64)
  expect(refusedJson('['.repeat(64) + ']'.repeat(64))).toBeNull()
  expect(refusedJson('['.repeat(65) + ']'.repeat(65))).toBe('too_deep')
  expect(refusedJson(`${'{"a":'.repeat(64)}1${'}'.repeat(64)}`)).toBeNull()
  expect(refusedJson(`${'{"a":'.repeat(65)}1${'}'.repeat(65)}`)).toBe('too_deep')
  expect(refusedJson(JSON.stringify({ s: '[{'.repeat(1000), t: '\\"[[[[' }))).toBeNull()
  // Siblings do not add up: depth is nesting, not the number of brackets.
  expect(refusedJson(`[${Array.from({ length: 1000 }, () => '[[]]').join(',')}]`)).toBeNull()
  // 10,000 deep is refused in one pass, without recursion.
  expect(refusedJson('['.repeat(10_000) + ']'.repeat(10_000))).toBe('too_deep')
  expect(refusedJson('{"a":'.repeat(1_000_000))).toBe('too_deep')
})

test('lone surrogates, escaped or raw, in values and keys; pairs and escaped backslashes pass', () => {
  for (const text of ['"\\ud800"', '"x\\uDBFFy"', '"\\udc00"', '{"\\ud800":1}', '"\\ud800\\u0041"', '"\\ud800\\ud800"', '"\\ud83d', '"a\ud800b"', '"\udc00"']) {
    expect(refusedJson(text), text).toBe('lone_surrogate')
  }
  for (const text of [
    '"\\ud83d\\ude00"',
    '"\\uD83D\\uDE00"',
    '"\ud83d\ude00"',
    '"\\\\ud800"',
    '"\\u0041\\n\\t\\\\"',
    JSON.stringify({ emoji: '😀', text: 'é' }),
  ]) {
    expect(refusedJson(text), text).toBeNull()
  }
  // Malformed JSON is the parser's business, not the scan's.
  expect(refusedJson('{"truncated": "')).toBeNull()
  expect(refusedJson('"\\u12"')).toBeNull()
})

test('URLs: percent-encoded surrogates (ED A0..BF) are refused, other UTF-8 passes', () => {
  for (const url of ['http://x/a?b=%ED%A0%80', 'http://x/a?b=%ed%bf%bf', 'http://x/%ED%B0%80']) expect(urlHasLoneSurrogate(url), url).toBe(true)
  for (const url of ['http://x/a?b=%ED%9F%BF', 'http://x/a?b=%F0%9F%98%80', 'http://x/a?b=%EF%BF%BD', 'http://x/a?b=%ud800'])
    expect(urlHasLoneSurrogate(url), url).toBe(false)
})
