import { afterAll, beforeAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { JobQueue } from '../../src/platform/queue'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startSmtp } from '../support/smtp'
import { addMember, provision, type Provisioned } from '../support/tenancy'
import { until } from '../support/wait'

const smtp = await startSmtp()
let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ SMTP_URL: smtp.url, NOTIFICATION_BATCH_SIZE: '300' })
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})

/** `n` customers with e-mail addresses, in one statement; the first `optedIn` want announcement e-mails. */
async function bulkCustomers(eco: Provisioned, n: number, optedIn = 0) {
  await h.db.execute(sql`insert into customer.customers (ecosystem_id, external_id, email)
    select ${eco.ecosystem.id}::uuid, 'bulk-' || g, 'bulk' || g || '-' || ${eco.slug} || '@example.test' from generate_series(1, ${n}) g`)
  await h.db.execute(sql`insert into notifications.preferences (customer_id, category, email, sms)
    select id, 'admin_announcement', true, false from customer.customers where ecosystem_id = ${eco.ecosystem.id}::uuid and external_id in (select 'bulk-' || g from generate_series(1, ${optedIn}) g)`)
}

const perCustomer = (announcementId: string) =>
  queryRows<{ customer_id: string; n: number }>(
    h.db,
    sql`select customer_id, count(*)::int as n from notifications.notifications where thread_id = ${announcementId} group by customer_id`,
  )
const announcement = async (ecosystemId: string) =>
  (
    await queryRows<{ id: string; finished_at: string | null }>(
      h.db,
      sql`select id, finished_at from notifications.announcements where ecosystem_id = ${ecosystemId}::uuid order by created_at desc limit 1`,
    )
  )[0]!

test('every customer gets the announcement exactly once; e-mail only where the preference asks for it', async () => {
  await bulkCustomers(org, 1000, 3)
  const member = await h.register()
  await addMember(h, org, owner, member, 'admin')
  await h.call('GET', '/notifications', org.as(member))
  const res = await h.call('POST', '/notifications/announcements', {
    ...org.as(owner),
    body: { subject: 'Maintenance tonight', body: 'We will be down 02:00-03:00' },
  })
  expect(res.status).toBe(202)
  expect(res.body).toEqual({ recipients: 1000 })
  const a = await announcement(org.ecosystem.id)
  await until(async () => (await announcement(org.ecosystem.id)).finished_at !== null, 30_000)
  const counts = await perCustomer(a.id)
  expect(counts.length).toBe(1000)
  expect(counts.every((c) => c.n === 1)).toBe(true)
  expect((await h.call('GET', '/notifications', org.as(member))).body.total).toBe(0)
  await until(() => smtp.received.filter((m) => m.parsed.subject === 'Maintenance tonight').length === 3)
  await Bun.sleep(1000)
  expect(
    smtp.received
      .filter((m) => m.parsed.subject === 'Maintenance tonight')
      .map((m) => m.envelope.to[0])
      .sort(),
  ).toEqual([1, 2, 3].map((g) => `bulk${g}-${org.slug}@example.test`).sort())
}, 60_000)

test('a fan-out interrupted by a restart finishes on the next worker with every customer reached exactly once', async () => {
  const owner2 = await h.register()
  const eco = await provision(h, owner2)
  await bulkCustomers(eco, 3000)
  await h.deps.queue.stop(1000)
  const first = new JobQueue(h.deps.database, { workers: true, logger: h.deps.logger, pollingIntervalSeconds: 0.5 })
  const second = new JobQueue(h.deps.database, { workers: true, logger: h.deps.logger, pollingIntervalSeconds: 0.5 })
  // The first replica does one batch, then fails the next job as a replica going down would; the second takes over.
  let batches = 0
  first.define<{ announcementId: string }>({
    name: 'announcement-fan-out',
    handle: async (job) => {
      if (++batches > 1) throw new Error('replica going down')
      await h.app.services.notifications.fanOutBatch(job.announcementId)
    },
  })
  second.define<{ announcementId: string }>({ name: 'announcement-fan-out', handle: (job) => h.app.services.notifications.fanOutBatch(job.announcementId) })
  try {
    await first.start()
    const res = await h.call('POST', '/notifications/announcements', { ...eco.as(owner2), body: { subject: 'Hello', body: 'all', channels: ['email', 'sms'] } })
    expect(res.body).toEqual({ recipients: 3000 })
    const a = await announcement(eco.ecosystem.id)
    await until(() => batches > 1)
    await first.stop(5000)
    expect((await perCustomer(a.id)).length).toBe(300)
    await second.start()
    await until(async () => (await announcement(eco.ecosystem.id)).finished_at !== null, 30_000)
    const counts = await perCustomer(a.id)
    expect(counts.length).toBe(3000)
    expect(counts.every((c) => c.n === 1)).toBe(true)
    // A batch run again (as after a crash between commit and acknowledgement) adds nobody twice.
    await h.app.services.notifications.fanOutBatch(a.id)
    expect((await perCustomer(a.id)).length).toBe(3000)
  } finally {
    await second.stop(1000)
    await h.deps.queue.start()
  }
}, 60_000)

test('announcements are for ecosystem admins; bad channels are 400', async () => {
  const member = await h.register()
  await addMember(h, org, owner, member, 'member')
  expect((await h.call('POST', '/notifications/announcements', { ...org.as(member), body: { subject: 's', body: 'b' } })).status).toBe(403)
  expect((await h.call('POST', '/notifications/announcements', { ...org.as(owner), body: { subject: 's', body: 'b', channels: ['pigeon'] } })).status).toBe(400)
  expect((await h.call('POST', '/notifications/announcements', { ...org.as(owner), body: { subject: 's\r\nBcc: x', body: 'b' } })).status).toBe(400)
})
