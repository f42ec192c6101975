import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq, gte } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { pruneAudit } from '../../src/modules/audit/jobs'
import { auditEvents } from '../../src/modules/audit/schema'
import { AuditService } from '../../src/modules/audit/service'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'
import type { AuditAction } from '../../src/modules'

const DAY = 24 * 3600 * 1000
let h: Harness
let owner: RegisteredUser
let org: Provisioned
let audit: AuditService
const t0 = Date.parse('2030-01-01T00:00:00.000Z')
const actorX = crypto.randomUUID()
const actorY = crypto.randomUUID()
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
  audit = new AuditService(h.deps)
  // 25 events of the ecosystem, a minute apart (the newest last): 15 by X, 10 by Y; odd ones on one target.
  const rows = Array.from({ length: 25 }, (_, i) => ({
    at: new Date(t0 + i * 60_000),
    actorType: 'user' as const,
    actorId: i < 15 ? actorX : actorY,
    ecosystemId: org.ecosystem.id,
    organizationId: org.organization.id,
    action: i % 5 === 0 ? 'test.a_b.done' : i % 5 === 1 ? 'test.axb.done' : i % 5 === 2 ? 'test.100%.done' : 'other.thing.done',
    targetType: i % 2 ? 'widget' : 'gadget',
    targetId: i % 2 ? 'w-1' : `g-${i}`,
    metadata: { i },
  }))
  await h.db.insert(auditEvents).values(rows)
})
afterAll(() => h.close())

const list = (query: string) => h.call('GET', `/audit/events?${query}`, org.as(owner))
const indexes = (res: { body: { items: { metadata: { i?: number } }[] } }) => res.body.items.map((e) => e.metadata.i).filter((i) => i !== undefined)
const seeded = 'from=2030-01-01T00:00:00Z'

describe('GET /audit/events: filters and paging', () => {
  test('newest first, 20 a page by default, with the paging envelope', async () => {
    const first = await list(seeded)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ total: 25, page: 1, pageSize: 20 })
    expect(indexes(first)).toEqual(Array.from({ length: 20 }, (_, k) => 24 - k))
    const second = await list(`${seeded}&page=2`)
    expect(indexes(second)).toEqual([4, 3, 2, 1, 0])
    expect((await list(`${seeded}&page=3&pageSize=10`)).body).toMatchObject({
      items: [{ metadata: { i: 4 } }, {}, {}, {}, { metadata: { i: 0 } }],
      total: 25,
      page: 3,
      pageSize: 10,
    })
    expect(first.body.items[0]).toEqual({
      id: expect.any(String),
      at: '2030-01-01T00:24:00.000Z',
      actor: { type: 'user', id: actorY },
      ecosystemId: org.ecosystem.id,
      organizationId: org.organization.id,
      action: 'other.thing.done',
      target: { type: 'gadget', id: 'g-24' },
      ip: null,
      userAgent: null,
      requestId: null,
      metadata: { i: 24 },
    })
  })

  test('actor, target, and time range', async () => {
    expect((await list(`actor=${actorY}&pageSize=100`)).body.total).toBe(10)
    expect((await list(`actor=${actorX}&targetType=widget&pageSize=100`)).body.total).toBe(7)
    expect(indexes(await list('targetType=gadget&targetId=g-4'))).toEqual([4])
    expect(indexes(await list('from=2030-01-01T00:03:00Z&to=2030-01-01T00:05:00.000Z'))).toEqual([5, 4, 3])
    expect(indexes(await list('to=2030-01-01T01:00:00%2B01:00'))).toEqual([0])
    expect((await list(`actor=${crypto.randomUUID()}`)).body).toEqual({ items: [], total: 0, page: 1, pageSize: 20 })
  })

  test('action is a prefix match, with % and _ taken literally', async () => {
    expect((await list('action=test.&pageSize=100')).body.total).toBe(15)
    expect(indexes(await list('action=test.a_&pageSize=100'))).toEqual([20, 15, 10, 5, 0])
    expect(indexes(await list('action=test.100%25&pageSize=100'))).toEqual([22, 17, 12, 7, 2])
    expect((await list('action=%25')).body.total).toBe(0)
    expect((await list('action=_')).body.total).toBe(0)
    expect((await list('action=other.thing.done&pageSize=100')).body.total).toBe(10)
  })

  test('a bad filter is 400 validation_failed', async () => {
    for (const query of [
      'from=yesterday',
      'to=2030-13-01T00:00:00Z',
      'from=2030-01-02T00:00:00Z&to=2030-01-01T00:00:00Z',
      'actor=two%20words',
      `actor=${'x'.repeat(200)}`,
      'action=',
      'pageSize=101',
      'page=0',
      'pageSize=abc',
      'targetId=',
    ]) {
      const res = await list(query)
      expect(res.status, query).toBe(400)
      expect(res.body.error.code, query).toBe('validation_failed')
    }
  })
})

describe('retention', () => {
  test('the daily job deletes events older than AUDIT_RETENTION_DAYS (365)', async () => {
    const write = (id: string) =>
      h.db.transaction((tx) =>
        audit.record(
          tx,
          { actor: { type: 'system', id: 'test' } },
          { action: 'test.retention' as AuditAction, target: { type: 'x', id }, ecosystemId: org.ecosystem.id },
        ),
      )
    const left = async () => (await h.db.select().from(auditEvents).where(eq(auditEvents.action, 'test.retention'))).map((e) => e.targetId)
    await write('old')
    h.advanceClock(200 * DAY)
    try {
      await write('new')
      h.advanceClock(164 * DAY)
      expect(await runJob(h.deps, pruneAudit)).toEqual({ auditEvents: 0 })
      expect((await left()).sort()).toEqual(['new', 'old'])
      h.advanceClock(2 * DAY)
      expect((await runJob(h.deps, pruneAudit))!.auditEvents).toBeGreaterThanOrEqual(1)
      expect(await left()).toEqual(['new'])
      // Seeded in 2030: younger than a year still.
      expect(
        await h.db
          .select()
          .from(auditEvents)
          .where(gte(auditEvents.at, new Date(t0))),
      ).toHaveLength(25)
    } finally {
      h.advanceClock(-366 * DAY)
    }
  })
})
