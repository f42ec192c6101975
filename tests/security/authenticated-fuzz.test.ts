import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import type { ColumnKind } from '../../src/platform/crud/query'
import { derivedListTargets, FUZZ_CONTRACT_ACCESS, FUZZ_CONTRACT_COLUMNS, fuzzContractList, nested } from '../support/fuzz'
import { createHarness, type Harness, type Reply } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

/**
 * Hostile input from callers who are signed in, where the unauthenticated walk (bad-input.test.ts)
 * never gets past the guards: every table-derived list and the rows of a contract, as an ecosystem
 * admin and as a customer. Object.prototype's names as filter, sort and body keys, lone surrogates,
 * deep nesting, absurd paging, malformed filter values. Nothing may answer 5xx; a refusal is a 4xx
 * in the error shape, and where the input is valid the answer is a 2xx.
 */
type Creds = { token: string; headers?: Record<string, string> }
interface Target {
  name: string
  path: string
  filterable: Readonly<Record<string, ColumnKind>>
  sortable: readonly string[]
  /** A valid create body for `actor` (fresh each time: unique columns). */
  example(actor: string): Record<string, unknown>
  /** Fields of the body that refuse a prototype name outright (table-derived: only writable fields). */
  strictBody: boolean
  rows: Record<string, string>
}

const PROTOTYPE_NAMES = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'prototype']
const ALL_KINDS: ColumnKind[] = ['text', 'integer', 'number', 'boolean', 'timestamp', 'json', 'uuid']
const TEXT: ColumnKind[] = ['text']
/** Filter values as they stand in the URL, and the column kinds for which each is a valid filter. */
const FILTER_VALUES: [string, readonly ColumnKind[]][] = [
  ['in.(', []],
  ['in.(a,b', []],
  ['in.()', TEXT],
  [`in.(${'a,'.repeat(150)}a)`, []],
  ['eq.', TEXT],
  ['eq', []],
  ['', []],
  [`eq.${'x'.repeat(10_000)}`, TEXT],
  [`neq.${encodeURIComponent('é😀'.repeat(2_000))}`, TEXT],
  ['eq.%00', []],
  ['%00', []],
  ['eq.x%ED%A0%80y', []],
  ['ilike.%ed%bf%bf', []],
  ['ilike.***', TEXT],
  [`ilike.${encodeURIComponent('%_\\*'.repeat(200))}`, TEXT],
  ['eq.%FF%FE', TEXT],
  [`eq.${encodeURIComponent("'; drop table x; --")}`, TEXT],
  ['gt.1e309', []],
  ['lt.NaN', []],
  ['is.maybe', []],
  ['is.null', ALL_KINDS],
  ['cs.{a}', []],
]
/** Paging parameters and whether they are valid. */
const PAGING: [string, boolean][] = [
  ['page=0', false],
  ['page=-1', false],
  ['page=10001', false],
  ['page=99999999999999999999999', false],
  ['page=1e3', false],
  ['page=1.5', false],
  ['page=NaN', false],
  ['page=', false],
  ['page=1&page=2', false],
  ['pageSize=0', false],
  ['pageSize=101', false],
  ['pageSize=1000000000', false],
  ['pageSize=-5', false],
  ['pageSize=%00', false],
  ['page=10000&pageSize=100', true],
  ['page=1&pageSize=1', true],
]

let h: Harness
const actors: Record<'admin' | 'customer', Creds> = {} as never
const targets: Target[] = []

beforeAll(async () => {
  h = await createHarness()
  const owner = await h.register()
  const org = await provision(h, owner)
  actors.admin = org.as(owner)
  actors.customer = await customerOf(h, org, owner)

  const ids: Record<string, Record<string, string>> = { admin: {}, customer: {} }
  for (const { resource, ...list } of derivedListTargets(ids)) {
    const target: Target = { ...list, strictBody: true, rows: {} }
    for (const [actor, creds] of Object.entries(actors)) {
      const res = await h.call('POST', target.path, { ...creds, body: target.example(actor) })
      // Only admins create community categories; a customer's list still has the admin's.
      if (res.status === 403) continue
      if (res.status !== 201) throw new Error(`create ${target.name} as ${actor}: ${res.status} ${JSON.stringify(res.body)}`)
      target.rows[actor] = ids[actor]![resource] = res.body.id
    }
    targets.push(target)
  }

  const defined = await h.call('POST', '/contract/contracts', {
    ...actors.admin,
    body: { name: 'fuzz', columns: FUZZ_CONTRACT_COLUMNS, access: FUZZ_CONTRACT_ACCESS },
  })
  if (defined.status !== 201) throw new Error(`define contract: ${defined.status} ${JSON.stringify(defined.body)}`)
  const contract: Target = { ...fuzzContractList('fuzz', () => crypto.randomUUID()), strictBody: false, rows: {} }
  for (const [actor, creds] of Object.entries(actors)) {
    const res = await h.call('POST', contract.path, { ...creds, body: contract.example(actor) })
    if (res.status !== 201) throw new Error(`contract row as ${actor}: ${res.status} ${JSON.stringify(res.body)}`)
    expect(res.body.constructor).toStartWith('c-')
    contract.rows[actor] = res.body.id
  }
  targets.push(contract)
}, 60_000)
afterAll(() => h.close())

const isErrorShape = (body: unknown) => {
  const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error
  return typeof error?.message === 'string' && error.message.length > 0 && typeof error.code === 'string' && /^[a-z][a-z_]*$/.test(error.code)
}

/** Collects what went wrong rather than stopping at the first, so one run shows every failure. */
function checker() {
  const failures: string[] = []
  let sent = 0
  const line = (what: string, res: Reply) => `${what.slice(0, 160)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`
  return {
    failures,
    get sent() {
      return sent
    },
    /** `valid`: true = must be 2xx, false = must be a 4xx in the error shape, undefined = either. */
    check(what: string, res: Reply, valid?: boolean, refusal?: RegExp) {
      sent++
      if (res.status >= 500) failures.push(line(what, res))
      else if (res.status >= 400 && !isErrorShape(res.body)) failures.push(`not the error shape: ${line(what, res)}`)
      else if (valid === true && (res.status < 200 || res.status >= 300)) failures.push(`valid input refused: ${line(what, res)}`)
      else if (valid === false && (res.status < 400 || res.status >= 500)) failures.push(`invalid input accepted: ${line(what, res)}`)
      else if (refusal && !(res.status === 400 && res.body?.error?.code === 'validation_failed' && refusal.test(res.body.error.message))) {
        failures.push(`expected 400 validation_failed ${refusal}: ${line(what, res)}`)
      }
    },
  }
}

/** A create body as JSON text with `value` (JSON text) under `key`, which may be `__proto__`. */
const withKey = (body: Record<string, unknown>, key: string, value: string) => {
  const rest = JSON.stringify(Object.fromEntries(Object.entries(body).filter(([k]) => k !== key))).slice(1, -1)
  return `{${JSON.stringify(key)}:${value}${rest ? `,${rest}` : ''}}`
}

describe('signed-in callers get no 5xx from hostile list queries and bodies', () => {
  for (const actor of ['admin', 'customer'] as const) {
    test(`as ${actor}: list queries`, async () => {
      const c = checker()
      for (const target of targets) {
        const list = (query: string) => h.call('GET', `${target.path}?${query}`, actors[actor])
        c.check(`${target.name} (plain list)`, await list(''), true)
        for (const name of PROTOTYPE_NAMES) {
          const isColumn = Object.hasOwn(target.filterable, name)
          c.check(`${target.name} ?${name}=is.null`, await list(`${name}=is.null`), isColumn, isColumn ? undefined : /not a filterable column/)
          c.check(`${target.name} ?${name}=eq.x`, await list(`${name}=eq.x`), undefined, isColumn ? undefined : /not a filterable column/)
          const sortable = target.sortable.includes(name)
          for (const sort of [name, `-${name}`, `createdAt,${name}`]) {
            c.check(`${target.name} ?sort=${sort}`, await list(`sort=${sort}`), sortable, sortable ? undefined : /not sortable/)
          }
        }
        for (const [column, kind] of Object.entries(target.filterable)) {
          for (const [value, validFor] of FILTER_VALUES) {
            const refusal = /%00|%ED%[AB]/i.test(value) ? /NUL|lone surrogate/ : undefined
            c.check(`${target.name} ?${column}=${value}`, await list(`${column}=${value}`), validFor.includes(kind), refusal)
          }
        }
        for (const [query, valid] of PAGING) c.check(`${target.name} ?${query}`, await list(query), valid)
        c.check(`${target.name} ?includeDeleted=maybe`, await list('includeDeleted=maybe'), false)
      }
      expect(c.sent).toBeGreaterThan(1000)
      expect(c.failures).toEqual([])
    }, 60_000)

    test(`as ${actor}: row bodies`, async () => {
      const c = checker()
      for (const target of targets) {
        const send = (method: string, path: string, body: string) => h.call(method, path, { ...actors[actor], body })
        const example = target.example(actor)
        const own = target.rows[actor]
        const writes: [string, string][] = [['POST', target.path]]
        if (own) writes.push(['PATCH', `${target.path}/${own}`])
        for (const [method, path] of writes) {
          const what = `${method} ${target.name}`
          for (const [key, value] of Object.entries(example)) {
            if (typeof value !== 'string') continue
            for (const lone of ['x\ud800y', '\udfff', '\ud83d']) {
              c.check(`${what} ${key}: lone surrogate`, await send(method, path, JSON.stringify({ ...example, [key]: lone })), false, /lone surrogate/)
            }
            c.check(`${what} ${key}: lone surrogate key`, await send(method, path, withKey(example, `${key}\ud800`, '"x"')), false, /lone surrogate/)
          }
          const first = Object.keys(example)[0]!
          c.check(`${what} nested 10,000 deep`, await send(method, path, withKey(example, first, nested(10_000))), false, /nested deeper than 64/)
          c.check(`${what} nested 65 deep`, await send(method, path, withKey(example, first, nested(65))), false, /nested deeper than 64/)
          c.check(`${what} top-level array 10,000 deep`, await send(method, path, '['.repeat(10_000) + ']'.repeat(10_000)), false, /nested deeper than 64/)
          const atLimit = await send(method, path, withKey(example, first, nested(63)))
          c.check(`${what} nested 64 deep`, atLimit)
          if (/nested deeper/.test(atLimit.body?.error?.message ?? '')) c.failures.push(`${what}: 64 levels refused as too deep`)
          for (const name of PROTOTYPE_NAMES) {
            const isColumn = Object.hasOwn(target.filterable, name)
            const strict = target.strictBody || (!isColumn && name !== '__proto__')
            for (const value of ['"x"', '{"title":"polluted","n":1}', 'null']) {
              c.check(`${what} ${name}: ${value}`, await send(method, path, withKey(example, name, value)), strict ? false : undefined)
            }
          }
        }
      }
      expect(({} as Record<string, unknown>).title).toBeUndefined()
      expect(c.failures).toEqual([])
    }, 60_000)
  }

  test('contract rows: long values in unique and indexed columns are 400, in plain text columns stored', async () => {
    const contract = targets.find((t) => t.name === 'contract rows')!
    const long = randomBytes(6_000).toString('base64')
    for (const column of ['constructor', 'title']) {
      const res = await h.call('POST', contract.path, { ...actors.customer, body: { ...contract.example('customer'), [column]: long } })
      expect(res.status, column).toBe(400)
      expect(res.body.error).toEqual({ code: 'validation_failed', message: `body.${column}: at most 2000 bytes in a unique or indexed column` })
    }
    const plain = await h.call('POST', contract.path, { ...actors.customer, body: { ...contract.example('customer'), note: long } })
    expect(plain.status).toBe(201)
    expect(plain.body.note).toBe(long)
    // A `constructor` column is a column like any other: absent from a body, it takes its default (null).
    const { constructor: _, ...withoutIt } = contract.example('customer')
    const created = await h.call('POST', contract.path, { ...actors.customer, body: withoutIt })
    expect(created.status).toBe(201)
    expect(created.body.constructor).toBeNull()
    const found = await h.call('GET', `${contract.path}?constructor=is.null&sort=-constructor`, actors.customer)
    expect(found.status).toBe(200)
    expect(found.body.rows.map((r: { id: string }) => r.id)).toContain(created.body.id)
  })
})
