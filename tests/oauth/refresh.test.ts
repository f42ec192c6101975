import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { authorizedTokens, basic, createClient, postForm, refresh, type TestClient } from './support'

let h: Harness
let owner: RegisteredUser
let user: RegisteredUser
let client: TestClient
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  user = await h.register()
  client = await createClient(h, owner)
})
afterAll(() => h.close())

const me = (token: string) => h.call('GET', '/api/auth/me', { token })
const revoke = (c: TestClient, token: string, headers: Record<string, string> = {}) =>
  postForm(h, '/api/auth/revoke', { token, client_id: c.clientId, client_secret: c.clientSecret }, headers)

describe('POST /api/auth/refresh', () => {
  test('returns a new access and refresh token; the old refresh token is single-use', async () => {
    const tokens = await authorizedTokens(h, user, client)
    const first = await refresh(h, client, tokens.refresh_token)
    expect(first.status).toBe(200)
    expect(first.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      token_type: 'Bearer',
      scope: 'profile email',
    })
    expect(first.body.refresh_token).not.toBe(tokens.refresh_token)
    expect((await me(first.body.access_token)).status).toBe(200)
    expect((await refresh(h, client, first.body.refresh_token)).status).toBe(200)
  })

  test('presenting a rotated refresh token revokes the whole grant (reuse detection)', async () => {
    const tokens = await authorizedTokens(h, user, client)
    const rotated = await refresh(h, client, tokens.refresh_token)
    expect(rotated.status).toBe(200)
    const replay = await refresh(h, client, tokens.refresh_token)
    expect(replay.status).toBe(400)
    expect(replay.body.error).toBe('invalid_grant')
    // The replay burnt the legitimate holder's newer tokens too.
    const next = await refresh(h, client, rotated.body.refresh_token)
    expect(next.status).toBe(400)
    expect(next.body.error).toBe('invalid_grant')
    expect((await me(rotated.body.access_token)).status).toBe(401)
    expect((await me(tokens.access_token)).status).toBe(401)
  })

  test('concurrent refreshes with one token: exactly one wins', async () => {
    const tokens = await authorizedTokens(h, user, client)
    const results = await Promise.all(Array.from({ length: 8 }, () => refresh(h, client, tokens.refresh_token)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 400 && r.body.error === 'invalid_grant')).toHaveLength(7)
  })

  test('the token endpoint refreshes too, as standard clients expect; JSON and Basic work', async () => {
    const tokens = await authorizedTokens(h, user, client)
    const viaToken = await postForm(
      h,
      '/api/oauth/signin/exchange',
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token },
      { authorization: basic(client.clientId, client.clientSecret) },
    )
    expect(viaToken.status).toBe(200)
    const viaJson = await h.call('POST', '/api/auth/refresh', {
      body: { grant_type: 'refresh_token', refresh_token: viaToken.body.refresh_token, client_id: client.clientId, client_secret: client.clientSecret },
    })
    expect(viaJson.status).toBe(200)
  })

  test('errors: wrong grant_type and missing token are invalid_request, bad client invalid_client, unknown token invalid_grant', async () => {
    const tokens = await authorizedTokens(h, user, client)
    const wrongType = await refresh(h, client, tokens.refresh_token, { grant_type: 'authorization_code' })
    expect([wrongType.status, wrongType.body.error]).toEqual([400, 'invalid_request'])
    const missing = await refresh(h, client, tokens.refresh_token, { refresh_token: undefined })
    expect([missing.status, missing.body.error]).toEqual([400, 'invalid_request'])
    const badClient = await refresh(h, client, tokens.refresh_token, { client_secret: 'nope' })
    expect([badClient.status, badClient.body.error]).toEqual([401, 'invalid_client'])
    const unknown = await refresh(h, client, 'not-a-token')
    expect([unknown.status, unknown.body.error]).toEqual([400, 'invalid_grant'])
    // None of that consumed the real token.
    expect((await refresh(h, client, tokens.refresh_token)).status).toBe(200)
  })

  test('a refresh token of another client is invalid_grant and is not consumed', async () => {
    const other = await createClient(h, owner)
    const tokens = await authorizedTokens(h, user, client)
    const stolen = await refresh(h, other, tokens.refresh_token)
    expect([stolen.status, stolen.body.error]).toEqual([400, 'invalid_grant'])
    expect((await refresh(h, client, tokens.refresh_token)).status).toBe(200)
  })

  test('scope may narrow the grant but not widen it', async () => {
    const tokens = await authorizedTokens(h, user, client, { scope: 'profile' })
    const wider = await refresh(h, client, tokens.refresh_token, { scope: 'profile email' })
    expect([wider.status, wider.body.error]).toEqual([400, 'invalid_scope'])
    const same = await refresh(h, client, tokens.refresh_token, { scope: 'profile' })
    expect(same.status).toBe(200)
    expect(decodeJwt(same.body.access_token).scope).toBe('profile')
  })

  test('an expired grant cannot be refreshed (OAUTH_REFRESH_TOKEN_TTL_SECONDS, sliding)', async () => {
    const short = await createHarness({ OAUTH_REFRESH_TOKEN_TTL_SECONDS: '100' })
    try {
      const o = await short.register()
      const c = await createClient(short, o)
      const tokens = await authorizedTokens(short, o, c)
      short.advanceClock(90_000)
      const kept = await refresh(short, c, tokens.refresh_token)
      expect(kept.status).toBe(200)
      short.advanceClock(90_000) // 180 s after the start, 90 s after the refresh that slid the expiry
      const again = await refresh(short, c, kept.body.refresh_token)
      expect(again.status).toBe(200)
      short.advanceClock(101_000)
      const late = await refresh(short, c, again.body.refresh_token)
      expect([late.status, late.body.error]).toEqual([400, 'invalid_grant'])
    } finally {
      await short.close()
    }
  })

  test('narrowing a client’s scopes narrows its grants at the next refresh', async () => {
    const c = await createClient(h, owner)
    const tokens = await authorizedTokens(h, user, c)
    expect(tokens.scope).toBe('profile email')
    await h.call('PATCH', `/oauth/clients/${c.id}`, { token: owner.token, body: { scopes: ['profile'] } })
    const res = await refresh(h, c, tokens.refresh_token)
    expect(res.body.scope).toBe('profile')
    expect((await me(res.body.access_token)).body.email).toBeUndefined()
  })
})

describe('POST /api/auth/revoke (RFC 7009)', () => {
  test('revokes the grant of a refresh token: refresh and access tokens stop working', async () => {
    const tokens = await authorizedTokens(h, user, client)
    const res = await revoke(client, tokens.refresh_token)
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ revoked: true })
    expect((await me(tokens.access_token)).status).toBe(401)
    const again = await refresh(h, client, tokens.refresh_token)
    expect([again.status, again.body.error]).toEqual([400, 'invalid_grant'])
  })

  test('an access token revokes its grant too', async () => {
    const tokens = await authorizedTokens(h, user, client)
    expect((await revoke(client, tokens.access_token)).status).toBe(200)
    expect((await refresh(h, client, tokens.refresh_token)).status).toBe(400)
  })

  test('200 for an unknown token, and for a token of another client (which stays valid)', async () => {
    expect((await revoke(client, 'never-issued')).status).toBe(200)
    const other = await createClient(h, owner)
    const tokens = await authorizedTokens(h, user, client)
    expect((await revoke(other, tokens.refresh_token)).status).toBe(200)
    expect((await me(tokens.access_token)).status).toBe(200)
  })

  test('401 invalid_client for bad client credentials (token untouched); 400 without token', async () => {
    const tokens = await authorizedTokens(h, user, client)
    const bad = await postForm(h, '/api/auth/revoke', { token: tokens.refresh_token, client_id: client.clientId, client_secret: 'wrong' })
    expect([bad.status, bad.body.error]).toEqual([401, 'invalid_client'])
    const noToken = await postForm(h, '/api/auth/revoke', { client_id: client.clientId, client_secret: client.clientSecret })
    expect([noToken.status, noToken.body.error]).toEqual([400, 'invalid_request'])
    expect((await me(tokens.access_token)).status).toBe(200)
  })

  test('works with HTTP Basic and JSON', async () => {
    const a = await authorizedTokens(h, user, client)
    const viaBasic = await postForm(h, '/api/auth/revoke', { token: a.refresh_token }, { authorization: basic(client.clientId, client.clientSecret) })
    expect(viaBasic.status).toBe(200)
    expect((await me(a.access_token)).status).toBe(401)
    const b = await authorizedTokens(h, user, client)
    const viaJson = await h.call('POST', '/api/auth/revoke', {
      body: { token: b.refresh_token, client_id: client.clientId, client_secret: client.clientSecret },
    })
    expect(viaJson.status).toBe(200)
    expect((await me(b.access_token)).status).toBe(401)
  })

  test('revocation holds on another replica at once', async () => {
    const replica = await h.replica()
    try {
      const tokens = await authorizedTokens(h, user, client)
      expect((await replica.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(200)
      expect((await revoke(client, tokens.refresh_token)).status).toBe(200)
      expect((await replica.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(401)
    } finally {
      await replica.close()
    }
  })
})
