import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness } from '../support/harness'
import { addMember } from '../support/tenancy'
import { type ContractWorld, contractWorld, define } from './support'

let h: Harness
let w: ContractWorld
beforeAll(async () => {
  h = await createHarness()
  w = await contractWorld(h)
})
afterAll(() => h.close())

const post = (body: unknown) => h.call('POST', '/contract/contracts', { ...w.admin, body })

describe('defining contracts', () => {
  test('an admin defines one; members read it; customers and plain members cannot change it', async () => {
    const res = await post({ name: 'orders', columns: [{ name: 'total', type: 'number', nullable: false }], access: { read: 'all' } })
    expect(res.status).toBe(201)
    expect(res.body).toMatchObject({ name: 'orders', version: 1, droppedColumns: [], access: { read: 'all', create: true, update: 'own', delete: 'own' } })
    expect((await post({ name: 'orders', columns: [{ name: 'x', type: 'text' }] })).status).toBe(409)
    const member = await h.register()
    await addMember(h, w.org, w.owner, member, 'member')
    expect((await h.call('GET', '/contract/contracts/orders', w.org.as(member))).status).toBe(200)
    expect((await h.call('PATCH', '/contract/contracts/orders', { ...w.org.as(member), body: { access: { read: 'none' } } })).status).toBe(403)
    expect((await h.call('POST', '/contract/contracts', { token: w.alice.token, body: { name: 'mine', columns: [{ name: 'x', type: 'text' }] } })).status).toBe(
      403,
    )
    expect((await h.call('GET', '/contract/contracts', { token: w.alice.token })).status).toBe(403)
    const listed = (await h.call('GET', '/contract/contracts', w.admin)).body
    expect(listed).toMatchObject({ page: 1, pageSize: 20, total: listed.items.length })
    expect(listed.items.map((c: { name: string }) => c.name)).toContain('orders')
    expect((await h.call('GET', '/contract/contracts/nothing', w.admin)).status).toBe(404)
  })

  test.each([
    [{ name: 'Orders', columns: [{ name: 'a', type: 'text' }] }, 'name'],
    [{ name: '1abc', columns: [{ name: 'a', type: 'text' }] }, 'name'],
    [{ name: 'select', columns: [{ name: 'a', type: 'text' }] }, 'reserved'],
    [{ name: 'contracts', columns: [{ name: 'a', type: 'text' }] }, 'system'],
    [{ name: 'a'.repeat(64), columns: [{ name: 'a', type: 'text' }] }, 'name'],
    [{ name: 'ok_name', columns: [{ name: 'id', type: 'text' }] }, 'system'],
    [{ name: 'ok_name', columns: [{ name: 'created_at', type: 'text' }] }, 'system'],
    [{ name: 'ok_name', columns: [{ name: 'order', type: 'text' }] }, 'reserved'],
    [
      {
        name: 'ok_name',
        columns: [
          { name: 'a', type: 'text' },
          { name: 'a', type: 'integer' },
        ],
      },
      'twice',
    ],
    [{ name: 'ok_name', columns: [{ name: 'a', type: 'varchar' }] }, ''],
    [{ name: 'ok_name', columns: [{ name: 'a', type: 'integer', default: 'one' }] }, 'default'],
    [{ name: 'ok_name', columns: [{ name: 'a', type: 'text', nullable: false, default: null }] }, 'default'],
    [{ name: 'ok_name', columns: [] }, ''],
    [{ name: 'ok_name', columns: Array.from({ length: 65 }, (_, i) => ({ name: `c${i}`, type: 'text' })) }, ''],
    [{ name: "x'; drop table contract.rows;--", columns: [{ name: 'a', type: 'text' }] }, 'name'],
    [{ name: 'ok_name', columns: [{ name: 'a"b', type: 'text' }] }, ''],
  ])('%j is refused with 400 (%s)', async (body, word) => {
    const res = await post(body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    if (word) expect(res.body.error.message).toContain(word)
  })

  test('at most 100 contracts per ecosystem', async () => {
    const other = await contractWorld(h)
    for (let i = 0; i < 100; i++) await define(h, other, { columns: [{ name: 'a', type: 'text' }] })
    const res = await h.call('POST', '/contract/contracts', { ...other.admin, body: { name: 'one_too_many', columns: [{ name: 'a', type: 'text' }] } })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('limit_reached')
  }, 60_000)
})

describe('altering contracts', () => {
  test('add gives existing rows the default; drop hides at once and keeps values until confirm', async () => {
    const c = await define(h, w, {
      columns: [
        { name: 'title', type: 'text' },
        { name: 'secret', type: 'text' },
      ],
      access: { read: 'all' },
    })
    const row = await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { title: 't', secret: 'hidden-value' } })
    const added = await h.call('PATCH', `/contract/contracts/${c.name}`, {
      ...w.admin,
      body: { addColumns: [{ name: 'stars', type: 'integer', nullable: false, default: 3 }] },
    })
    expect(added.body.version).toBe(2)
    expect((await h.call('GET', `/contract/contracts/${c.name}/rows/${row.body.id}`, { token: w.alice.token })).body).toMatchObject({ title: 't', stars: 3 })

    const dropped = await h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { dropColumns: ['secret'] } })
    expect(dropped.body).toMatchObject({ version: 3, droppedColumns: ['secret'] })
    const read = await h.call('GET', `/contract/contracts/${c.name}/rows/${row.body.id}`, { token: w.alice.token })
    expect(read.body).not.toHaveProperty('secret')
    // No inference of a hidden value through filters or sorts either.
    for (const query of ['secret=eq.hidden-value', 'secret=ilike.hidden*', 'sort=secret']) {
      expect((await h.call('GET', `/contract/contracts/${c.name}/rows?${query}`, { token: w.alice.token })).status, query).toBe(400)
    }
    expect((await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { secret: 'again' } })).status).toBe(400)
    const readd = await h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { addColumns: [{ name: 'secret', type: 'integer' }] } })
    expect(readd.status).toBe(409)
    const [kept] = await queryRows<{ data: Record<string, unknown> }>(h.db, sql`select data from contract.rows where id = ${row.body.id}`)
    expect(kept!.data.secret).toBe('hidden-value')

    const confirmed = await h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { confirm: true } })
    expect(confirmed.body).toMatchObject({ version: 4, droppedColumns: [] })
    const [gone] = await queryRows<{ data: Record<string, unknown> }>(h.db, sql`select data from contract.rows where id = ${row.body.id}`)
    expect(gone!.data).not.toHaveProperty('secret')
    expect((await h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { addColumns: [{ name: 'secret', type: 'integer' }] } })).status).toBe(
      200,
    )
  })

  test('a non-null column added to a contract with rows needs a default; dropping an unknown column is 400', async () => {
    const c = await define(h, w, { columns: [{ name: 'a', type: 'text' }] })
    await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { a: 'x' } })
    expect(
      (await h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { addColumns: [{ name: 'b', type: 'text', nullable: false }] } })).status,
    ).toBe(400)
    expect((await h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { dropColumns: ['zzz'] } })).status).toBe(400)
    expect((await h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: {} })).status).toBe(400)
  })

  test('deleting a contract deletes its rows', async () => {
    const c = await define(h, w, { columns: [{ name: 'a', type: 'text', unique: true }] })
    await h.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { a: 'x' } })
    expect((await h.call('DELETE', `/contract/contracts/${c.name}`, w.admin)).status).toBe(204)
    const [left] = await queryRows<{ n: number }>(
      h.db,
      sql`select count(*)::int as n from contract.rows r left join contract.contracts c on c.id = r.contract_id where c.id is null`,
    )
    expect(left!.n).toBe(0)
    expect((await h.call('GET', `/contract/contracts/${c.name}/rows`, { token: w.alice.token })).status).toBe(404)
  })

  test('two replicas altering the same contract at once lose neither change', async () => {
    const c = await define(h, w, { columns: [{ name: 'a', type: 'text' }] })
    const replica = await h.replica()
    try {
      const results = await Promise.all([
        h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { addColumns: [{ name: 'from_one', type: 'text' }] } }),
        replica.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { addColumns: [{ name: 'from_two', type: 'text' }] } }),
        h.call('PATCH', `/contract/contracts/${c.name}`, { ...w.admin, body: { access: { read: 'all' } } }),
      ])
      expect(results.map((r) => r.status)).toEqual([200, 200, 200])
      const final = await replica.call('GET', `/contract/contracts/${c.name}`, w.admin)
      expect(final.body.columns.map((col: { name: string }) => col.name).sort()).toEqual(['a', 'from_one', 'from_two'])
      expect(final.body.version).toBe(4)
      expect(final.body.access.read).toBe('all')
      // The other replica writes rows against the new definition at once.
      expect((await replica.call('POST', `/contract/contracts/${c.name}/rows`, { token: w.alice.token, body: { from_one: 'x', from_two: 'y' } })).status).toBe(
        201,
      )
    } finally {
      await replica.close()
    }
  })
})
