import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { STORAGE_BYTES } from '../../src/platform/entitlements'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { sample, scrapeText } from '../support/metrics'
import { startReceiver } from '../support/receiver'
import { realtimeStream } from '../support/sse'
import { sha256 } from '../support/storage'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { until } from '../support/wait'

// The metric families of issue 46: each moves after real requests, with the labels the docs name.

const TOKEN = 'metrics-token-for-the-tests-0123'
const receiver = startReceiver()

let h: Harness
let admin: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ METRICS_TOKEN: TOKEN, WEBHOOK_PRIVATE_ADDRESSES: 'allow', MONITORED_SITES_PRIVATE_ADDRESSES: 'allow' })
  admin = await h.register()
  org = await provision(h, admin)
})
afterAll(async () => {
  await h.close()
  receiver.close()
})

const scrape = () => scrapeText(h, TOKEN)
/** A sample's value now, 0 when it has none yet. */
const value = async (series: string) => sample(await scrape(), series) ?? 0

describe('realtime delivery lag', () => {
  test('a change reaching a live stream is timed from its commit', async () => {
    const lagCount = 'ecobase_realtime_delivery_lag_seconds_count'
    const lagSum = 'ecobase_realtime_delivery_lag_seconds_sum'
    const earlier = await scrape()
    const [before, sumBefore] = [sample(earlier, lagCount) ?? 0, sample(earlier, lagSum) ?? 0]
    const stream = await realtimeStream(h.app, admin.token, 'data/documents', { headers: { 'x-ecosystem-id': org.ecosystem.id } })
    expect((await stream.sse.next()).event).toBe('ready')
    expect((await h.call('POST', '/data/documents', { ...org.as(admin), body: { title: 'Lagged' } })).status).toBe(201)
    expect((await stream.sse.next()).event).toBe('change')
    await stream.sse.close()
    const text = await scrape()
    expect(sample(text, lagCount)).toBe(before + 1)
    // Read through NOTIFY (or the reader's 1 s poll): well under the 30 s bucket, and never negative.
    const lag = sample(text, lagSum)! - sumBefore
    expect(lag).toBeGreaterThanOrEqual(0)
    expect(lag).toBeLessThan(5)
    expect(sample(text, 'ecobase_realtime_delivery_lag_seconds_bucket{le="30"}')).toBe(before + 1)
  })
})

describe('outbound requests by kind and outcome', () => {
  const outbound = (kind: string, outcome: string) => `ecobase_outbound_requests_total{kind="${kind}",outcome="${outcome}"}`

  test('webhook deliveries: one answered, one refused by its receiver, one to an address the gate blocks', async () => {
    const [success, httpError, blocked, timed] = await Promise.all([
      value(outbound('webhook', 'success')),
      value(outbound('webhook', 'http_error')),
      value(outbound('webhook', 'blocked')),
      value('ecobase_outbound_request_duration_seconds_count{kind="webhook"}'),
    ])
    const hook = async (path: string) => {
      const created = await h.call('POST', '/integrations/webhooks', { ...org.as(admin), body: { url: `${receiver.url}${path}`, events: [] } })
      expect(created.status).toBe(201)
      return created.body.id as string
    }
    const ok = await hook('/families-ok')
    receiver.plan.set('/families-fail', ['fail'])
    const failing = await hook('/families-fail')
    // An address that changed after it was saved (DNS moved, say) is checked again at each use:
    // cloud metadata is never connected to, under any policy.
    const moved = await hook('/families-moved')
    await h.db.execute(sql`update integrations.webhooks set url = 'http://169.254.169.254/latest/meta-data' where id = ${moved}`)
    for (const id of [ok, failing, moved]) expect((await h.call('POST', `/integrations/webhooks/${id}/test`, org.as(admin))).status).toBe(200)

    let text = ''
    await until(async () => {
      text = await scrape()
      return (sample(text, 'ecobase_outbound_request_duration_seconds_count{kind="webhook"}') ?? 0) >= timed + 3
    }, 20_000)
    expect(sample(text, outbound('webhook', 'success'))).toBe(success + 1)
    expect(sample(text, outbound('webhook', 'http_error'))).toBe(httpError + 1)
    expect(sample(text, outbound('webhook', 'blocked'))).toBe(blocked + 1)
    expect(receiver.to('/families-moved')).toEqual([])
    // Kinds and outcomes only: no URL, host or id in any label.
    expect(text).not.toContain('169.254.169.254')
    expect(text).not.toContain(moved)
  })

  test('a monitored site’s check counts as monitored_site', async () => {
    const before = await value(outbound('monitored_site', 'http_error'))
    receiver.plan.set('/families-site', ['fail'])
    const site = await h.call('POST', '/monitored_sites/sites', {
      ...org.as(admin),
      body: { name: 'Families', url: `${receiver.url}/families-site`, intervalMinutes: 5 },
    })
    expect(site.status).toBe(201)
    expect((await h.call('POST', `/monitored_sites/sites/${site.body.id}/check`, org.as(admin))).body).toMatchObject({ ok: false, statusCode: 500 })
    expect(await value(outbound('monitored_site', 'http_error'))).toBe(before + 1)
    expect(await value('ecobase_outbound_request_duration_seconds_count{kind="monitored_site"}')).toBeGreaterThanOrEqual(1)
  })
})

describe('billing gate decisions and leases', () => {
  test('an upload within the plan is allowed and takes a lease; one past it is denied and the lease refused', async () => {
    const eco = await provision(h, admin)
    const plan = await h.call('POST', '/billing/plans', {
      ...eco.as(admin),
      body: { key: 'std', name: 'Standard', isDefault: true, entitlements: [{ feature: STORAGE_BYTES, limit: 1000 }] },
    })
    expect(plan.status).toBe(201)
    const customer = await customerOf(h, eco, admin)
    const decision = (d: string) => `ecobase_billing_gate_decisions_total{feature="storage.bytes",decision="${d}"}`
    const lease = (outcome: string) => `ecobase_billing_lease_takes_total{outcome="${outcome}"}`
    const before = await scrape()
    const was = (series: string) => sample(before, series) ?? 0
    const presign = (n: number) => {
      const bytes = String(n).padEnd(600, '.')
      return h.call('POST', '/storage/uploads', {
        token: customer.token,
        body: { filename: `f${n}.txt`, contentType: 'text/plain', sizeBytes: bytes.length, contentHash: sha256(bytes) },
      })
    }
    expect((await presign(1)).status).toBe(201)
    // 600 of 1000 taken and 40 more leased ahead: 600 more do not fit.
    expect((await presign(2)).status).toBe(402)
    const text = await scrape()
    expect(sample(text, decision('allowed'))).toBe(was(decision('allowed')) + 1)
    expect(sample(text, decision('denied'))).toBe(was(decision('denied')) + 1)
    expect(sample(text, lease('taken'))).toBe(was(lease('taken')) + 1)
    expect(sample(text, lease('refused'))).toBe(was(lease('refused')) + 1)
    expect(text).not.toContain(eco.ecosystem.id)
    expect(text).not.toContain(customer.customerId)
  })

  test('an ecosystem’s own feature checked through POST /billing/check is counted as custom', async () => {
    const eco = await provision(h, admin)
    const feature = `seats_${crypto.randomUUID().slice(0, 8)}`
    expect((await h.call('POST', '/billing/features', { ...eco.as(admin), body: { key: feature, name: 'Seats', type: 'limit', unit: 'seats' } })).status).toBe(
      201,
    )
    expect(
      (
        await h.call('POST', '/billing/plans', {
          ...eco.as(admin),
          body: { key: 'std', name: 'Standard', isDefault: true, entitlements: [{ feature, limit: 2 }] },
        })
      ).status,
    ).toBe(201)
    const custom = (d: string) => `ecobase_billing_gate_decisions_total{feature="custom",decision="${d}"}`
    const [allowed, denied] = [await value(custom('allowed')), await value(custom('denied'))]
    expect((await h.call('POST', '/billing/check', { ...eco.as(admin), body: { feature, amount: 2 } })).body.allowed).toBe(true)
    expect((await h.call('POST', '/billing/check', { ...eco.as(admin), body: { feature, amount: 3 } })).body.allowed).toBe(false)
    const text = await scrape()
    expect(sample(text, custom('allowed'))).toBe(allowed + 1)
    expect(sample(text, custom('denied'))).toBe(denied + 1)
    expect(text).not.toContain(feature)
  })
})
