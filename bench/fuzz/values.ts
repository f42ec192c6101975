/** Seeded randomness and the hostile values bench/fuzz.ts sends. */
import type { ColumnKind } from '../../src/platform/crud/query'
import { nested } from '../../tests/support/fuzz'

// ---------------------------------------------------------------------------------------------
// Seeded randomness

export function mulberry32(seed: number) {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
export type Rng = ReturnType<typeof mulberry32>
export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!
const hex = (rng: Rng, n: number) => Array.from({ length: n }, () => Math.floor(rng() * 16).toString(16)).join('')
export const rngUuid = (rng: Rng) => `${hex(rng, 8)}-${hex(rng, 4)}-4${hex(rng, 3)}-a${hex(rng, 3)}-${hex(rng, 12)}`

// ---------------------------------------------------------------------------------------------
// Hostile values

export const PROTOTYPE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__', 'isPrototypeOf']

/** JSON texts that replace one field of a valid body. */
export const FIELD_VALUES: string[] = [
  '12345',
  '-1',
  '0',
  '1.5',
  '1e308',
  '-1e308',
  '1e999',
  '1e20',
  '9007199254740993',
  '9223372036854775808',
  '-9223372036854775809',
  '2147483648',
  'true',
  'false',
  'null',
  '""',
  '" "',
  '"x"',
  '[]',
  '{}',
  '[[[[[[]]]]]]',
  '{"a":{"b":{"c":{"d":{}}}}}',
  '["x",1,null,{},[]]',
  JSON.stringify('x'.repeat(100_000)),
  JSON.stringify('é😀'.repeat(3_000)),
  '"\\u0000"',
  '"a\\u0000b"',
  '"%00"',
  '"\\ud800"',
  '"x\\udfffy"',
  '"\\ud83d"',
  '"\\u202e\\ufeff\\u200b"',
  '"\'; drop table x; --"',
  '"../../etc/passwd"',
  '"2030-13-45T99:99:99Z"',
  '"00000000-0000-0000-0000-000000000000"',
  '"not-a-uuid"',
  '"NaN"',
  '"Infinity"',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '["__proto__"]',
  '"__proto__"',
  '"constructor"',
  nested(100),
  nested(60),
  `[${'1,'.repeat(5_000)}1]`,
  '{"$ref":"#"}',
]
export const PATH_GARBAGE = [
  '%00',
  'x'.repeat(600),
  '-1',
  '0',
  '1e309',
  'NaN',
  "'%3B%20drop%20table%20x%3B--",
  '..%2F..%2Fetc%2Fpasswd',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '__proto__',
  'constructor',
  'toString',
  'null',
  '%20',
  'in.(',
  '00000000-0000-0000-0000-000000000000',
  '123e4567-e89b-12d3-a456-42661417400',
  'a'.repeat(64),
  '%FF%FE',
  '%25',
  'A1B2C3D4-E5F6-4789-ABCD-EF0123456789',
]
export const QUERY_GARBAGE = [
  '%00',
  '',
  '1000000000000000000',
  '99999999999999999999999',
  '-1',
  '0',
  '1e309',
  'NaN',
  'Infinity',
  '1.5',
  'x'.repeat(10_000),
  'eq.%00',
  'in.(',
  'in.(a,b',
  '%5B%5D',
  '%ED%A0%80',
  '__proto__',
  'constructor',
  'true',
  'null',
  '%7B%22a%22%3A1%7D',
  '-__proto__',
  'createdAt,__proto__',
  '00000000-0000-0000-0000-000000000000',
  '%FF',
  "'%3B--",
]
/** Extra query strings sent to every operation. */
export const QUERY_EXTRAS = [
  '__proto__=1',
  'constructor%5Bprototype%5D%5Bx%5D=1',
  'sort=__proto__',
  'page=1&page=2',
  '%00=1',
  'a%ED%B0%80=1',
  `x=${'y'.repeat(10_000)}`,
]
export const RAW_BODIES = [
  '',
  '[{}]',
  'null',
  '"a string"',
  '5',
  'true',
  '{"truncated": "',
  '{"a":',
  '\u0000',
  '{"__proto__": {"x": 1}}',
  '{"constructor":{"prototype":{"x":1}}}',
  '{}',
  '[]',
  nested(100),
  '['.repeat(10_000) + ']'.repeat(10_000),
  '{"a":1,"a":2}',
  '\ufeff{}',
  '{"x":"\\ud800"}',
  `{${Array.from({ length: 2_000 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
]
/** Authorization headers that are not a valid credential (beside none at all). */
export const BAD_AUTH = [
  'Bearer ',
  'Bearer x',
  `Bearer eco_${'x'.repeat(40)}`,
  'Basic Zm9vOmJhcg==',
  'Bearer a.b.c',
  `Bearer ${btoa('{"alg":"none","typ":"JWT"}').replace(/=+$/, '')}.${btoa('{"sub":"x","exp":9999999999}').replace(/=+$/, '')}.`,
  `Bearer ${'x'.repeat(10_000)}`,
  'bearer',
  'Bearer eco_',
  'Bearer \u00e9',
]
export const BAD_ECOSYSTEM = ['x'.repeat(1000), 'not-a-uuid', '__proto__', '00000000-0000-0000-0000-000000000000', ' ', 'rdid:eco:nothing', '%00']
export const BAD_CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/json; charset=utf-16',
  'application/xml',
]

/** Filter values for list queries (the authenticated fuzz's, and more). */
export const FILTER_VALUES = [
  'in.(',
  'in.(a,b',
  'in.()',
  `in.(${'a,'.repeat(150)}a)`,
  'eq.',
  'eq',
  '',
  `eq.${'x'.repeat(10_000)}`,
  `neq.${encodeURIComponent('é😀'.repeat(2_000))}`,
  'eq.%00',
  '%00',
  'eq.x%ED%A0%80y',
  'ilike.%ed%bf%bf',
  'ilike.***',
  `ilike.${encodeURIComponent('%_\\*'.repeat(200))}`,
  'eq.%FF%FE',
  `eq.${encodeURIComponent("'; drop table x; --")}`,
  'gt.1e309',
  'lt.NaN',
  'is.maybe',
  'is.null',
  'is.true',
  'cs.{a}',
  'eq.1',
  'gte.-9223372036854775809',
  'lte.99999999999999999999',
  'eq.2026-01-02T03:04:05Z',
  'gt.0000-00-00',
  'eq.00000000-0000-0000-0000-000000000000',
  'eq.true',
  'eq.%7B%7D',
  'in.(1,2,3)',
  'in.(%00)',
  'eq.__proto__',
  'eq.constructor',
  'eq.1.5',
  'gt.Infinity',
  `eq.${'9'.repeat(400)}`,
  'in.(,,,)',
  'ilike.',
]
/** Filter values a column of each kind accepts, mixed with the hostile ones so queries reach SQL. */
export const VALID_BY_KIND: Record<ColumnKind, string[]> = {
  text: ['eq.x', 'neq.probe', 'ilike.*o*', 'in.(a,b,probe)', 'is.null', `eq.${'é'.repeat(500)}`, 'gt.a', 'lte.zzz'],
  integer: ['eq.1', 'gt.-2147483648', 'lte.2147483647', 'in.(1,2,3)', 'is.null', 'neq.0'],
  number: ['eq.1.5', 'gt.-1e300', 'lt.1e300', 'in.(1,2.5)', 'is.null'],
  boolean: ['is.true', 'is.false', 'eq.true', 'neq.false', 'is.null'],
  timestamp: ['gte.2026-01-01', 'lt.2030-01-01T00:00:00Z', 'eq.2026-01-02T03:04:05.000Z', 'is.null', 'gt.1970-01-01'],
  json: ['is.null', 'eq.1', 'eq.x'],
  uuid: ['eq.00000000-0000-0000-0000-000000000000', 'in.(00000000-0000-0000-0000-000000000000)', 'is.null', 'neq.a8098c1a-f86e-11da-bd1a-00112444be1e'],
}
export const PAGING = [
  'page=0',
  'page=-1',
  'page=10001',
  'page=99999999999999999999999',
  'page=1e3',
  'page=1.5',
  'page=NaN',
  'page=',
  'page=1&page=2',
  'pageSize=0',
  'pageSize=101',
  'pageSize=1000000000',
  'pageSize=-5',
  'pageSize=%00',
  'page=10000&pageSize=100',
  'page=1&pageSize=1',
  'page=%ED%A0%80',
  'pageSize=1e309',
  'includeDeleted=maybe',
  'includeDeleted=true',
  'includeDeleted=%00',
]

/** A body as JSON text with `value` (JSON text) under `key`, which may be `__proto__`; the other fields as in `body`. */
export function withKey(body: Record<string, unknown>, key: string, value: string): string {
  const rest = JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => k !== key))).slice(1, -1)
  return `{${key.includes('\\') ? `"${key}"` : JSON.stringify(key)}:${value}${rest ? `,${rest}` : ''}}`
}
