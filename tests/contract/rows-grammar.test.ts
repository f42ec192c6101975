import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { type ContractWorld, contractWorld, define } from './support'

// PostgREST's grammar as it writes it, over HTTP on contract rows (values in JSONB, some indexed).
let h: Harness
let w: ContractWorld
let name: string
beforeAll(async () => {
  h = await createHarness()
  w = await contractWorld(h)
  name = (
    await define(h, w, {
      columns: [
        { name: 'label', type: 'text', nullable: false },
        { name: 'code', type: 'text', indexed: true },
        { name: 'count', type: 'integer', indexed: true },
        { name: 'extra', type: 'json' },
      ],
      access: { read: 'all' },
    })
  ).name
  const rows = [
    { label: 'Grocery list', code: 'a,b', count: 1, extra: { k: 1 } },
    { label: 'Project plan', code: 'say "hi"', count: 2 },
    { label: 'Plan "B", draft', code: null, count: 3 },
    { label: 'Trip', code: 'x', count: null },
  ]
  for (const body of rows) expect((await h.call('POST', `/contract/contracts/${name}/rows`, { token: w.alice.token, body })).status).toBe(201)
})
afterAll(() => h.close())

const q = (params: Record<string, string>) =>
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')
const list = (params: Record<string, string>) => h.call('GET', `/contract/contracts/${name}/rows?${q(params)}`, { token: w.alice.token })
async function labels(params: Record<string, string>, ordered = false): Promise<string[]> {
  const res = await list(params)
  expect(res.status, `${q(params)}: ${JSON.stringify(res.body)}`).toBe(200)
  const out = res.body.rows.map((r: { label: string }) => r.label)
  return ordered ? out : out.sort()
}
const sorted = (...t: string[]) => t.sort()

describe('contract rows: PostgREST forms', () => {
  test('quoted in-lists on a plain and an indexed text column', async () => {
    expect(await labels({ label: 'in.("Grocery list","Plan \\"B\\", draft")' })).toEqual(sorted('Grocery list', 'Plan "B", draft'))
    expect(await labels({ code: 'in.("a,b","say \\"hi\\"")' })).toEqual(sorted('Grocery list', 'Project plan'))
  })

  test('not. forms: a null value matches neither a condition nor its negation', async () => {
    expect(await labels({ code: 'not.eq.x' })).toEqual(sorted('Grocery list', 'Project plan'))
    expect(await labels({ label: 'not.eq.Trip' })).toEqual(sorted('Grocery list', 'Project plan', 'Plan "B", draft'))
    expect(await labels({ count: 'not.in.(1,2)' })).toEqual(['Plan "B", draft'])
    expect(await labels({ count: 'not.gt.1' })).toEqual(['Grocery list'])
    expect(await labels({ code: 'not.is.null' })).toEqual(sorted('Grocery list', 'Project plan', 'Trip'))
    expect(await labels({ extra: 'not.is.null' })).toEqual(['Grocery list'])
    expect(await labels({ label: 'not.ilike.*plan*' })).toEqual(sorted('Grocery list', 'Trip'))
  })

  test('like vs ilike', async () => {
    expect(await labels({ label: 'like.*Plan*' })).toEqual(['Plan "B", draft'])
    expect(await labels({ label: 'ilike.*Plan*' })).toEqual(sorted('Plan "B", draft', 'Project plan'))
  })

  test('or/and trees up to three levels, mixing indexed, system and plain columns', async () => {
    expect(await labels({ or: '(count.eq.1,and(count.gt.2,code.is.null))' })).toEqual(sorted('Grocery list', 'Plan "B", draft'))
    expect(await labels({ or: '(label.eq."Plan \\"B\\", draft",code.in.("a,b"))' })).toEqual(sorted('Grocery list', 'Plan "B", draft'))
    expect(await labels({ and: '(createdAt.gt.2000-01-01,or(count.is.null,and(count.gte.2,label.like.P*)))' })).toEqual(
      sorted('Plan "B", draft', 'Project plan', 'Trip'),
    )
    expect(await labels({ 'not.and': '(count.gte.2,count.lte.3)' })).toEqual(['Grocery list'])
    const res = await list({ or: '(count.eq.1,and(count.gt.2,or(code.is.null,and(label.eq.x))))' })
    expect(res.status).toBe(400)
    expect(res.body.error.message).toStartWith('query.or: and/or nest at most 3 levels')
  })

  test('order= with nullsfirst / nullslast', async () => {
    expect(await labels({ order: 'count.desc.nullsfirst' }, true)).toEqual(['Trip', 'Plan "B", draft', 'Project plan', 'Grocery list'])
    expect(await labels({ order: 'count.desc' }, true)).toEqual(['Plan "B", draft', 'Project plan', 'Grocery list', 'Trip'])
    expect(await labels({ order: 'count.asc.nullsfirst' }, true)).toEqual(['Trip', 'Grocery list', 'Project plan', 'Plan "B", draft'])
    expect(await labels({ sort: '-count' }, true)).toEqual(await labels({ order: 'count.desc.nullslast' }, true))
  })

  test('select= projects the columns named (system fields stay)', async () => {
    const res = await list({ select: 'label,extra', label: 'eq.Grocery list' })
    expect(res.status).toBe(200)
    expect(res.body.rows).toEqual([
      {
        id: expect.any(String),
        customerId: w.alice.customerId,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
        label: 'Grocery list',
        extra: { k: 1 },
      },
    ])
    const all = await list({ label: 'eq.Grocery list' })
    expect(Object.keys(all.body.rows[0]).sort()).toEqual(['code', 'count', 'createdAt', 'customerId', 'extra', 'id', 'label', 'updatedAt'])
  })

  test.each([
    [{ label: 'in.("open)' }, 'query.label'],
    [{ count: 'in.("1,2")' }, 'query.count'],
    [{ count: 'not.like.1*' }, 'query.count'],
    [{ or: '(nothing.eq.1)' }, 'query.or'],
    [{ or: '(constructor.eq.1)' }, 'query.or'],
    [{ and: '(extra.eq.1)' }, 'query.and'],
    [{ or: '(count.eq.1' }, 'query.or'],
    [{ order: 'extra.desc' }, 'query.order'],
    [{ order: 'count.up' }, 'query.order'],
    [{ select: 'label,nothing' }, 'query.select'],
    [{ select: 'constructor' }, 'query.select'],
  ])('%j is 400 naming %s', async (params, param) => {
    const res = await list(params as Record<string, string>)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    expect(res.body.error.message).toStartWith(`${param}:`)
  })
})
