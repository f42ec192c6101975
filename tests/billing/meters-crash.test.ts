import { afterAll, expect, test } from 'bun:test'
import { startFakeStripe } from '../support/fake-stripe'
import { freshDatabase, type TestDatabase } from '../support/database'
import { caller, cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'
import { until } from '../support/wait'

// Usage on its way to a Stripe meter when the server is killed (kill -9) in the middle of sending
// it: Stripe has the events but the server never heard back. After the restart every event is
// sent again with the same identifier, so Stripe counts each once: nothing lost, nothing twice.

const SECRET_KEY = 'sk_test_meter_crash'
let database: TestDatabase | undefined
const stripe = startFakeStripe(SECRET_KEY)
afterAll(async () => {
  await cleanUp()
  await database?.drop()
  stripe.close()
})

test('meter events in flight at kill -9 reach Stripe once each after the restart', async () => {
  database = await freshDatabase()
  const where: Record<string, string> = database.url ? { DATABASE_URL: database.url } : { DATA_DIR: tempDir() }
  const port = freePort()
  const env = { ...where, PORT: String(port), JOBS: 'on', STRIPE_API_URL: stripe.url, QUEUE_POLL_SECONDS: '1' }
  const first = start(env)
  await untilHealthy(port, first, 60_000)
  const call = caller(`http://127.0.0.1:${port}`)

  const owner = (await call('POST', '/auth/register', { body: { email: 'owner@example.test', password: 'crash-password-1', name: 'Owner' } })).body
  const ecosystem = (await call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'meter-shop', name: 'Meter shop' } })).body.ecosystem.id
  const admin = { token: owner.token, ecosystem }
  expect(
    (await call('PUT', '/billing/settings', { ...admin, body: { provider: 'stripe', stripeSecretKey: SECRET_KEY, stripeWebhookSecret: 'whsec_crash' } }))
      .status,
  ).toBe(200)
  expect(
    (await call('POST', '/billing/features', { ...admin, body: { key: 'api.calls', name: 'API calls', type: 'metered', stripeMeter: 'api_calls' } })).status,
  ).toBe(201)
  await call('POST', '/billing/plans', {
    ...admin,
    body: {
      key: 'usage',
      name: 'Usage',
      isDefault: true,
      prices: [{ amount: 0, currency: 'usd', interval: 'month', stripePriceId: 'price_usage' }],
      entitlements: [{ feature: 'api.calls' }],
    },
  })
  const { customerId } = (await call('POST', '/customer/resolve', { ...admin, body: { externalId: 'ada', email: 'ada@example.test', name: 'Ada' } })).body
  const ada = (await call('POST', '/customer/token', { ...admin, body: { customerId } })).body
  const checkout = await call('POST', '/billing/checkout', {
    token: ada.token,
    body: { plan: 'usage', interval: 'month', successUrl: 'https://shop.test/ok', cancelUrl: 'https://shop.test/no' },
  })
  expect(checkout.status).toBe(200)

  // Stripe takes the events and does not answer: the sends are inside the provider call.
  stripe.meter.mode = 'hang'
  const events = [5, 7, 11].map((value, i) => ({ customerId, feature: 'api.calls', value, idempotencyKey: `crash-${i}` }))
  expect((await call('POST', '/billing/usage', { ...admin, body: { events } })).body).toEqual({ accepted: 3, duplicates: 0 })
  await until(() => stripe.meter.hung === 3, 30_000)
  first.kill('SIGKILL')
  await first.exited
  stripe.meter.mode = 'accept'

  const second = start(env)
  await untilHealthy(port, second, 60_000)
  const reported = async () =>
    (await call('GET', `/billing/customers/${customerId}`, admin)).body.entitlements.find((e: { feature: string }) => e.feature === 'api.calls').reported
  await until(async () => (await reported())?.sent === 23, 90_000)
  expect(await reported()).toEqual({ meter: 'api_calls', sent: 23, pending: 0, failed: 0 })
  // Stripe heard each identifier twice (before and after the crash) and counts it once.
  expect([...stripe.meterEvents.values()].map((e) => [e.identifier, e.value, e.received]).sort()).toEqual([
    ['crash-0', 5, 2],
    ['crash-1', 7, 2],
    ['crash-2', 11, 2],
  ])
}, 240_000)
