import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness } from '../support/harness'
import { type ContractWorld, contractWorld, define } from './support'

let h: Harness
let w: ContractWorld
beforeAll(async () => {
  h = await createHarness()
  w = await contractWorld(h)
})
afterAll(() => h.close())

/** The same filters on an indexed and an unindexed twin column must answer alike, through every change. */
describe('indexed columns', () => {
  let name: string
  const write = (body: Record<string, unknown>) => h.call('POST', `/contract/contracts/${name}/rows`, { token: w.alice.token, body })
  const codes = async (query: string) => {
    const res = await h.call('GET', `/contract/contracts/${name}/rows?${query}&sort=code`, { token: w.alice.token })
    expect(res.status, query).toBe(200)
    return res.body.rows.map((r: { code: string }) => r.code)
  }
  const same = async (indexed: string, plain: string) => {
    const a = await codes(indexed)
    expect(a, indexed).toEqual(await codes(plain))
    return a
  }

  beforeAll(async () => {
    name = (
      await define(h, w, {
        columns: [
          { name: 'code', type: 'text' },
          { name: 'n_idx', type: 'integer', indexed: true },
          { name: 'n', type: 'integer' },
          { name: 't_idx', type: 'timestamp', indexed: true },
          { name: 't', type: 'timestamp' },
          { name: 's_idx', type: 'text', indexed: true },
          { name: 's', type: 'text' },
        ],
        access: { read: 'all', update: 'all' },
      })
    ).name
    for (const [code, n, t, s] of [
      ['a', 1, '2026-01-01T00:00:00Z', 'x'],
      ['b', 5, '2026-02-01T00:00:00Z', 'y'],
      ['c', 10, '2026-03-01T00:00:00Z', 'z'],
      ['d', null, null, null],
    ] as const) {
      await write({ code, n_idx: n, n, t_idx: t, t, s_idx: s, s })
    }
  })

  test('ranges, equality and in answer as on an unindexed column, and through the side table', async () => {
    expect(await same('n_idx=gt.1', 'n=gt.1')).toEqual(['b', 'c'])
    expect(await same('n_idx=gte.5&n_idx=lt.10', 'n=gte.5&n=lt.10')).toEqual(['b'])
    expect(await same('n_idx=eq.10', 'n=eq.10')).toEqual(['c'])
    expect(await same('n_idx=in.(1,10)', 'n=in.(1,10)')).toEqual(['a', 'c'])
    expect(await same('t_idx=lte.2026-02-01', 't=lte.2026-02-01')).toEqual(['a', 'b'])
    expect(await same('s_idx=eq.y', 's=eq.y')).toEqual(['b'])
    expect(await same('s_idx=in.(x,z)', 's=in.(x,z)')).toEqual(['a', 'c'])
    expect(await same('n_idx=is.null', 'n=is.null')).toEqual(['d'])
    const [entries] = await queryRows<{ n: number }>(
      h.db,
      sql`select count(*)::int as n from contract.indexed_values v join contract.contracts c on c.id = v.contract_id where c.name = ${name}`,
    )
    expect(entries!.n).toBe(9)
  })

  test('an update moves the value; a delete removes it', async () => {
    const [row] = (await h.call('GET', `/contract/contracts/${name}/rows?code=eq.a`, { token: w.alice.token })).body.rows
    await h.call('PATCH', `/contract/contracts/${name}/rows/${row.id}`, { token: w.alice.token, body: { n_idx: 7, n: 7 } })
    expect(await same('n_idx=gt.6', 'n=gt.6')).toEqual(['a', 'c'])
    await h.call('PATCH', `/contract/contracts/${name}/rows/${row.id}`, { token: w.alice.token, body: { n_idx: null, n: null } })
    expect(await same('n_idx=is.null', 'n=is.null')).toEqual(['a', 'd'])
    expect(await same('n_idx=gte.0', 'n=gte.0')).toEqual(['b', 'c'])
  })

  test('an indexed column added later is filled from its default; a dropped one leaves the side table', async () => {
    const added = await h.call('PATCH', `/contract/contracts/${name}`, {
      ...w.admin,
      body: { addColumns: [{ name: 'rank', type: 'number', indexed: true, default: 2.5 }] },
    })
    expect(added.status).toBe(200)
    expect((await codes('rank=gt.2')).length).toBe(4)
    expect(await codes('rank=lt.2')).toEqual([])
    await h.call('PATCH', `/contract/contracts/${name}`, { ...w.admin, body: { dropColumns: ['rank'] } })
    const [left] = await queryRows<{ n: number }>(h.db, sql`select count(*)::int as n from contract.indexed_values where "column" = 'rank'`)
    expect(left!.n).toBe(0)
  })
})
