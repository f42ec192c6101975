import { expect, test } from 'bun:test'
import { AppError } from '../../src/platform/errors'
import { type ListQueryPolicy, parseListQuery, rawQuery } from '../../src/platform/crud/query'

/** Filter and sort names are looked up as own keys: Object.prototype's members are not columns. */
const policy: ListQueryPolicy = { filterable: { title: 'text' }, sortable: ['title'], defaultSort: [{ column: 'title', descending: false }] }
const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'prototype', '__defineGetter__']

function refusal(url: string): AppError {
  try {
    parseListQuery(rawQuery(url), policy)
  } catch (err) {
    if (err instanceof AppError) return err
    throw err
  }
  throw new Error(`accepted ${url}`)
}

test.each(PROTOTYPE_NAMES)('?%s=eq.x is 400 naming it as not filterable', (name) => {
  const err = refusal(`http://x/?${name}=eq.x`)
  expect(err.status).toBe(400)
  expect(err.code).toBe('validation_failed')
  expect(err.message).toStartWith(`query.${name}: not a filterable column`)
})

test.each(PROTOTYPE_NAMES)('?sort=%s is 400 naming it as not sortable', (name) => {
  for (const sort of [name, `-${name}`, `title,${name}`]) {
    const err = refusal(`http://x/?sort=${sort}`)
    expect(err.code).toBe('validation_failed')
    expect(err.message).toContain(`${name} is not sortable`)
  }
})

test('rawQuery keeps __proto__ as a plain key, repeated ones as an array, and sets no prototype', () => {
  const raw = rawQuery('http://x/?__proto__=eq.a&__proto__=eq.b&constructor=eq.c')
  expect(Object.getPrototypeOf(raw)).toBeNull()
  expect(Object.keys(raw)).toEqual(['__proto__', 'constructor'])
  expect(Object.getOwnPropertyDescriptor(raw, '__proto__')?.value).toEqual(['eq.a', 'eq.b'])
  expect(({} as Record<string, unknown>).constructor).toBe(Object)
})

test('a policy naming a column `constructor` filters on it; page and sort still default', () => {
  const own: ListQueryPolicy = { filterable: Object.fromEntries([['constructor', 'text' as const]]), sortable: ['constructor'], defaultSort: [] }
  const query = parseListQuery(rawQuery('http://x/?constructor=eq.x&sort=-constructor'), own)
  expect(query.filters).toEqual([{ column: 'constructor', kind: 'text', op: 'eq', value: 'x' }])
  expect(query.sort).toEqual([{ column: 'constructor', descending: true }])
  expect(query.page).toEqual({ page: 1, pageSize: 20, offset: 0 })
})
