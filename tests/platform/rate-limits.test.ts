import { afterEach, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config'
import { ApiLimits } from '../../src/platform/api-limits'
import { memoryRateLimitStore } from '../../src/platform/rate-limit'
import { createHarness, type Harness, type Reply } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'
import { authorizedTokens, createClient } from '../oauth/support'

// One harness at a time: each holds a pool of PostgreSQL connections.
const opened: Harness[] = []
afterEach(() => Promise.all(opened.splice(0).map((h) => h.close())))

async function harness(env: Record<string, string>) {
  const h = await createHarness({ TRUST_PROXY: 'on', ...env })
  opened.push(h)
  return h
}

/** Spends `n` requests, each of which must pass. */
async function spend(n: number, request: () => Promise<Reply>) {
  for (let i = 0; i < n; i++) expect((await request()).status).toBeLessThan(400)
}

function expectLimited(res: Reply, policy: string) {
  expect(res.status).toBe(429)
  expect(res.body.error.code).toBe('rate_limited')
  const retryAfter = Number(res.headers.get('retry-after'))
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(res.headers.get('ratelimit-policy')).toMatch(new RegExp(`^"${policy}";q=\\d+;w=60$`))
  expect(res.headers.get('ratelimit')).toBe(`"${policy}";r=0;t=${retryAfter}`)
}

const address = (ip: string) => ({ headers: { 'x-forwarded-for': ip } })

describe('API rate limits per principal', () => {
  test('an ordinary answer says its policy and what is left of it', async () => {
    const h = await harness({ RATE_LIMIT_READ: '5', RATE_LIMIT_WRITE: '3' })
    const user = await h.register()
    const read = await h.call('GET', '/auth/me', { token: user.token })
    expect(read.status).toBe(200)
    expect(read.headers.get('ratelimit-policy')).toBe('"read";q=5;w=60')
    expect(read.headers.get('ratelimit')).toMatch(/^"read";r=4;t=([1-9]|[1-5]\d|60)$/)
    // A HEAD is a read, counted once (by the guard of its GET route, not also per address).
    const head = await h.call('HEAD', '/auth/me', { token: user.token, ...address('198.51.100.10') })
    expect(head.headers.get('ratelimit')).toMatch(/^"read";r=3;t=\d+$/)
    const write = await h.call('PATCH', '/auth/me', { token: user.token, body: { name: 'Renamed' } })
    expect(write.status).toBe(200)
    expect(write.headers.get('ratelimit-policy')).toBe('"write";q=3;w=60')
    expect(write.headers.get('ratelimit')).toMatch(/^"write";r=2;t=\d+$/)
    const anonymous = await h.call('GET', '/site/version', address('198.51.100.10'))
    expect(anonymous.headers.get('ratelimit-policy')).toBe('"anonymous";q=1000000;w=60')
    expect(anonymous.headers.get('ratelimit')).toMatch(/^"anonymous";r=999999;t=\d+$/)
  })

  test('a spent budget is 429 rate_limited with Retry-After, for that principal only: other users, its API token, customers, OAuth clients and addresses go on', async () => {
    const h = await harness({ RATE_LIMIT_READ: '3' })
    const [spender, other, owner] = [await h.register(), await h.register(), await h.register()]
    const apiToken = (await h.call('POST', '/auth/tokens', { token: spender.token, body: { name: 'ci' } })).body.token as string
    const org = await provision(h, owner)
    const customer = await customerOf(h, org, owner)
    const client = await createClient(h, owner)
    const oauth = await authorizedTokens(h, spender, client)

    await spend(3, () => h.call('GET', '/auth/me', { token: spender.token }))
    expectLimited(await h.call('GET', '/auth/me', { token: spender.token }), 'read')
    // Reads and writes are separate budgets.
    expect((await h.call('PATCH', '/auth/me', { token: spender.token, body: { name: 'Still writing' } })).status).toBe(200)

    expect((await h.call('GET', '/auth/me', { token: other.token })).status).toBe(200)
    expect((await h.call('GET', '/auth/me', { token: apiToken })).status).toBe(200)
    expect((await h.call('GET', '/chat/conversations', { token: customer.token })).status).toBe(200)
    expect((await h.call('GET', '/api/auth/me', { token: oauth.access_token })).status).toBe(200)
    expect((await h.call('GET', '/site/version', address('198.51.100.20'))).status).toBe(200)
  })

  test('an OAuth client is one budget for all the users who authorized it', async () => {
    const h = await harness({ RATE_LIMIT_READ: '2' })
    const [owner, alice, bob] = [await h.register(), await h.register(), await h.register()]
    const client = await createClient(h, owner)
    const [forAlice, forBob] = [await authorizedTokens(h, alice, client), await authorizedTokens(h, bob, client)]
    await spend(2, () => h.call('GET', '/api/auth/me', { token: forAlice.access_token }))
    expectLimited(await h.call('GET', '/api/auth/me', { token: forBob.access_token }), 'read')
    expect((await h.call('GET', '/auth/me', { token: bob.token })).status).toBe(200)
  })

  test('a customer is limited in its ecosystem; the admin acting there is another principal', async () => {
    const h = await harness({ RATE_LIMIT_READ: '2' })
    const owner = await h.register()
    const org = await provision(h, owner)
    const [customer, neighbour] = [await customerOf(h, org, owner), await customerOf(h, org, owner)]
    await spend(2, () => h.call('GET', '/chat/conversations', { token: customer.token }))
    expectLimited(await h.call('GET', '/chat/conversations', { token: customer.token }), 'read')
    expect((await h.call('GET', '/chat/conversations', { token: neighbour.token })).status).toBe(200)
    expect((await h.call('GET', '/chat/conversations', org.as(owner))).status).toBe(200)
  })

  test('anonymous calls are limited per client address, and so are refused credentials', async () => {
    const h = await harness({ RATE_LIMIT_ANONYMOUS: '3' })
    await spend(3, () => h.call('GET', '/site/version', address('203.0.113.1')))
    expectLimited(await h.call('GET', '/site/version', address('203.0.113.1')), 'anonymous')
    expect((await h.call('GET', '/site/version', address('203.0.113.2'))).status).toBe(200)

    const guess = () => h.call('GET', '/auth/me', { token: `eco_${crypto.randomUUID()}`, ...address('203.0.113.3') })
    for (let i = 0; i < 3; i++) expect((await guess()).status).toBe(401)
    expectLimited(await guess(), 'anonymous')
  })

  test('the expensive class: chat replies and upload presigns share a budget apart from other writes; a stream is counted once, when it opens', async () => {
    const h = await harness({ RATE_LIMIT_EXPENSIVE: '2' })
    const owner = await h.register()
    const org = await provision(h, owner)
    const customer = await customerOf(h, org, owner)
    const upload = () =>
      h.call('POST', '/storage/uploads', {
        token: customer.token,
        body: { filename: 'a.txt', contentType: 'text/plain', sizeBytes: 3, contentHash: crypto.randomUUID().replaceAll('-', '').repeat(2) },
      })
    const conversation = await h.call('POST', '/chat/conversations', { token: customer.token, body: {} })
    const first = await upload()
    expect(first.status).toBe(201)
    expect(first.headers.get('ratelimit-policy')).toBe('"expensive";q=2;w=60')
    const reply = await h.call('POST', `/chat/conversations/${conversation.body.id}/messages`, { token: customer.token, body: { message: 'hello' } })
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toContain('text/event-stream')
    expect(reply.headers.get('ratelimit')).toMatch(/^"expensive";r=0;t=\d+$/)
    expectLimited(await upload(), 'expensive')
    expect((await h.call('POST', '/chat/conversations', { token: customer.token, body: {} })).status).toBe(201)
  })

  test("an ecosystem's own limits, set by its admin, raise or lower the defaults for its principals", async () => {
    const h = await harness({ RATE_LIMIT_READ: '2' })
    const owner = await h.register()
    const [raised, lowered] = [await provision(h, owner), await provision(h, owner)]
    for (const [org, read] of [
      [raised, 6],
      [lowered, 1],
    ] as const) {
      const res = await h.call('PATCH', `/registry/ecosystems/${org.ecosystem.id}`, { token: owner.token, body: { rateLimits: { read } } })
      expect(res.status).toBe(200)
      expect(res.body.rateLimits).toEqual({ read })
    }
    const inRaised = await customerOf(h, raised, owner)
    await spend(6, () => h.call('GET', '/chat/conversations', { token: inRaised.token }))
    expectLimited(await h.call('GET', '/chat/conversations', { token: inRaised.token }), 'read')

    const inLowered = await customerOf(h, lowered, owner)
    const first = await h.call('GET', '/chat/conversations', { token: inLowered.token })
    expect(first.headers.get('ratelimit-policy')).toBe('"read";q=1;w=60')
    expectLimited(await h.call('GET', '/chat/conversations', { token: inLowered.token }), 'read')

    // Back to the defaults: {} clears them, and the ecosystem cache forgets the old ones.
    const cleared = await h.call('PATCH', `/registry/ecosystems/${lowered.ecosystem.id}`, { token: owner.token, body: { rateLimits: {} } })
    expect(cleared.body.rateLimits).toBeNull()
    const again = await customerOf(h, lowered, owner)
    expect((await h.call('GET', '/chat/conversations', { token: again.token })).headers.get('ratelimit-policy')).toBe('"read";q=2;w=60')
  })

  test('ecosystem limits are validated: 400, never stored', async () => {
    const h = await harness({})
    const owner = await h.register()
    const org = await provision(h, owner)
    for (const rateLimits of [{ read: 0 }, { read: 1.5 }, { read: '100' }, { read: 2_000_000 }]) {
      const res = await h.call('PATCH', `/registry/ecosystems/${org.ecosystem.id}`, { token: owner.token, body: { rateLimits } })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
    }
    expect((await h.call('GET', `/registry/ecosystems/${org.ecosystem.id}`, { token: owner.token })).body.rateLimits).toBeNull()
  })

  test('health, metrics and preflights are never limited nor counted', async () => {
    const h = await harness({ RATE_LIMIT_ANONYMOUS: '1', CORS_ORIGINS: 'https://app.example.com' })
    for (let i = 0; i < 4; i++) {
      for (const path of ['/health', '/health/live', '/health/ready', '/metrics']) {
        const res = await h.call('GET', path, address('192.0.2.50'))
        expect(res.status).not.toBe(429)
        expect(res.headers.get('ratelimit')).toBeNull()
      }
      const preflight = await h.call('OPTIONS', '/site/version', {
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'GET', 'x-forwarded-for': '192.0.2.50' },
      })
      expect(preflight.status).toBe(204)
    }
    expect((await h.call('GET', '/site/version', address('192.0.2.50'))).status).toBe(200)
  })

  test('RATE_LIMITS=off: no limits and no headers', async () => {
    const h = await harness({ RATE_LIMITS: 'off', RATE_LIMIT_READ: '1', RATE_LIMIT_ANONYMOUS: '1' })
    const user = await h.register()
    for (let i = 0; i < 3; i++) {
      const res = await h.call('GET', '/auth/me', { token: user.token })
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit')).toBeNull()
    }
  })
})

describe('a failing store', () => {
  test('lets requests pass uncounted and says so in the log, once a minute', async () => {
    const logged: string[] = []
    const failing = { ...memoryRateLimitStore(), hit: () => Promise.reject(new Error('connection refused')) }
    const limits = new ApiLimits({ config: loadConfig({}), rateLimits: failing, logger: { error: (msg) => logged.push(msg) } }, async () => null, [])
    const headers: Record<string, string> = {}
    for (let i = 0; i < 3; i++) await limits.admit({ kind: 'u', id: 'someone' }, 'GET', '/auth/me', headers)
    expect(headers).toEqual({})
    expect(logged).toEqual(['rate-limit store failed: requests pass uncounted'])
  })
})

describe('the memory store at its key limit', () => {
  test('a flood of new keys never resets a budget somebody has spent: expired windows go first, then the least used', async () => {
    let clock = 0
    const store = memoryRateLimitStore(() => clock)
    for (let i = 0; i < 50; i++) await store.hit('spender', 60)
    for (let i = 0; i < 30; i++) await store.hit(`old:${i}`, 1)
    clock = 5_000
    for (let i = 0; i < 150_000; i++) await store.hit(`flood:${i}`, 60)
    expect((await store.hit('spender', 60)).count).toBe(51)
    expect((await store.peek('old:0')).count).toBe(0)
  })
})

describe('shared through Redis (REDIS_URL)', () => {
  test("two replicas count one principal's requests together", async () => {
    const h = await harness({ RATE_LIMIT_READ: '4', REDIS_URL: 'redis://127.0.0.1:6379' })
    const replica = await h.replica()
    try {
      const user = await h.register()
      await spend(2, () => h.call('GET', '/auth/me', { token: user.token }))
      const fromReplica = await replica.call('GET', '/auth/me', { token: user.token })
      expect(fromReplica.headers.get('ratelimit')).toMatch(/^"read";r=1;t=\d+$/)
      expect((await h.call('GET', '/auth/me', { token: user.token })).status).toBe(200)
      expectLimited(await replica.call('GET', '/auth/me', { token: user.token }), 'read')
      expectLimited(await h.call('GET', '/auth/me', { token: user.token }), 'read')
    } finally {
      await replica.close()
    }
  })
})
