import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { realtimeStream } from '../support/sse'
import { customerOf, provision, type Provisioned } from '../support/tenancy'

// Filtered and single-row topics (issue 43, point 4): decided in memory on each change's record with
// the list route's grammar and columns, so a subscription sees exactly the rows its list would show.

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
  await h.call('POST', '/contract/contracts', {
    ...org.as(owner),
    body: {
      name: 'orders',
      columns: [
        { name: 'item', type: 'text' },
        { name: 'total', type: 'number' },
        { name: 'paid', type: 'boolean' },
        { name: 'due', type: 'timestamp' },
        { name: 'ref', type: 'uuid' },
      ],
      access: { read: 'own', create: true, update: 'own', delete: 'own' },
    },
  })
})
afterAll(() => h.close())

const stream = (token: string, topics: string) => realtimeStream(h.app, token, topics)
const ROWS = [
  { item: 'Rush coffee', total: 150, paid: true, due: '2026-12-01T00:00:00.000Z', ref: 'A1B2C3D4-0000-4000-8000-000000000001' },
  { item: 'tea', total: 99.5, paid: false, due: '2027-02-01T00:00:00.000Z', ref: null },
  { item: 'rush tea', total: 100, paid: null, due: null, ref: 'a1b2c3d4-0000-4000-8000-000000000002' },
  { item: null, total: null, paid: false, due: '2026-11-30T12:00:00.000Z', ref: null },
  { item: 'cake (large)', total: 1000, paid: true, due: '2027-01-01T00:00:00.000Z', ref: 'a1b2c3d4-0000-4000-8000-000000000001' },
  { item: '50% off_sale', total: -3, paid: false, due: '2026-06-01T00:00:00.000Z', ref: null },
]
const FILTERS = [
  'total=gte.100',
  'total=not.gt.100',
  'paid=is.true',
  'paid=not.is.true',
  'item=ilike.*rush*',
  'item=like.Rush*',
  'item=not.eq.tea',
  'item=in.(tea,"cake (large)")',
  'due=lt.2027-01-01T00:00:00Z',
  'ref=eq.a1b2c3d4-0000-4000-8000-000000000001',
  'item=is.null',
  'item=like.50%25 off_sale',
  'or=(paid.is.true,and(total.lt.100,due.is.null))',
  'not.and=(paid.is.false,total.lt.100)',
  'total=gt.0&paid=eq.false',
]

describe('filtered topics', () => {
  test('each filter delivers exactly the inserted rows its list route returns for the same filter', async () => {
    const ada = await customerOf(h, org, owner)
    const streams = await Promise.all(FILTERS.map((f) => stream(ada.token, `contract/orders?${f}`)))
    for (const s of streams) expect((await s.sse.next()).event).toBe('ready')
    const ids: string[] = []
    for (const row of ROWS) ids.push((await h.call('POST', '/contract/contracts/orders/rows', { token: ada.token, body: row })).body.id)
    for (const [i, filter] of FILTERS.entries()) {
      const listed = (await h.call('GET', `/contract/contracts/orders/rows?${filter}&pageSize=100`, { token: ada.token })).body.rows.map(
        (r: { id: string }) => r.id,
      )
      const expected = ids.filter((id) => listed.includes(id))
      const got: string[] = []
      while (got.length < expected.length) got.push((await streams[i]!.sse.next(5000)).data.id)
      expect({ filter, got }).toEqual({ filter, got: expected })
      expect(await streams[i]!.sse.none(150)).toBe(true)
      await streams[i]!.sse.close()
    }
  })

  test('an update moving a row out of the filter arrives once as leave; moving back in arrives as its update; a delete always', async () => {
    const ada = await customerOf(h, org, owner)
    const s = await stream(ada.token, 'contract/orders?total=gte.100')
    await s.sse.next()
    const { body: row } = await h.call('POST', '/contract/contracts/orders/rows', { token: ada.token, body: { item: 'x', total: 150 } })
    expect((await s.sse.next()).data).toMatchObject({ op: 'insert', id: row.id })
    const patch = (total: number) => h.call('PATCH', `/contract/contracts/orders/rows/${row.id}`, { token: ada.token, body: { total } })
    await patch(50)
    const left = await s.sse.next()
    expect(left.data).toEqual({ topic: 'contract/orders', op: 'leave', id: row.id, at: expect.any(String) })
    await patch(40)
    expect(await s.sse.none(300)).toBe(true)
    await patch(200)
    expect((await s.sse.next()).data).toMatchObject({ op: 'update', id: row.id, record: { total: 200 } })
    await patch(10)
    expect((await s.sse.next()).data.op).toBe('leave')
    await h.call('DELETE', `/contract/contracts/orders/rows/${row.id}`, { token: ada.token })
    expect((await s.sse.next()).data).toEqual({ topic: 'contract/orders', op: 'delete', id: row.id, at: expect.any(String) })
    await s.sse.close()
  })

  test('a resumed filtered stream decides its backlog the same way', async () => {
    const ada = await customerOf(h, org, owner)
    const s = await stream(ada.token, 'contract/orders?paid=is.true')
    const ready = (await s.sse.next()).id!
    await s.sse.close()
    const { body: unpaid } = await h.call('POST', '/contract/contracts/orders/rows', { token: ada.token, body: { item: 'u', paid: false } })
    const { body: paid } = await h.call('POST', '/contract/contracts/orders/rows', { token: ada.token, body: { item: 'p', paid: true } })
    await h.call('PATCH', `/contract/contracts/orders/rows/${paid.id}`, { token: ada.token, body: { paid: false } })
    const resumed = await realtimeStream(h.app, ada.token, 'contract/orders?paid=is.true', { since: ready })
    expect((await resumed.sse.next()).event).toBe('ready')
    expect((await resumed.sse.next()).data).toMatchObject({ op: 'insert', id: paid.id })
    expect((await resumed.sse.next()).data).toMatchObject({ op: 'leave', id: paid.id })
    expect(await resumed.sse.none(300)).toBe(true)
    expect(unpaid.id).toBeTruthy()
    await resumed.sse.close()
  })
})

describe('one-row topics', () => {
  test('data/documents/<id> follows one document; contract rows too', async () => {
    const ada = await customerOf(h, org, owner)
    const { body: doc } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'followed' } })
    const { body: other } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'not followed' } })
    const { body: row } = await h.call('POST', '/contract/contracts/orders/rows', { token: ada.token, body: { item: 'one' } })
    const s = await stream(ada.token, `data/documents/${doc.id},contract/orders/${row.id}`)
    await s.sse.next()
    await h.call('PATCH', `/data/documents/${other.id}`, { token: ada.token, body: { title: 'ignored' } })
    await h.call('PATCH', `/data/documents/${doc.id}`, { token: ada.token, body: { title: 'renamed' } })
    await h.call('POST', '/contract/contracts/orders/rows', { token: ada.token, body: { item: 'another' } })
    await h.call('PATCH', `/contract/contracts/orders/rows/${row.id}`, { token: ada.token, body: { item: 'changed' } })
    expect((await s.sse.next()).data).toMatchObject({ topic: 'data/documents', op: 'update', id: doc.id, record: { title: 'renamed' } })
    expect((await s.sse.next()).data).toMatchObject({ topic: 'contract/orders', op: 'update', id: row.id, record: { item: 'changed' } })
    expect(await s.sse.none(300)).toBe(true)
    await s.sse.close()
  })
})

describe('refusals', () => {
  test('a filter naming a field the list route does not let the caller filter, a topic without filters, or list options instead of filters is 400', async () => {
    const ada = await customerOf(h, org, owner)
    const refused = async (topics: string, message: string) => {
      const { res } = await stream(ada.token, topics)
      expect(res.status).toBe(400)
      const body = await res.json()
      expect(body.error.code).toBe('validation_failed')
      expect(body.error.message).toContain(message)
    }
    await refused('data/documents?ownerId=eq.x', 'not a filterable column')
    await refused('contract/orders?secret=eq.1', 'not a filterable column')
    await refused('contract/orders?total=gte.lots', 'is not a number')
    await refused('notifications?isRead=is.true', 'takes no filter')
    await refused('data/documents?sort=-title', 'filters only')
    await refused('data/documents?', 'an empty filter')
    // A filter may hold commas and parentheses: topics split only outside them.
    const ok = await stream(ada.token, 'contract/orders?item=in.(a,"b,c"),data/documents?or=(title.eq.x,title.eq.y)')
    expect(ok.res.status).toBe(200)
    await ok.sse.close()
  })
})
