import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'
import { type ContractWorld, contractWorld, define } from './support'

let h: Harness
let w: ContractWorld
beforeAll(async () => {
  h = await createHarness()
  w = await contractWorld(h)
})
afterAll(() => h.close())

const ALL_TYPES = [
  { name: 'label', type: 'text', nullable: false },
  { name: 'count', type: 'integer', default: 0 },
  { name: 'ratio', type: 'number' },
  { name: 'flag', type: 'boolean', default: false },
  { name: 'at', type: 'timestamp' },
  { name: 'extra', type: 'json' },
  { name: 'ref', type: 'uuid' },
]

describe('values are checked against the column types', () => {
  let name: string
  beforeAll(async () => {
    name = (await define(h, w, { columns: ALL_TYPES, access: { read: 'all' } })).name
  })
  const write = (body: unknown) => h.call('POST', `/contract/contracts/${name}/rows`, { token: w.alice.token, body })

  test('good values of every type are stored as given (timestamps in UTC), defaults fill the gaps', async () => {
    const ref = crypto.randomUUID()
    const res = await write({ label: 'x', ratio: 0.5, at: '2026-03-01T10:00:00+02:00', extra: { deep: [1, 'two', null] }, ref: ref.toUpperCase() })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({
      label: 'x',
      count: 0,
      ratio: 0.5,
      flag: false,
      at: '2026-03-01T08:00:00.000Z',
      extra: { deep: [1, 'two', null] },
      ref,
      customerId: w.alice.customerId,
    })
    expect((await h.call('GET', `/contract/contracts/${name}/rows/${res.body.id}`, { token: w.alice.token })).body).toEqual(res.body)
  })

  test.each([
    [{ count: 1 }, 'body.label: may not be null'],
    [{ label: null }, 'body.label: may not be null'],
    [{ label: 5 }, 'body.label: expected text'],
    [{ label: 'x', count: 1.5 }, 'body.count: expected an integer'],
    [{ label: 'x', count: '1' }, 'body.count: expected an integer'],
    [{ label: 'x', count: 2 ** 60 }, 'body.count: expected an integer'],
    [{ label: 'x', ratio: 'NaN' }, 'body.ratio: expected a number'],
    [{ label: 'x', flag: 'true' }, 'body.flag: expected true or false'],
    [{ label: 'x', at: 'tomorrow' }, 'body.at: expected an ISO 8601 timestamp'],
    [{ label: 'x', at: 1700000000 }, 'body.at: expected an ISO 8601 timestamp'],
    [{ label: 'x', ref: 'not-a-uuid' }, 'body.ref: expected a UUID'],
    [{ label: 'x', colour: 'red' }, 'body.colour: not a column of this contract'],
    [{ label: 'x', id: crypto.randomUUID() }, 'body.id: not a column'],
  ])('%j is 400: %s', async (body, message) => {
    const res = await write(body)
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({ code: 'validation_failed', message: expect.stringContaining(message) })
  })

  test('PATCH checks only the values it changes; nulls only where nullable', async () => {
    const row = await write({ label: 'p' })
    expect(
      (await h.call('PATCH', `/contract/contracts/${name}/rows/${row.body.id}`, { token: w.alice.token, body: { count: 5, ratio: null } })).body,
    ).toMatchObject({ label: 'p', count: 5, ratio: null })
    expect((await h.call('PATCH', `/contract/contracts/${name}/rows/${row.body.id}`, { token: w.alice.token, body: { label: null } })).status).toBe(400)
  })

  test('unknown contract: 404', async () => {
    expect((await h.call('POST', '/contract/contracts/no_such/rows', { token: w.alice.token, body: { a: 1 } })).status).toBe(404)
    expect((await h.call('GET', '/contract/contracts/no_such/rows', { token: w.alice.token })).status).toBe(404)
  })
})

describe('filters, sort and paging over the values', () => {
  let name: string
  const ids: Record<string, string> = {}
  beforeAll(async () => {
    name = (await define(h, w, { columns: ALL_TYPES, access: { read: 'all' } })).name
    const rows = [
      { label: 'apple pie', count: 3, ratio: 0.25, flag: true, at: '2026-01-01T00:00:00Z', ref: crypto.randomUUID() },
      { label: 'banana', count: 10, ratio: 1.5, flag: false, at: '2026-02-01T00:00:00Z' },
      { label: 'Cherry 100%', count: -2, flag: true, at: '2026-03-01T00:00:00Z', extra: { k: 1 } },
      { label: 'date', count: 10, ratio: 2 },
    ]
    for (const body of rows) ids[body.label] = (await h.call('POST', `/contract/contracts/${name}/rows`, { token: w.alice.token, body })).body.id
  })
  const labels = async (query: string) => {
    const res = await h.call('GET', `/contract/contracts/${name}/rows?${query}`, { token: w.alice.token })
    expect(res.status, query).toBe(200)
    return res.body.rows.map((r: { label: string }) => r.label)
  }

  test('every operator on the JSON values', async () => {
    expect(await labels('label=eq.banana')).toEqual(['banana'])
    expect(await labels('count=eq.10&sort=label')).toEqual(['banana', 'date'])
    expect(await labels('count=neq.10&sort=label')).toEqual(['Cherry 100%', 'apple pie'].sort())
    expect(await labels('count=gt.3&sort=label')).toEqual(['banana', 'date'])
    expect(await labels('count=gte.3&sort=count,label')).toEqual(['apple pie', 'banana', 'date'])
    expect(await labels('ratio=lt.1.5')).toEqual(['apple pie'])
    expect(await labels('ratio=lte.1.5&sort=ratio')).toEqual(['apple pie', 'banana'])
    expect(await labels('at=gte.2026-02-01&at=lt.2026-03-01')).toEqual(['banana'])
    expect(await labels('at=eq.2026-03-01T00:00:00.000Z')).toEqual(['Cherry 100%'])
    expect(await labels('count=in.(3,-2)&sort=count')).toEqual(['Cherry 100%', 'apple pie'])
    expect(await labels('flag=is.true&sort=label')).toEqual(['Cherry 100%', 'apple pie'].sort())
    expect(await labels('flag=eq.false&sort=label')).toEqual(['banana', 'date'])
    expect(await labels('ratio=is.null')).toEqual(['Cherry 100%'])
    expect(await labels('extra=is.null&sort=label')).toEqual(['apple pie', 'banana', 'date'])
    expect(await labels('label=ilike.*AN*')).toEqual(['banana'])
    expect(await labels('label=ilike.*100%25')).toEqual(['Cherry 100%'])
    expect(await labels(`id=eq.${ids.banana}`)).toEqual(['banana'])
    expect(await labels(`customerId=eq.${w.alice.customerId}`)).toHaveLength(4)
  })

  test('sort descending with nulls last, paging with total', async () => {
    expect(await labels('sort=-ratio')).toEqual(['date', 'banana', 'apple pie', 'Cherry 100%'])
    const page = await h.call('GET', `/contract/contracts/${name}/rows?sort=count,label&pageSize=3&page=2`, { token: w.alice.token })
    expect(page.body).toMatchObject({ total: 4, page: 2, pageSize: 3 })
    expect(page.body.rows.map((r: { label: string }) => r.label)).toEqual(['date'])
    expect((await labels(''))[0]).toBe('date')
  })

  test('malformed filters and json comparisons are 400 naming the column', async () => {
    for (const [query, column] of [
      ['count=eq.ten', 'count'],
      ['extra=eq.1', 'extra'],
      ['label=gt.a', 'label'],
      ['sort=extra', 'sort'],
      ['flag=ilike.t*', 'flag'],
      ['nothing=eq.1', 'nothing'],
    ]) {
      const res = await h.call('GET', `/contract/contracts/${name}/rows?${query}`, { token: w.alice.token })
      expect(res.status, query).toBe(400)
      expect(res.body.error.message, query).toContain(column)
    }
  })
})

describe('unique columns', () => {
  test('20 concurrent rows with one value: exactly one is stored, the others are 409 naming the column', async () => {
    const c = await define(h, w, { columns: [{ name: 'email', type: 'text', unique: true }], access: { read: 'all' } })
    const results = await Promise.all(
      Array.from({ length: 20 }, () => h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { email: 'same@example.test' } })),
    )
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 201)) expect(r.body.error).toEqual({ code: 'conflict', message: 'email: another row holds this value' })
    const other = await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { email: 'other@example.test' } })
    expect(
      (await h.call('PATCH', `/contract/contracts/${c.name}/rows/${other.body.id}`, { token: w.alice.token, body: { email: 'same@example.test' } })).status,
    ).toBe(409)
    expect(
      (await h.call('PATCH', `/contract/contracts/${c.name}/rows/${other.body.id}`, { token: w.alice.token, body: { email: 'third@example.test' } })).status,
    ).toBe(200)
    expect((await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { email: 'other@example.test' } })).status).toBe(201)
    const winner = results.find((r) => r.status === 201)!
    expect((await h.call('DELETE', `/contract/contracts/${c.name}/rows/${winner.body.id}`, { token: w.alice.token })).status).toBe(204)
    expect((await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { email: 'same@example.test' } })).status).toBe(201)
  })
})

describe('access modes', () => {
  const rowOf = async (name: string, who: { token: string }) =>
    (await h.call('POST', `/contract/contracts/${name}/rows`, { token: who.token, body: { a: 'x' } })).body.id as string

  test.each([
    ['none', [403, 403], 403],
    ['own', [200, 404], 200],
    ['all', [200, 200], 200],
  ] as const)('read: %s', async (read, [own, others], list) => {
    const c = await define(h, w, { columns: [{ name: 'a', type: 'text' }], access: { read } })
    const mine = await rowOf(c.name, w.alice)
    const bobs = await rowOf(c.name, w.bob)
    expect((await h.call('GET', `/contract/contracts/${c.name}/rows/${mine}`, { token: w.alice.token })).status).toBe(own)
    expect((await h.call('GET', `/contract/contracts/${c.name}/rows/${bobs}`, { token: w.alice.token })).status).toBe(others)
    const listed = await h.call('GET', `/contract/contracts/${c.name}/rows`, { token: w.alice.token })
    expect(listed.status).toBe(list)
    if (read === 'own') expect(listed.body.rows.map((r: { id: string }) => r.id)).toEqual([mine])
    expect((await h.call('GET', `/contract/contracts/${c.name}/rows/${bobs}`, w.admin)).status).toBe(200)
  })

  test.each(['update', 'delete'] as const)('%s: none / own / all', async (action) => {
    for (const [scope, own, others] of [
      ['none', 403, 403],
      ['own', 'ok', 404],
      ['all', 'ok', 'ok'],
    ] as const) {
      const c = await define(h, w, { columns: [{ name: 'a', type: 'text' }], access: { read: 'all', [action]: scope } })
      const mine = await rowOf(c.name, w.alice)
      const bobs = await rowOf(c.name, w.bob)
      const act = (id: string) =>
        action === 'update'
          ? h.call('PATCH', `/contract/contracts/${c.name}/rows/${id}`, { token: w.alice.token, body: { a: 'changed' } })
          : h.call('DELETE', `/contract/contracts/${c.name}/rows/${id}`, { token: w.alice.token })
      const ok = action === 'update' ? 200 : 204
      expect((await act(mine)).status, `${action} ${scope} own`).toBe(own === 'ok' ? ok : own)
      expect((await act(bobs)).status, `${action} ${scope} others`).toBe(others === 'ok' ? ok : others)
    }
  })

  test('create: false keeps customers out; admins still write', async () => {
    const c = await define(h, w, { columns: [{ name: 'a', type: 'text' }], access: { create: false, read: 'all' } })
    expect((await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { a: 'x' } })).status).toBe(403)
    const byAdmin = await h.call('POST', `/contract/contracts/${c.name}/rows`, { ...w.admin, body: { a: 'x' } })
    expect(byAdmin.status).toBe(201)
    expect(byAdmin.body.customerId).toBeNull()
  })
})

describe('other tenants', () => {
  test("another ecosystem's admin and customers never reach B's contract or rows", async () => {
    const c = await define(h, w, { columns: [{ name: 'a', type: 'text' }], access: { read: 'all', update: 'all', delete: 'all' } })
    const row = await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { a: 'b-secret' } })
    const strangerOwner = await h.register()
    const strangerOrg = await provision(h, strangerOwner)
    const strangerCustomer = await customerOf(h, strangerOrg, strangerOwner)
    const attempts = [
      ['owner of A naming B', { token: strangerOwner.token, headers: { 'x-ecosystem-id': w.org.ecosystem.id } }, [403]],
      ['owner of A in A', strangerOrg.as(strangerOwner), [404]],
      ['customer of A', { token: strangerCustomer.token }, [404]],
    ] as const
    for (const [who, creds, statuses] of attempts) {
      for (const [method, path, body] of [
        ['GET', `/contract/contracts/${c.name}`],
        ['PATCH', `/contract/contracts/${c.name}`, { access: { read: 'none' } }],
        ['DELETE', `/contract/contracts/${c.name}`],
        ['GET', `/contract/contracts/${c.name}/rows`],
        ['POST', `/contract/contracts/${c.name}/rows`, { a: 'pwned' }],
        ['GET', `/contract/contracts/${c.name}/rows/${row.body.id}`],
        ['PATCH', `/contract/contracts/${c.name}/rows/${row.body.id}`, { a: 'pwned' }],
        ['DELETE', `/contract/contracts/${c.name}/rows/${row.body.id}`],
      ] as const) {
        const res = await h.call(method, path, { ...creds, body })
        // A customer of A may not manage contracts at all (403) and finds no contract of that name in A (404).
        expect([...statuses, ...(who === 'customer of A' ? [403] : [])] as number[], `${who}: ${method} ${path}`).toContain(res.status)
        expect(JSON.stringify(res.body)).not.toContain('b-secret')
      }
    }
    expect((await h.call('GET', `/contract/contracts/${c.name}/rows/${row.body.id}`, { token: w.alice.token })).body.a).toBe('b-secret')
  })
})

describe('hostile names and values', () => {
  test('never a 5xx, never executed, stored as plain text', async () => {
    const c = await define(h, w, {
      columns: [
        { name: 'a', type: 'text' },
        { name: 'n', type: 'integer' },
      ],
      access: { read: 'all' },
    })
    const hostile = ["'; drop table contract.rows;--", '"quoted"', 'a\\b', '%_*', '日本語', '\u202e', 'x'.repeat(10_000), ')) or 1=1 --']
    for (const value of hostile) {
      const res = await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { a: value } })
      expect(res.status, value.slice(0, 20)).toBe(201)
      const found = await h.call('GET', `/contract/contracts/${c.name}/rows?a=eq.${encodeURIComponent(value)}`, { token: w.alice.token })
      expect(found.status, value.slice(0, 20)).toBe(200)
      expect(
        found.body.rows.map((r: { a: string }) => r.a),
        value.slice(0, 20),
      ).toEqual([value])
    }
    const paths = [
      `/contract/${encodeURIComponent("x'; drop table contract.rows;--")}/rows`,
      `/contract/${encodeURIComponent('a"b')}/rows`,
      `/contract/${'a'.repeat(300)}/rows`,
      `/contract/contracts/${c.name}/rows?${encodeURIComponent("a'--")}=eq.1`,
      `/contract/contracts/${c.name}/rows?a=${encodeURIComponent("eq.'); select pg_sleep(5);--")}`,
      `/contract/contracts/${c.name}/rows?n=${encodeURIComponent('gt.1); drop table x;--')}`,
      `/contract/contracts/${c.name}/rows?sort=${encodeURIComponent('a; drop table x')}`,
      `/contract/contracts/${c.name}/rows?a=in.(${encodeURIComponent("'a','b'")})`,
    ]
    for (const path of paths) {
      const res = await h.call('GET', path, { token: w.alice.token })
      expect(res.status, path).toBeLessThan(500)
    }
    const [tables] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from information_schema.tables where table_schema = 'contract'`)
    expect(tables!.n).toBe(4)
  })
})
