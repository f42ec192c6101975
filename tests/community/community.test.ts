import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const admin = () => org.as(owner)
const award = (customerId: string, amount: number, sourceId: string, sourceType = 'manual') =>
  h.call('POST', '/community/points', { ...admin(), body: { customerId, amount, reason: 'test', sourceType, sourceId } })

describe('threads and replies', () => {
  test('authors change their own; others get 403; admins moderate, lock and pin; deleting a thread hides its replies', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'First', body: 'hello' } })
    expect(thread.customerId).toBe(ada.customerId)
    expect((await h.call('PATCH', `/community/threads/${thread.id}`, { token: ada.token, body: { title: 'First!' } })).body.title).toBe('First!')
    expect((await h.call('PATCH', `/community/threads/${thread.id}`, { token: bob.token, body: { title: 'pwned' } })).status).toBe(403)
    expect((await h.call('DELETE', `/community/threads/${thread.id}`, { token: bob.token })).status).toBe(403)
    expect((await h.call('GET', `/community/threads/${thread.id}`, { token: bob.token })).body.title).toBe('First!')
    expect((await h.call('PATCH', `/community/threads/${thread.id}`, { token: ada.token, body: { locked: true } })).status).toBe(403)

    const { body: reply } = await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'nice' } })
    expect((await h.call('PATCH', `/community/replies/${reply.id}`, { token: ada.token, body: { body: 'pwned' } })).status).toBe(403)
    expect((await h.call('PATCH', `/community/threads/${thread.id}`, { ...admin(), body: { locked: true, pinned: true } })).body).toMatchObject({
      locked: true,
      pinned: true,
    })
    const locked = await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'more' } })
    expect(locked.status).toBe(409)
    expect(locked.body.error.code).toBe('thread_locked')
    await h.call('POST', '/community/threads', { token: bob.token, body: { title: 'Second' } })
    const list = await h.call('GET', '/community/threads', { token: bob.token })
    expect(list.body.items[0].id).toBe(thread.id)
    // Pinned first under any sort, unless turned off.
    const titles = async (query: string) =>
      (await h.call('GET', `/community/threads?${query}`, { token: bob.token })).body.items.map((t: { title: string }) => t.title)
    expect((await titles('sort=title'))[0]).toBe('First!')
    expect((await titles('order=createdAt.asc'))[0]).toBe('First!')
    expect((await titles('sort=-title'))[0]).toBe('First!')
    expect(await titles('sort=-title&pinnedFirst=false')).toEqual(['Second', 'First!'])
    expect(await titles('sort=createdAt&pinnedFirst=false')).toEqual(['First!', 'Second'])
    expect((await h.call('GET', '/community/threads?pinnedFirst=maybe', { token: bob.token })).body.error.message).toContain('query.pinnedFirst')

    expect((await h.call('DELETE', `/community/threads/${thread.id}`, admin())).status).toBe(204)
    expect((await h.call('GET', `/community/replies/${reply.id}`, { token: bob.token })).status).toBe(404)
    expect((await h.call('GET', `/community/replies?threadId=eq.${thread.id}`, { token: bob.token })).body.total).toBe(0)
    expect((await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'late' } })).status).toBe(404)
  })

  test('every ecosystem has the general category; it and categories with threads cannot be deleted; customers cannot write categories', async () => {
    const ada = await customerOf(h, org, owner)
    const { body } = await h.call('GET', '/community/categories?slug=eq.general', { token: ada.token })
    expect(body.items).toHaveLength(1)
    const general = body.items[0].id
    expect((await h.call('DELETE', `/community/categories/${general}`, admin())).body.error.code).toBe('default_category')
    expect((await h.call('POST', '/community/categories', { token: ada.token, body: { name: 'Mine', slug: 'mine' } })).status).toBe(403)
    const { body: help } = await h.call('POST', '/community/categories', { ...admin(), body: { name: 'Help', slug: 'help', position: 1 } })
    expect((await h.call('POST', '/community/categories', { ...admin(), body: { name: 'Help 2', slug: 'help' } })).status).toBe(409)
    await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Q', categoryId: help.id } })
    expect((await h.call('DELETE', `/community/categories/${help.id}`, admin())).body.error.code).toBe('category_not_empty')
    const stranger = await h.register()
    const elsewhere = await provision(h, stranger)
    const theirGeneral = (await h.call('GET', '/community/categories', elsewhere.as(stranger))).body.items[0].id
    expect(theirGeneral).not.toBe(general)
    expect((await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Q', categoryId: theirGeneral } })).body.error.code).toBe(
      'category_not_found',
    )
    expect((await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Q', categoryId: crypto.randomUUID() } })).body.error.code).toBe(
      'category_not_found',
    )
  })

  test('a reply notifies the thread author (not for self-replies); @mentions notify the customers named', async () => {
    const ada = await customerOf(h, org, owner, `ada-${crypto.randomUUID().slice(0, 6)}`)
    const bobExternal = `bob-${crypto.randomUUID().slice(0, 6)}`
    const bob = await customerOf(h, org, owner, bobExternal)
    await h.call('PATCH', `/customer/customers/${ada.customerId}`, { ...admin(), body: { name: 'Ada Lovelace' } })
    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Ping', body: `hey @${bobExternal}, look` } })
    await h.call('POST', '/community/replies', { token: ada.token, body: { threadId: thread.id, body: 'bump' } })
    await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'thanks @Ada-Lovelace' } })
    const mine = (await h.call('GET', '/notifications', { token: ada.token })).body.items
    expect(mine.map((n: { type: string }) => n.type)).toEqual(['community_reply'])
    expect(mine[0]).toMatchObject({ threadId: thread.id, actorId: bob.customerId, replyId: expect.any(String) })
    const bobs = (await h.call('GET', '/notifications', { token: bob.token })).body.items
    expect(bobs).toHaveLength(1)
    expect(bobs[0]).toMatchObject({ type: 'community_mention', threadId: thread.id, actorId: ada.customerId, replyId: null })
  })
})

describe('points, badges, levels', () => {
  test('20 identical awards at once make one ledger row; the first answers 201, the rest 200 with it', async () => {
    const c = await customerOf(h, org, owner)
    const results = await Promise.all(Array.from({ length: 20 }, () => award(c.customerId, 7, 'promo-1')))
    expect(results.filter((r) => r.status === 201)).toHaveLength(1)
    expect(results.filter((r) => r.status === 200)).toHaveLength(19)
    expect(new Set(results.map((r) => r.body.id)).size).toBe(1)
    const ledger = await h.call('GET', `/community/points?customerId=${c.customerId}`, admin())
    expect(ledger.body.total).toBe(1)
    expect((await h.call('GET', `/community/users/${c.customerId}`, { token: c.token })).body.totalPoints).toBe(7)
    // The same source with another amount is another claim, not a retry: refused, nothing changes.
    const changed = await award(c.customerId, 8, 'promo-1')
    expect(changed.status).toBe(409)
    expect(changed.body.error.code).toBe('conflict')
    expect((await h.call('GET', `/community/users/${c.customerId}`, { token: c.token })).body.totalPoints).toBe(7)
    expect((await award(c.customerId, -3, 'penalty-1')).status).toBe(201)
    expect((await h.call('GET', '/community/points', { token: c.token })).body.items.map((p: { amount: number }) => p.amount)).toEqual([-3, 7])
    const other = await customerOf(h, org, owner)
    expect((await h.call('GET', `/community/points?customerId=${c.customerId}`, { token: other.token })).status).toBe(403)
  })

  test('a badge is awarded once when two awards cross its threshold at the same time, with its points once', async () => {
    const { body: badge } = await h.call('POST', '/community/badges', {
      ...admin(),
      body: { name: 'Ten', criteriaType: 'points_total', criteriaThreshold: 10, pointValue: 5, icon: '🔟' },
    })
    const c = await customerOf(h, org, owner)
    await Promise.all([award(c.customerId, 10, 'race-a'), award(c.customerId, 10, 'race-b')])
    const earned = await h.call('GET', `/community/users/${c.customerId}/badges`, { token: c.token })
    expect(earned.body).toEqual({
      items: [{ id: expect.any(String), badgeType: badge.id, name: 'Ten', description: '', icon: '🔟', awardedAt: expect.stringMatching(/Z$/) }],
      total: 1,
      page: 1,
      pageSize: 20,
    })
    expect((await h.call('GET', `/community/users/${c.customerId}`, { token: c.token })).body.badges.map((b: { badgeType: string }) => b.badgeType)).toEqual([
      badge.id,
    ])
    const definitions = (await h.call('GET', '/community/badges?pageSize=1', { token: c.token })).body
    expect(definitions).toMatchObject({ page: 1, pageSize: 1, total: expect.any(Number) })
    expect(definitions.items).toHaveLength(1)
    const ledger = (await h.call('GET', `/community/points?customerId=${c.customerId}`, admin())).body.items
    expect(ledger.filter((p: { sourceType: string }) => p.sourceType === 'badge')).toHaveLength(1)
    expect((await h.call('GET', `/community/users/${c.customerId}`, { token: c.token })).body.totalPoints).toBe(25)
    await h.call('DELETE', `/community/badges/${badge.id}`, admin())
  })

  test('activity badges count threads, replies made and replies received', async () => {
    const { body: badge } = await h.call('POST', '/community/badges', {
      ...admin(),
      body: { name: 'Talker', criteriaType: 'replies_created', criteriaThreshold: 2 },
    })
    const c = await customerOf(h, org, owner)
    const { body: thread } = await h.call('POST', '/community/threads', { token: c.token, body: { title: 't' } })
    await h.call('POST', '/community/replies', { token: c.token, body: { threadId: thread.id, body: 'one' } })
    expect((await h.call('GET', `/community/users/${c.customerId}/badges`, { token: c.token })).body).toEqual({ items: [], total: 0, page: 1, pageSize: 20 })
    await h.call('POST', '/community/replies', { token: c.token, body: { threadId: thread.id, body: 'two' } })
    expect(
      (await h.call('GET', `/community/users/${c.customerId}/badges`, { token: c.token })).body.items.map((b: { badgeType: string }) => b.badgeType),
    ).toEqual([badge.id])
    expect(
      (await h.call('POST', '/community/badges', { token: c.token, body: { name: 'x', criteriaType: 'points_total', criteriaThreshold: 1 } })).status,
    ).toBe(403)
    await h.call('DELETE', `/community/badges/${badge.id}`, admin())
  })

  test('levels: minPoints is an inclusive floor; replacing the levels re-levels everyone', async () => {
    const eco = await provision(h, owner)
    const as = eco.as(owner)
    expect((await h.call('PUT', '/community/levels', { ...as, body: { levels: [{ name: 'B', minPoints: 10 }] } })).status).toBe(400)
    await h.call('PUT', '/community/levels', {
      ...as,
      body: {
        levels: [
          { name: 'C', minPoints: 20 },
          { name: 'A', minPoints: 0 },
          { name: 'B', minPoints: 10 },
        ],
      },
    })
    expect((await h.call('GET', '/community/levels', as)).body).toEqual({
      items: [
        { name: 'A', minPoints: 0 },
        { name: 'B', minPoints: 10 },
        { name: 'C', minPoints: 20 },
      ],
      total: 3,
      page: 1,
      pageSize: 20,
    })
    expect((await h.call('GET', '/community/levels?page=2&pageSize=2', as)).body).toEqual({
      items: [{ name: 'C', minPoints: 20 }],
      total: 3,
      page: 2,
      pageSize: 2,
    })
    const level = async (total: number) => {
      const c = await customerOf(h, eco, owner)
      await h.call('POST', '/community/points', { ...as, body: { customerId: c.customerId, amount: total, reason: 'r', sourceType: 's', sourceId: 'x' } })
      return async () => (await h.call('GET', `/community/users/${c.customerId}`, as)).body.level
    }
    const [nine, ten, nineteen, twenty] = await Promise.all([level(9), level(10), level(19), level(20)])
    expect([await nine!(), await ten!(), await nineteen!(), await twenty!()]).toEqual(['A', 'B', 'B', 'C'])
    await h.call('PUT', '/community/levels', {
      ...as,
      body: {
        levels: [
          { name: 'Low', minPoints: 0 },
          { name: 'High', minPoints: 19 },
        ],
      },
    })
    expect([await nine!(), await ten!(), await nineteen!(), await twenty!()]).toEqual(['Low', 'Low', 'High', 'High'])
  })
})

describe('leaderboard', () => {
  test('periods are UTC calendar periods; ties rank by customer id; total counts ranked customers; paging', async () => {
    const eco = await provision(h, owner)
    // An API token: it does not expire when the clock moves a year on.
    const apiToken = (await h.call('POST', '/auth/tokens', { token: owner.token, body: { name: 'board' } })).body.token
    const as = { token: apiToken, headers: { 'x-ecosystem-id': eco.ecosystem.id } }
    const people = await Promise.all([1, 2, 3, 4].map(() => customerOf(h, eco, owner)))
    const give = (i: number, amount: number, source: string) =>
      h.call('POST', '/community/points', { ...as, body: { customerId: people[i]!.customerId, amount, reason: 'r', sourceType: 's', sourceId: source } })
    await give(0, 50, 'old')
    h.advanceClock(400 * 24 * 3600 * 1000)
    try {
      await give(1, 5, 'now-1')
      await give(2, 5, 'now-2')
      await give(3, 3, 'now-3')
      const board = async (period: string, query = '') => (await h.call('GET', `/community/leaderboard?period=${period}${query}`, as)).body
      const all = await board('all_time')
      expect(all.total).toBe(4)
      expect(all.items.map((e: { totalPoints: number }) => e.totalPoints)).toEqual([50, 5, 5, 3])
      const tied = [people[1]!.customerId, people[2]!.customerId].sort()
      expect(all.items.slice(1, 3).map((e: { userId: string }) => e.userId)).toEqual(tied)
      for (const period of ['year', 'month', 'week', 'day']) {
        const b = await board(period)
        expect(b.total, period).toBe(3)
        expect(b.items.map((e: { totalPoints: number }) => e.totalPoints)).toEqual([5, 5, 3])
      }
      const page2 = await board('all_time', '&page=2&pageSize=2')
      expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 2 })
      expect(page2.items.map((e: { totalPoints: number }) => e.totalPoints)).toEqual([5, 3])
      expect(all.items[0]).toEqual({ userId: people[0]!.customerId, name: null, avatarUrl: '', totalPoints: 50, level: 'Member' })
      expect((await h.call('GET', '/community/leaderboard?period=decade', as)).status).toBe(400)
    } finally {
      h.advanceClock(-400 * 24 * 3600 * 1000)
    }
  })

  test('the ledger and totals agree', async () => {
    const rows = await queryRows<{ customer_id: string; ledger: number; total: number }>(
      h.db,
      sql`select p.customer_id, sum(p.amount)::int as ledger, t.total from community.points p
          join community.point_totals t on t.customer_id = p.customer_id and t.period = 'all_time'
          group by p.customer_id, t.total having sum(p.amount) <> t.total`,
    )
    expect(rows).toEqual([])
    const boards = await queryRows<{ ecosystem_id: string }>(
      h.db,
      sql`select b.ecosystem_id from community.point_boards b
          left join (select ecosystem_id, period, bucket, count(*)::int as n from community.point_totals group by 1, 2, 3) t using (ecosystem_id, period, bucket)
          where b.customers <> coalesce(t.n, 0)`,
    )
    expect(boards).toEqual([])
  })
})

test('team members and other ecosystems', async () => {
  const member = await h.register()
  await addMember(h, org, owner, member, 'member')
  expect((await h.call('PUT', '/community/levels', { ...org.as(member), body: { levels: [{ name: 'A', minPoints: 0 }] } })).status).toBe(403)
  expect((await h.call('POST', '/community/threads', { ...org.as(member), body: { title: 'from a member' } })).status).toBe(201)
})
