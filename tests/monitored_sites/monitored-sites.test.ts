import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { checkSites, pruneSiteChecks } from '../../src/modules/monitored_sites/jobs'
import { ProbeStopped } from '../../src/modules/monitored_sites/probe'
import { dispatchDueChecks, MonitoredSitesService } from '../../src/modules/monitored_sites/service'
import { Shutdown } from '../../src/platform/shutdown'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { type Answer, startReceiver } from '../support/receiver'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'
import { selfSignedCertificate } from '../support/tls'
import { until } from '../support/wait'
import type { ReplicaCache } from '../../src/platform/replica-cache'

const receiver = startReceiver({ slowMs: 1500, keyword: 'all systems go' })
const certificate = selfSignedCertificate(30)
const secure = Bun.serve({ port: 0, tls: certificate, fetch: () => new Response('secure') })
let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ MONITORED_SITES_PRIVATE_ADDRESSES: 'allow', WEBHOOK_PRIVATE_ADDRESSES: 'allow' })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(async () => {
  await h.close()
  receiver.close()
  secure.stop(true)
})

let paths = 0
/** A monitored site at a fresh path of the receiver, answering `answers` then ok. */
async function site(body: Record<string, unknown> = {}, answers: Answer[] = []) {
  const path = `/site${++paths}`
  receiver.plan.set(path, answers)
  const res = await h.call('POST', '/monitored_sites/sites', {
    ...org.as(owner),
    body: { name: `Site ${paths}`, url: `${receiver.url}${path}`, intervalMinutes: 5, ...body },
  })
  expect(res.status).toBe(201)
  return { ...(res.body as { id: string }), path }
}
const checkNow = async (id: string) => (await h.call('POST', `/monitored_sites/sites/${id}/check`, org.as(owner))).body
const detail = async (id: string) => (await h.call('GET', `/monitored_sites/sites/${id}`, org.as(owner))).body

describe('monitored sites', () => {
  test('admins add, list, change and delete sites; bad settings are 400; others are refused', async () => {
    const created = await h.call('POST', '/monitored_sites/sites', {
      ...org.as(owner),
      body: { name: 'Shop', url: 'https://shop.example.test/health', intervalMinutes: 1, keyword: 'ok', timeoutMs: 2000 },
    })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'Shop',
      url: 'https://shop.example.test/health',
      intervalMinutes: 1,
      expectedStatus: 200,
      keyword: 'ok',
      timeoutMs: 2000,
      enabled: true,
      failureThreshold: 2,
      alertEmails: [],
      state: 'unknown',
      stateChangedAt: null,
      lastCheckedAt: null,
      lastStatusCode: null,
      lastLatencyMs: null,
      lastError: null,
      tlsDaysLeft: null,
      nextCheckAt: expect.any(String),
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const one = await detail(created.body.id)
    expect(one.stats).toEqual({
      '24h': { checks: 0, uptimePercent: null, p95LatencyMs: null },
      '7d': { checks: 0, uptimePercent: null, p95LatencyMs: null },
      '30d': { checks: 0, uptimePercent: null, p95LatencyMs: null },
    })
    const changed = await h.call('PATCH', `/monitored_sites/sites/${created.body.id}`, {
      ...org.as(owner),
      body: { intervalMinutes: 60, keyword: null, enabled: false },
    })
    expect(changed.body).toMatchObject({ intervalMinutes: 60, keyword: null, enabled: false })
    expect((await h.call('GET', '/monitored_sites/sites', org.as(owner))).body.items.map((s: { id: string }) => s.id)).toContain(created.body.id)

    const bad = async (body: Record<string, unknown>) =>
      (await h.call('POST', '/monitored_sites/sites', { ...org.as(owner), body: { name: 'x', url: 'https://x.example', intervalMinutes: 5, ...body } })).status
    expect(await bad({ intervalMinutes: 0 })).toBe(400)
    expect(await bad({ intervalMinutes: 61 })).toBe(400)
    expect(await bad({ url: 'ftp://x.example/file' })).toBe(400)
    expect(await bad({ url: 'https://user:pass@x.example/' })).toBe(400)
    expect(await bad({ url: 'not a url' })).toBe(400)
    expect(await bad({ timeoutMs: 60_000 })).toBe(400)

    const member = await h.register()
    await addMember(h, org, owner, member, 'member')
    expect((await h.call('GET', '/monitored_sites/sites', org.as(member))).status).toBe(403)
    const customer = await customerOf(h, org, owner)
    expect((await h.call('GET', `/monitored_sites/sites/${created.body.id}`, { token: customer.token })).status).toBe(403)
    expect((await h.call('DELETE', `/monitored_sites/sites/${created.body.id}`, org.as(owner))).status).toBe(204)
    expect((await h.call('GET', `/monitored_sites/sites/${created.body.id}`, org.as(owner))).status).toBe(404)
  })

  test('down after two failed checks in a row, up after a good one: each change tells the admins (feed, notification) and webhooks; stats follow', async () => {
    const hook = await h.call('POST', '/integrations/webhooks', {
      ...org.as(owner),
      body: { url: `${receiver.url}/monitor-hook`, events: ['monitored_site.down', 'monitored_site.up'] },
    })
    const s = await site({}, ['ok', 'down', 'down', 'down', 'ok'] as Answer[])
    expect(await checkNow(s.id)).toMatchObject({ siteId: s.id, ok: true, statusCode: 200, error: null, latencyMs: expect.any(Number), tlsDaysLeft: null })
    expect((await detail(s.id)).state).toBe('up')
    const first = await checkNow(s.id)
    expect(first).toMatchObject({ ok: false, statusCode: 503, error: 'answered 503, expected 200' })
    expect((await detail(s.id)).state).toBe('up')
    await checkNow(s.id)
    const down = await detail(s.id)
    expect(down).toMatchObject({ state: 'down', lastStatusCode: 503, lastError: 'answered 503, expected 200', stateChangedAt: expect.any(String) })
    await checkNow(s.id)
    await checkNow(s.id)
    expect((await detail(s.id)).state).toBe('up')

    const feed = (await h.call('GET', '/site/feed?source=monitored_sites', org.as(owner))).body.items.filter((i: { entityId: string }) => i.entityId === s.id)
    expect(feed.map((i: { action: string }) => i.action)).toEqual(['up', 'down'])
    expect(feed[1].summary).toBe(`Site ${paths} is down: answered 503, expected 200`)
    const notes = (await h.call('GET', '/notifications', org.as(owner))).body.items.map((n: { subject: string }) => n.subject)
    expect(notes).toContain(`Site ${paths} is up again`)
    await until(() => receiver.to('/monitor-hook').length >= 2)
    const events = receiver.to('/monitor-hook').map((r) => JSON.parse(r.body))
    expect(events.map((e) => e.type)).toEqual(['monitored_site.down', 'monitored_site.up'])
    expect(events[0].data).toEqual({
      siteId: s.id,
      name: `Site ${paths}`,
      url: `${receiver.url}${s.path}`,
      statusCode: 503,
      error: 'answered 503, expected 200',
      failures: 2,
    })

    const history = (await h.call('GET', `/monitored_sites/sites/${s.id}/checks?pageSize=5`, org.as(owner))).body
    expect(history.total).toBe(5)
    expect(history.items.map((c: { ok: boolean }) => c.ok)).toEqual([true, false, false, false, true])
    // Ten minutes apart, newest ten minutes ago: up for the first and the last ten minutes of fifty.
    for (const [i, check] of history.items.entries()) {
      await h.db.execute(sql`update monitored_sites.checks set checked_at = now() - make_interval(mins => ${10 * (i + 1)}) where id = ${check.id}`)
    }
    const { stats } = await detail(s.id)
    expect(stats['24h']).toEqual({ checks: 5, uptimePercent: 40, p95LatencyMs: expect.any(Number) })
    expect(stats['30d'].checks).toBe(5)
    // A check older than a day counts for 7 and 30 days only, and its failure holds until the next check: three days down.
    await h.db.execute(sql`update monitored_sites.checks set checked_at = now() - interval '3 days' where id = ${history.items[4].id}`)
    await h.db.execute(sql`update monitored_sites.checks set ok = false where id = ${history.items[4].id}`)
    const later = (await detail(s.id)).stats
    expect(later['24h'].checks).toBe(4)
    expect(later['7d'].checks).toBe(5)
    // Up 10 minutes (the last check) of the three days since the oldest.
    expect(later['7d'].uptimePercent).toBeCloseTo((10 / (3 * 1440)) * 100, 1)
    await h.call('DELETE', `/integrations/webhooks/${hook.body.id}`, org.as(owner))
  })

  test('a site that goes down when no request has named its ecosystem for a while still alerts the admins (the embedded stall of issue 39)', async () => {
    const s = await site({}, ['down', 'down'] as Answer[])
    // The scheduled check runs in the queue, not in a request: the registry's one-minute cache of
    // the ecosystem may be cold. The alert used to read it through the pool inside the check's
    // transaction, which on PGlite waited for that transaction forever (every database route with it).
    const cold = () => (h.app.services.registry as unknown as { ecosystemCache: ReplicaCache<unknown> }).ecosystemCache.forget(org.organization.id)
    cold()
    await h.app.services.monitored_sites.check(s.id)
    cold()
    await h.app.services.monitored_sites.check(s.id)
    expect((await detail(s.id)).state).toBe('down')
    const notes = (await h.call('GET', '/notifications', org.as(owner))).body.items.map((n: { subject: string }) => n.subject)
    expect(notes).toContain(`Site ${paths} is down: answered 503, expected 200`)
  })

  test('failureThreshold sets how many failures make a site down; alerts reach the admins at their account address and the alertEmails, in the messaging log', async () => {
    const s = await site({ failureThreshold: 3, alertEmails: ['ops@example.test', 'OPS@example.test', 'pager@example.test'] }, [
      'ok',
      'down',
      'down',
      'down',
      'ok',
    ] as Answer[])
    expect(s).toMatchObject({ failureThreshold: 3, alertEmails: ['OPS@example.test', 'pager@example.test'] })
    await checkNow(s.id)
    await checkNow(s.id)
    await checkNow(s.id)
    expect((await detail(s.id)).state).toBe('up')
    await checkNow(s.id)
    expect((await detail(s.id)).state).toBe('down')
    const subject = `Site ${paths} is down: answered 503, expected 200`
    const sentTo = async () =>
      (await h.call('GET', '/messaging/log?pageSize=100', org.as(owner))).body.items
        .filter((e: { subject: string | null }) => e.subject === subject)
        .map((e: { recipient: string; status: string }) => `${e.recipient} ${e.status}`)
    await until(async () => (await sentTo()).length >= 3)
    expect((await sentTo()).sort()).toEqual([`${owner.email} sent`, 'OPS@example.test sent', 'pager@example.test sent'].sort())
    const mail = (await h.call('GET', '/messaging/outbox?pageSize=100', org.as(owner))).body.items.find(
      (m: { recipient: string; subject: string }) => m.recipient === 'pager@example.test' && m.subject === subject,
    )
    expect(mail.text).toContain('failed 3 checks in a row')
    // The contacts' records are the service's own: not a customer anyone can claim.
    expect((await h.call('POST', '/customer/register', { ...org.as(owner), body: { externalId: 'alert:pager@example.test' } })).body.error.code).toBe(
      'reserved_external_id',
    )
    expect((await h.call('PATCH', `/monitored_sites/sites/${s.id}`, { ...org.as(owner), body: { failureThreshold: 11 } })).status).toBe(400)
    expect((await h.call('PATCH', `/monitored_sites/sites/${s.id}`, { ...org.as(owner), body: { alertEmails: ['not an address'] } })).status).toBe(400)
  })

  test('uptime weighs time, not checks: an extra manual check counts for the minutes it covers', async () => {
    const s = await site()
    await checkNow(s.id)
    await checkNow(s.id)
    await checkNow(s.id)
    await checkNow(s.id)
    const checks = (await h.call('GET', `/monitored_sites/sites/${s.id}/checks`, org.as(owner))).body.items as { id: string }[]
    // Oldest first: ok 60 minutes ago, failed 40 minutes ago, ok 30 minutes ago, and a manual ok a minute later.
    const plan: [number, boolean][] = [
      [29, true],
      [30, true],
      [40, false],
      [60, true],
    ]
    for (const [i, [minutes, ok]] of plan.entries()) {
      await h.db.execute(sql`update monitored_sites.checks set checked_at = now() - make_interval(mins => ${minutes}), ok = ${ok} where id = ${checks[i]!.id}`)
    }
    // Down 10 of 60 minutes: 83.33 %, where counting checks would say 75 %.
    expect((await detail(s.id)).stats['24h']).toMatchObject({ checks: 4, uptimePercent: expect.closeTo(83.33, 1) })
  })

  test('a new url starts the site afresh; checks older than 31 days are pruned', async () => {
    const s = await site({}, ['down', 'down'])
    await checkNow(s.id)
    await checkNow(s.id)
    const down = await detail(s.id)
    expect(down.state).toBe('down')
    // The same url sent again (as an edit form does) changes nothing.
    const same = await h.call('PATCH', `/monitored_sites/sites/${s.id}`, { ...org.as(owner), body: { url: down.url, name: 'renamed' } })
    expect(same.body).toMatchObject({ name: 'renamed', state: 'down', stateChangedAt: down.stateChangedAt })
    const moved = await h.call('PATCH', `/monitored_sites/sites/${s.id}`, { ...org.as(owner), body: { url: `${receiver.url}${s.path}-moved` } })
    expect(moved.body).toMatchObject({ state: 'unknown', stateChangedAt: null })
    await h.db.execute(sql`update monitored_sites.checks set checked_at = now() - interval '32 days' where site_id = ${s.id} and ok = false`)
    await checkNow(s.id)
    expect((await runJob(h.deps, pruneSiteChecks))!.checks).toBe(2)
    const left = (await h.call('GET', `/monitored_sites/sites/${s.id}/checks`, org.as(owner))).body
    expect(left.items.map((c: { ok: boolean }) => c.ok)).toEqual([true])
  })

  test('keyword (in the first MiB), expected status and timeout decide a check', async () => {
    const found = await site({ keyword: 'all systems go' })
    expect((await checkNow(found.id)).ok).toBe(true)
    const buried = await site({ keyword: 'all systems go' }, ['big'])
    expect(await checkNow(buried.id)).toMatchObject({ ok: false, error: 'the keyword is not in the first 1024 KiB of the page' })
    const missing = await site({ keyword: 'maintenance' })
    expect(await checkNow(missing.id)).toMatchObject({ ok: false, statusCode: 200, error: 'the keyword is not in the first 1024 KiB of the page' })
    const expectsDown = await site({ expectedStatus: 503 }, ['down'])
    expect(await checkNow(expectsDown.id)).toMatchObject({ ok: true, statusCode: 503 })
    const redirects = await site({ expectedStatus: 302 }, ['redirect'])
    expect(await checkNow(redirects.id)).toMatchObject({ ok: true, statusCode: 302 })
    expect(receiver.to('/elsewhere')).toEqual([])
    const slow = await site({ timeoutMs: 300 }, ['slow'])
    expect(await checkNow(slow.id)).toMatchObject({ ok: false, statusCode: null, error: 'no answer within 300 ms' })
  })

  test('a queued check stops when the server does (SIGTERM): it records nothing and fails its job, instead of holding the shutdown until its timeout', async () => {
    const shutdown = new Shutdown()
    const monitor = new MonitoredSitesService({ ...h.deps, shutdown }, h.app.bus)
    const [handler] = monitor.queueHandlers()
    const slow = await site({ timeoutMs: 5000 }, ['slow'])
    const run = handler!.handle({ siteId: slow.id })
    await until(() => receiver.to(slow.path).length > 0)
    shutdown.begin()
    expect(
      await run.then(
        () => 'finished',
        (err: Error) => err,
      ),
    ).toBeInstanceOf(ProbeStopped)
    expect(await detail(slow.id)).toMatchObject({ lastCheckedAt: null, state: 'unknown' })
    // The same check on a server that is not stopping waits for the site and records it.
    receiver.plan.set(slow.path, ['slow'])
    await h.app.services.monitored_sites.queueHandlers()[0]!.handle({ siteId: slow.id })
    expect(await detail(slow.id)).toMatchObject({ state: 'up', lastStatusCode: 200 })
  })

  test('https: days until the certificate expires, also for a self-signed one (whose check fails as untrusted)', async () => {
    const res = await h.call('POST', '/monitored_sites/sites', {
      ...org.as(owner),
      body: { name: 'TLS', url: `https://localhost:${secure.port}/`, intervalMinutes: 5 },
    })
    const check = await checkNow(res.body.id)
    expect([29, 30]).toContain(check.tlsDaysLeft)
    expect(check.ok).toBe(false)
    expect(check.error).toStartWith('could not connect')
    expect((await detail(res.body.id)).tlsDaysLeft).toBe(check.tlsDaysLeft)
  })

  test('the scheduler queues each due site once, however many replicas and runs; disabled sites wait', async () => {
    const stranger = await h.register()
    const other = await provision(h, stranger)
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const res = await h.call('POST', '/monitored_sites/sites', {
        ...other.as(stranger),
        body: { name: `Due ${i}`, url: `${receiver.url}/due${i}`, intervalMinutes: 1, enabled: i < 2 },
      })
      ids.push(res.body.id)
    }
    const inOther = sql`select id from monitored_sites.sites where ecosystem_id = ${other.ecosystem.id}`
    const replica = await h.replica()
    try {
      // Everything else due is out of the way: only these three sites are looked at.
      await h.db.execute(sql`update monitored_sites.sites set next_check_at = now() + interval '1 hour' where id not in (${inOther})`)
      const runs = await Promise.all([runJob(h.deps, checkSites), h.db.transaction((tx) => dispatchDueChecks(h.deps, tx))])
      expect(runs[0]!.queued + runs[1]).toBe(2)
      await until(async () => (await queryRows(h.db, sql`select 1 from monitored_sites.checks where site_id in (${inOther})`)).length >= 2)
      await Bun.sleep(1000)
      expect(receiver.to('/due0')).toHaveLength(1)
      expect(receiver.to('/due1')).toHaveLength(1)
      expect(receiver.to('/due2')).toHaveLength(0)
      expect((await runJob(h.deps, checkSites))!.queued).toBe(0)
      h.advanceClock(61_000)
      expect((await runJob(h.deps, checkSites))!.queued).toBe(2)
      await until(() => receiver.to('/due0').length === 2 && receiver.to('/due1').length === 2)
    } finally {
      h.advanceClock(-61_000)
      await replica.close()
    }
  })

  test('a 1-minute site is checked in every minute, however early the tick; after a pause, once, then on its beat', async () => {
    const stranger = await h.register()
    const other = await provision(h, stranger)
    const site = await h.call('POST', '/monitored_sites/sites', {
      ...other.as(stranger),
      body: { name: 'Beat', url: `${receiver.url}/beat`, intervalMinutes: 1 },
    })
    expect(site.status).toBe(201)
    await h.db.execute(sql`update monitored_sites.sites set next_check_at = now() + interval '1 hour' where id <> ${site.body.id}`)
    const dueAt = async () =>
      new Date((await queryRows<{ at: string }>(h.db, sql`select next_check_at as at from monitored_sites.sites where id = ${site.body.id}`))[0]!.at).getTime()
    const tick = () => h.db.transaction((tx) => dispatchDueChecks(h.deps, tx))
    let shifted = 0
    const clockTo = (at: number) => {
      const step = at - h.deps.now().getTime()
      h.advanceClock(step)
      shifted += step
    }
    try {
      const first = await dueAt()
      // Minute ticks that each come 3 ms before the site's due time: every one of them checks it.
      const dispatched: number[] = []
      for (let minute = 0; minute < 10; minute++) {
        clockTo(first + minute * 60_000 - 3)
        dispatched.push(await tick())
      }
      expect(dispatched).toEqual(Array(10).fill(1))
      expect(await dueAt()).toBe(first + 10 * 60_000)
      // A tick in between finds nothing due.
      clockTo(first + 10 * 60_000 - 30_000)
      expect(await tick()).toBe(0)
      // Ten and a half minutes with no tick at all: one check, then the next minute of its beat.
      clockTo(first + 20 * 60_000 + 30_000)
      expect(await tick()).toBe(1)
      expect(await tick()).toBe(0)
      expect(await dueAt()).toBe(first + 21 * 60_000)
    } finally {
      h.advanceClock(-shifted)
    }
  })

  test('with private addresses denied, a loopback site is refused at creation and, stored before, at its check', async () => {
    const strict = await createHarness()
    try {
      const admin = await strict.register()
      const tenant = await provision(strict, admin)
      const refused = await strict.call('POST', '/monitored_sites/sites', {
        ...tenant.as(admin),
        body: { name: 'Local', url: `${receiver.url}/private`, intervalMinutes: 5 },
      })
      expect(refused.status).toBe(400)
      expect(refused.body.error.code).toBe('validation_failed')
      // A row saved before the check existed (or a name that moved since) is refused at its check.
      const res = await strict.call('POST', '/monitored_sites/sites', {
        ...tenant.as(admin),
        body: { name: 'Local', url: 'https://local.example.test/', intervalMinutes: 5 },
      })
      expect(res.status).toBe(201)
      await strict.db.execute(sql`update monitored_sites.sites set url = ${`${receiver.url}/private`} where id = ${res.body.id}`)
      const check = (await strict.call('POST', `/monitored_sites/sites/${res.body.id}/check`, tenant.as(admin))).body
      expect(check).toMatchObject({
        ok: false,
        statusCode: null,
        error: 'Refused to connect to 127.0.0.1: it has a private address (loopback, private network, carrier-grade NAT or unique-local)',
      })
      expect(receiver.to('/private')).toEqual([])
    } finally {
      await strict.close()
    }
  })
})
