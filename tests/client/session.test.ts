import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { apiError } from '../../client/index'
import { createHarness, type Harness } from '../support/harness'
import { connect, newAccount, PAST_EXPIRY_MS } from './connect'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
}, 30_000)
afterAll(() => h.close())

describe('typed client: signing in', () => {
  test('register keeps the tokens, reports them, and typed calls carry the bearer token', async () => {
    const { client, seen } = connect(h)
    const account = newAccount()
    const reg = await client.register(account)
    expect(reg.status).toBe(201)
    expect(reg.error).toBeNull()
    const tokens = client.getTokens()
    expect(tokens).toEqual({ token: reg.data!.token, refreshToken: reg.data!.refreshToken })
    expect(seen).toEqual([tokens])

    const { data, error } = await client.api.auth.me.get()
    expect(error).toBeNull()
    // Typed from App: `email` is a string, not any.
    const email: string = data!.email
    expect(email).toBe(account.email)
    // @ts-expect-error not a route of the app
    expect(client.api.auth.nope).toBeDefined()

    const patched = await client.api.auth.me.patch({ name: 'Renamed' })
    expect(patched.data?.name).toBe('Renamed')
  })

  test('login keeps the tokens; a wrong password keeps none and returns the typed error', async () => {
    const account = newAccount()
    await connect(h).client.register(account)
    const { client, seen } = connect(h)

    const wrong = await client.login({ email: account.email, password: 'not-the-password' })
    expect(wrong.status).toBe(401)
    expect(wrong.error?.value).toMatchObject({ error: { code: 'invalid_credentials' } })
    expect(apiError(wrong)?.toJSON()).toEqual({ status: 401, code: 'invalid_credentials', message: expect.any(String) })
    expect(client.getTokens()).toBeNull()
    expect(seen).toEqual([])

    const ok = await client.login({ email: account.email, password: account.password })
    expect(ok.status).toBe(200)
    expect(apiError(ok)).toBeNull()
    expect(client.getTokens()?.token).toBe(ok.data!.token)
    expect(seen).toHaveLength(1)
    expect((await client.api.auth.me.get()).data?.email).toBe(account.email)
  })

  test('without tokens a protected call is a plain 401 and nothing is refreshed', async () => {
    const { client, count } = connect(h)
    const res = await client.api.auth.me.get()
    expect(res.status).toBe(401)
    expect(res.error?.value).toMatchObject({ error: { code: 'unauthorized' } })
    expect(count('POST /auth/refresh')).toBe(0)
  })

  test('date-looking strings stay strings, as the types say', async () => {
    const { client } = connect(h)
    await client.register(newAccount())
    const created = await client.api.auth.tokens.post({ name: 'ci' })
    expect(typeof created.data!.createdAt).toBe('string')
  })
})

describe('typed client: refresh', () => {
  test('an expired access token is refreshed once, transparently, and the call succeeds', async () => {
    const { client, count, seen } = connect(h)
    const account = newAccount()
    await client.register(account)
    const before = client.getTokens()!
    h.advanceClock(PAST_EXPIRY_MS)

    const res = await client.api.auth.me.get()
    expect(res.status).toBe(200)
    expect(res.data?.email).toBe(account.email)
    expect(count('POST /auth/refresh')).toBe(1)
    expect(count('GET /auth/me')).toBe(2)
    const after = client.getTokens()!
    expect(after.token).not.toBe(before.token)
    expect(after.refreshToken).not.toBe(before.refreshToken)
    expect(seen.at(-1)).toEqual(after)
    // The old refresh token was really rotated away on the server.
    expect((await h.call('POST', '/auth/refresh', { body: { refreshToken: before.refreshToken } })).status).toBe(401)
  })

  test('a request body is sent again on the retry', async () => {
    const { client, count } = connect(h)
    await client.register(newAccount())
    h.advanceClock(PAST_EXPIRY_MS)
    const res = await client.api.auth.me.patch({ name: 'After refresh' })
    expect(res.status).toBe(200)
    expect(res.data?.name).toBe('After refresh')
    expect(count('POST /auth/refresh')).toBe(1)
  })

  test('the server burns a session when one refresh token is presented twice at once (why single-flight matters)', async () => {
    const user = await h.register()
    const both = await Promise.all([
      h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } }),
      h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } }),
    ])
    expect(both.map((r) => r.status).sort()).toEqual([200, 401])
    const winner = both.find((r) => r.status === 200)!.body
    expect((await h.call('GET', '/auth/me', { token: winner.token })).status).toBe(401)
  })

  test('a burst of 10 calls with an expired token shares ONE refresh; all succeed; the session lives on', async () => {
    const { client, count } = connect(h)
    const account = newAccount()
    await client.register(account)
    h.advanceClock(PAST_EXPIRY_MS)

    const results = await Promise.all(Array.from({ length: 10 }, () => client.api.auth.me.get()))
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200))
    expect(results.every((r) => r.data?.email === account.email)).toBe(true)
    expect(count('POST /auth/refresh')).toBe(1)

    // The kept refresh token is the live one: the session survives the next expiry as well.
    const tokens = client.getTokens()!
    h.advanceClock(PAST_EXPIRY_MS)
    const later = await Promise.all(Array.from({ length: 10 }, () => client.api.auth.tokens.get()))
    expect(later.map((r) => r.status)).toEqual(Array(10).fill(200))
    expect(count('POST /auth/refresh')).toBe(2)
    expect(client.getTokens()!.refreshToken).not.toBe(tokens.refreshToken)
    expect((await client.api.auth.me.get()).status).toBe(200)
  })

  test('a burst mixing routes and bodies also shares one refresh', async () => {
    const { client, count } = connect(h)
    await client.register(newAccount())
    h.advanceClock(PAST_EXPIRY_MS)
    const results = await Promise.all([
      client.api.auth.me.get(),
      client.api.auth.me.patch({ name: 'Burst' }),
      client.api.auth.tokens.post({ name: 'burst' }),
      client.api.auth.tokens.get({ query: { page: 1 } }),
      client.api.auth.methods.get(),
    ])
    expect(results.map((r) => r.status)).toEqual([200, 200, 201, 200, 200])
    expect(count('POST /auth/refresh')).toBe(1)
  })
})

describe('typed client: the session ends', () => {
  test('revoked elsewhere (revoke-all): the call returns 401, tokens are cleared and onTokens(null) is called', async () => {
    const account = newAccount()
    const a = connect(h)
    await a.client.register(account)
    const b = connect(h)
    await b.client.login({ email: account.email, password: account.password })
    expect(await b.client.logout({ everywhere: true })).toBe(true)
    expect(b.client.getTokens()).toBeNull()

    // A's access token is still a valid JWT, but its session is gone: the refresh attempt says so.
    const res = await a.client.api.auth.me.get()
    expect(res.status).toBe(401)
    expect(res.error?.value).toMatchObject({ error: { code: 'unauthorized' } })
    expect(a.count('POST /auth/refresh')).toBe(1)
    expect(a.client.getTokens()).toBeNull()
    expect(a.seen.at(-1)).toBeNull()

    // Signed out now: further calls go out without a token and do not try to refresh.
    expect((await a.client.api.auth.me.get()).status).toBe(401)
    expect(a.count('POST /auth/refresh')).toBe(1)
  })

  test('revoked while the access token has also expired: a burst gets 401s from one failed refresh', async () => {
    const account = newAccount()
    const a = connect(h)
    await a.client.register(account)
    const b = connect(h)
    await b.client.login({ email: account.email, password: account.password })
    await b.client.api.auth['revoke-all'].post()
    h.advanceClock(PAST_EXPIRY_MS)

    const results = await Promise.all(Array.from({ length: 5 }, () => a.client.api.auth.me.get()))
    expect(results.map((r) => r.status)).toEqual(Array(5).fill(401))
    expect(a.count('POST /auth/refresh')).toBe(1)
    expect(a.client.getTokens()).toBeNull()
    expect(a.seen.filter((t) => t === null)).toHaveLength(1)
  })

  test('logout revokes the session on the server and clears the tokens', async () => {
    const { client, seen } = connect(h)
    await client.register(newAccount())
    const tokens = client.getTokens()!
    expect(await client.logout()).toBe(true)
    expect(client.getTokens()).toBeNull()
    expect(seen.at(-1)).toBeNull()
    expect((await h.call('GET', '/auth/me', { token: tokens.token })).status).toBe(401)
    expect((await h.call('POST', '/auth/refresh', { body: { refreshToken: tokens.refreshToken } })).status).toBe(401)
    expect((await client.api.auth.me.get()).status).toBe(401)
  })

  test('logout everywhere ends this and other sessions; on an already dead session it reports signed-out once', async () => {
    const account = newAccount()
    const a = connect(h)
    await a.client.register(account)
    const b = connect(h)
    await b.client.login({ email: account.email, password: account.password })
    expect(await a.client.logout({ everywhere: true })).toBe(true)
    expect(a.seen.at(-1)).toBeNull()
    expect((await b.client.api.auth.me.get()).status).toBe(401)
    expect(b.client.getTokens()).toBeNull()

    const c = connect(h)
    await c.client.login({ email: account.email, password: account.password })
    await h.call('POST', '/auth/revoke', { body: { refreshToken: c.client.getTokens()!.refreshToken } })
    expect(await c.client.logout({ everywhere: true })).toBe(false)
    expect(c.seen.filter((t) => t === null)).toHaveLength(1)
  })

  test('logout while a refresh is in flight still ends the session and keeps nothing', async () => {
    const { client, seen } = connect(h)
    await client.register(newAccount())
    const tokens = client.getTokens()!
    h.advanceClock(PAST_EXPIRY_MS)
    const call = client.api.auth.me.get()
    const refreshing = client.refresh()
    await client.logout()
    await Promise.all([call, refreshing])
    expect(client.getTokens()).toBeNull()
    expect(seen.at(-1)).toBeNull()
    expect((await h.call('POST', '/auth/refresh', { body: { refreshToken: tokens.refreshToken } })).status).toBe(401)
  })
})
