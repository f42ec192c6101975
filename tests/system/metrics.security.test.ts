import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'

const TOKEN = 'the-metrics-token-of-these-tests'

let off: Harness
let on: Harness
beforeAll(async () => {
  off = await createHarness()
  on = await createHarness({ METRICS_TOKEN: TOKEN })
})
afterAll(async () => {
  await off.close()
  await on.close()
})

describe('GET /metrics', () => {
  test('without METRICS_TOKEN it answers as an unknown path does, whatever the credentials', async () => {
    const unknown = await off.call('GET', '/no-such-route')
    for (const options of [{}, { token: TOKEN }]) {
      const res = await off.call('GET', '/metrics', options)
      expect(res.status).toBe(404)
      expect(res.body).toEqual(unknown.body)
    }
  })

  test('with it, only its bearer token gets the metrics: none, a wrong one, one of another length, or another scheme is 401', async () => {
    const refused = [
      {},
      { token: `${TOKEN.slice(0, -1)}x` },
      { token: TOKEN.slice(0, 8) },
      { token: `${TOKEN}${TOKEN}` },
      { headers: { authorization: `Basic ${btoa(`prometheus:${TOKEN}`)}` } },
      // An account's access token is no metrics credential.
      { token: (await on.register()).token },
    ]
    for (const options of refused) {
      const res = await on.call('GET', '/metrics', options)
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('unauthorized')
    }
    const res = await on.call('GET', '/metrics', { token: TOKEN })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8')
    expect(res.body).toContain('# TYPE ecobase_http_requests_total counter')
  })

  test('the probes need no credentials and say nothing of the metrics', async () => {
    for (const path of ['/health/live', '/health/ready']) {
      const res = await on.call('GET', path)
      expect(res.status).toBe(200)
      expect(JSON.stringify(res.body)).not.toContain('ecobase_')
    }
  })
})
