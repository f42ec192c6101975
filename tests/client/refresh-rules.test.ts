import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { apiError, createClient } from '../../client/index'
import { createHarness, type Harness } from '../support/harness'
import { ACCESS_TTL_MS, connect, newAccount, PAST_EXPIRY_MS } from './connect'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
}, 30_000)
afterAll(() => h.close())

describe('when the client does not refresh', () => {
  test('a 401 that is not about the token (wrong current password) is returned as it is', async () => {
    const { client, count } = connect(h)
    await client.register(newAccount())
    const res = await client.api.auth['change-password'].post({ currentPassword: 'wrong-one', newPassword: 'another-long-one' })
    expect(res.status).toBe(401)
    expect(res.error?.value).toMatchObject({ error: { code: 'invalid_credentials' } })
    expect(count('POST /auth/refresh')).toBe(0)
    expect((await client.api.auth.me.get()).status).toBe(200)
  })

  test('the auth endpoints themselves never trigger a refresh, even with an expired token held', async () => {
    const account = newAccount()
    const { client, count } = connect(h)
    await client.register(account)
    const tokens = client.getTokens()
    h.advanceClock(PAST_EXPIRY_MS)
    const wrong = await client.api.auth.login.post({ email: account.email, password: 'nope-nope' })
    expect(wrong.status).toBe(401)
    const bad = await client.api.auth.refresh.post({ refreshToken: 'not-a-token' })
    expect(bad.status).toBe(401)
    expect(bad.error?.value).toMatchObject({ error: { code: 'invalid_refresh_token' } })
    expect(count('POST /auth/refresh')).toBe(1) // the call above, nothing more
    expect(client.getTokens()).toEqual(tokens)
  })

  test('an API token is sent as a bearer credential and never refreshed; when it expires the 401 comes back', async () => {
    const owner = await h.register()
    const expiresAt = new Date(h.deps.now().getTime() + 3_600_000).toISOString()
    const key = await h.call('POST', '/auth/tokens', { token: owner.token, body: { name: 'script', expiresAt } })
    expect(key.status).toBe(201)
    const { client, count, seen } = connect(h, { tokens: { token: key.body.token } })
    expect((await client.api.auth.me.get()).data?.id).toBe(owner.user.id)
    h.advanceClock(3_600_000 + 1000)
    const res = await client.api.auth.me.get()
    expect(res.status).toBe(401)
    expect(res.error?.value).toMatchObject({ error: { code: 'token_expired' } })
    expect(count('POST /auth/refresh')).toBe(0)
    expect(seen).toEqual([])
  })

  test('a request that brings its own Authorization header is left alone', async () => {
    const other = await h.register()
    const { client, count } = connect(h)
    await client.register(newAccount())
    const res = await client.api.auth.me.get({ headers: { authorization: `Bearer ${other.token}` } })
    expect(res.data?.id).toBe(other.user.id)
    const bad = await client.api.auth.me.get({ headers: { authorization: 'Bearer garbage' } })
    expect(bad.status).toBe(401)
    expect(count('POST /auth/refresh')).toBe(0)
  })
})

describe('refresh failures and timing', () => {
  test('a refresh that fails for a passing reason (503) keeps the tokens; the next call refreshes fine', async () => {
    let outage = true
    const { client, count, seen } = connect(h, {
      hook: (req) =>
        outage && new URL(req.url).pathname === '/auth/refresh'
          ? Response.json({ error: { code: 'unavailable', message: 'down' } }, { status: 503 })
          : undefined,
    })
    await client.register(newAccount())
    const tokens = client.getTokens()
    h.advanceClock(PAST_EXPIRY_MS)

    const failed = await client.api.auth.me.get()
    expect(failed.status).toBe(401)
    expect(failed.error?.value).toMatchObject({ error: { code: 'token_expired' } })
    expect(client.getTokens()).toEqual(tokens)
    expect(seen).not.toContain(null)

    outage = false
    expect((await client.api.auth.me.get()).status).toBe(200)
    expect(count('POST /auth/refresh')).toBe(2)
  })

  test('a network error during refresh keeps the tokens too', async () => {
    let offline = true
    const { client } = connect(h, {
      hook: (req) => {
        if (offline && new URL(req.url).pathname === '/auth/refresh') throw new TypeError('fetch failed')
        return undefined
      },
    })
    await client.register(newAccount())
    const tokens = client.getTokens()
    h.advanceClock(PAST_EXPIRY_MS)
    expect((await client.api.auth.me.get()).status).toBe(401)
    expect(client.getTokens()).toEqual(tokens)
    offline = false
    expect((await client.api.auth.me.get()).status).toBe(200)
  })

  test('proactive: shortly before expiry the token is refreshed first, so no request meets a 401', async () => {
    let offset = 0
    const { client, count, requests } = connect(h, { now: () => Date.now() + offset, refreshLeewaySeconds: 30 })
    await client.register(newAccount())
    const before = client.getTokens()!
    // 20 s before expiry, both clocks: the old token would still be accepted.
    offset += ACCESS_TTL_MS - 20_000
    h.advanceClock(ACCESS_TTL_MS - 20_000)

    const results = await Promise.all(Array.from({ length: 10 }, () => client.api.auth.me.get()))
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200))
    expect(count('POST /auth/refresh')).toBe(1)
    expect(count('GET /auth/me')).toBe(10)
    expect(requests.indexOf('POST /auth/refresh')).toBeLessThan(requests.indexOf('GET /auth/me'))
    expect(client.getTokens()!.token).not.toBe(before.token)
  })

  test('proactive refresh is timed from arrival, so a device clock far ahead does not refresh on every call', async () => {
    const { client, count } = connect(h, { now: () => Date.now() + 5 * 3600_000 })
    await client.register(newAccount())
    for (let i = 0; i < 3; i++) expect((await client.api.auth.me.get()).status).toBe(200)
    expect(count('POST /auth/refresh')).toBe(0)
  })

  test('tokens restored into a new client are used, refreshed when stale, and the new ones reported', async () => {
    const first = connect(h)
    const account = newAccount()
    await first.client.register(account)
    const saved = first.client.getTokens()
    h.advanceClock(PAST_EXPIRY_MS)

    const { client, seen, count } = connect(h, { tokens: saved })
    const res = await client.api.auth.me.get()
    expect(res.data?.email).toBe(account.email)
    expect(count('POST /auth/refresh')).toBe(1)
    expect(seen).toEqual([client.getTokens()])
  })

  test('setTokens during a refresh wins over the refresh result', async () => {
    const { client } = connect(h)
    await client.register(newAccount())
    const other = await h.register()
    h.advanceClock(PAST_EXPIRY_MS)
    const refreshing = client.refresh()
    client.setTokens({ token: other.token, refreshToken: other.refreshToken })
    await refreshing
    expect(client.getTokens()).toEqual({ token: other.token, refreshToken: other.refreshToken })
    expect((await client.api.auth.me.get()).data?.id).toBe(other.user.id)
  })
})

describe('options', () => {
  test('headers go with every request; client.fetch carries the token and refreshes like the typed API', async () => {
    let ecosystem = 'eco-1'
    const sent: (string | null)[] = []
    const { client, count } = connect(h, {
      headers: () => ({ 'x-ecosystem-id': ecosystem }),
      hook: (req) => {
        sent.push(req.headers.get('x-ecosystem-id'))
        return undefined
      },
    })
    await client.register(newAccount())
    await client.api.auth.me.get()
    ecosystem = 'eco-2'
    await client.api.auth.me.get()
    expect(sent).toEqual(['eco-1', 'eco-1', 'eco-2'])

    h.advanceClock(PAST_EXPIRY_MS)
    const raw = await client.fetch('/auth/me')
    expect(raw.status).toBe(200)
    expect(((await raw.json()) as { id: string }).id).toBeString()
    expect(count('POST /auth/refresh')).toBe(1)
    expect((await client.fetch('http://localhost/auth/me')).status).toBe(200)
  })

  test('a same-origin base path is kept as it is, and its auth routes are recognised', async () => {
    const urls: string[] = []
    const auths: (string | null)[] = []
    const client = createClient({
      baseUrl: '/api/',
      tokens: { token: 'eco_example', refreshToken: 'r1' },
      fetch: async (input, init) => {
        urls.push(String(input))
        auths.push(new Headers(init?.headers).get('authorization'))
        return Response.json({ error: { code: 'token_expired', message: 'expired' } }, { status: 401 })
      },
    })
    await client.api.auth.login.post({ email: 'a@example.test', password: 'x' })
    expect(urls).toEqual(['/api/auth/login'])
    expect(auths).toEqual([null])
    await client.api.auth.me.get()
    expect(urls.slice(1)).toEqual(['/api/auth/me', '/api/auth/refresh'])
    expect(auths[1]).toBe('Bearer eco_example')
  })

  test('a base URL that is neither http(s) nor a path is refused at once', () => {
    expect(() => createClient({ baseUrl: 'localhost:3000' })).toThrow(/baseUrl/)
    expect(() => createClient({ baseUrl: 'https://api.example.com/v1/' })).not.toThrow()
  })

  test('apiError: validation answers 400 in the one error shape; an unreachable server is network_error', async () => {
    const { client } = connect(h)
    const invalid = await client.register({ email: 'not-an-email', password: 'short', name: '' })
    expect(apiError(invalid)).toMatchObject({ status: 400, code: 'validation_failed' })
    const offline = createClient({
      baseUrl: 'http://localhost',
      fetch: async () => {
        throw new TypeError('fetch failed')
      },
    })
    expect(apiError(await offline.api.auth.me.get())?.toJSON()).toEqual({ status: 0, code: 'network_error', message: 'fetch failed' })
  })
})
