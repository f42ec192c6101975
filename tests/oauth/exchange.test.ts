import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { oauthCodes, oauthRefreshTokens } from '../../src/modules/oauth/schema'
import { sha256Hex } from '../../src/platform/crypto'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { authorizationCode, authorizedTokens, basic, createClient, exchange, postForm, REDIRECT, type TestClient } from './support'

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

function expectOAuthError(res: { status: number; body: any; headers: Headers }, status: number, error: string) {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error })
  expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description'])
  expect(typeof res.body.error_description).toBe('string')
  expect(res.headers.get('cache-control')).toBe('no-store')
}

describe('POST /api/oauth/signin/exchange', () => {
  test('a code and its verifier give the spec token response; the access token is an oauth JWT', async () => {
    const { code, verifier } = await authorizationCode(h, user, client)
    const res = await exchange(h, client, code, verifier)
    expect(res.status).toBe(200)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(res.body).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.any(String),
      expires_in: 3600,
      token_type: 'Bearer',
      scope: 'profile email',
    })
    const claims = decodeJwt(res.body.access_token)
    expect(claims).toMatchObject({ typ: 'oauth', client_id: client.clientId, scope: 'profile email', sub: user.user.id })
    expect(claims.exp! - claims.iat!).toBe(3600)
    const who = await me(res.body.access_token)
    expect(who.status).toBe(200)
    expect(who.body).toMatchObject({ id: user.user.id, email: user.email, name: user.user.name })
  })

  test('accepts JSON bodies and HTTP Basic client authentication', async () => {
    const json = await authorizationCode(h, user, client)
    const viaJson = await h.call('POST', '/api/oauth/signin/exchange', {
      body: {
        grant_type: 'authorization_code',
        code: json.code,
        redirect_uri: REDIRECT,
        client_id: client.clientId,
        client_secret: client.clientSecret,
        code_verifier: json.verifier,
      },
    })
    expect(viaJson.status).toBe(200)
    const form = await authorizationCode(h, user, client)
    const viaBasic = await postForm(
      h,
      '/api/oauth/signin/exchange',
      { grant_type: 'authorization_code', code: form.code, redirect_uri: REDIRECT, code_verifier: form.verifier },
      { authorization: basic(client.clientId, client.clientSecret) },
    )
    expect(viaBasic.status).toBe(200)
  })

  describe('the spec error table', () => {
    test('400 invalid_grant: code already used', async () => {
      const { code, verifier } = await authorizationCode(h, user, client)
      expect((await exchange(h, client, code, verifier)).status).toBe(200)
      expectOAuthError(await exchange(h, client, code, verifier), 400, 'invalid_grant')
    })

    test('400 invalid_grant: code expired (OAUTH_CODE_TTL_SECONDS)', async () => {
      const short = await createHarness({ OAUTH_CODE_TTL_SECONDS: '5' })
      try {
        const o = await short.register()
        const c = await createClient(short, o)
        const fresh = await authorizationCode(short, o, c)
        short.advanceClock(4_000)
        expect((await exchange(short, c, fresh.code, fresh.verifier)).status).toBe(200)
        const stale = await authorizationCode(short, o, c)
        short.advanceClock(5_001)
        expectOAuthError(await exchange(short, c, stale.code, stale.verifier), 400, 'invalid_grant')
      } finally {
        await short.close()
      }
    })

    test('codes live 60 seconds by default', async () => {
      const { code } = await authorizationCode(h, user, client)
      const [row] = await h.db
        .select()
        .from(oauthCodes)
        .where(eq(oauthCodes.codeHash, sha256Hex(code)))
      expect(row!.expiresAt.getTime() - row!.createdAt.getTime()).toBeWithin(59_000, 61_000)
    })

    test('400 invalid_grant: wrong redirect_uri', async () => {
      const two = await createClient(h, owner, { redirectUris: [REDIRECT, 'https://app.example.test/other'] })
      const { code, verifier } = await authorizationCode(h, user, two)
      expectOAuthError(await exchange(h, two, code, verifier, { redirect_uri: 'https://app.example.test/other' }), 400, 'invalid_grant')
    })

    test('400 invalid_grant: an unknown code, or a code issued to another client', async () => {
      const other = await createClient(h, owner)
      const { code, verifier } = await authorizationCode(h, user, client)
      expectOAuthError(await exchange(h, other, code, verifier), 400, 'invalid_grant')
      expectOAuthError(await exchange(h, client, 'no-such-code', verifier), 400, 'invalid_grant')
      // The other client's attempt did not burn the code for its rightful client.
      expect((await exchange(h, client, code, verifier)).status).toBe(200)
    })

    test.each([
      ['code', { code: undefined }],
      ['redirect_uri', { redirect_uri: undefined }],
      ['code_verifier', { code_verifier: undefined }],
      ['client_id', { client_id: undefined }],
      ['client_secret', { client_secret: undefined }],
      ['grant_type', { grant_type: undefined }],
    ])('400 invalid_request: %s missing', async (_name, extra) => {
      const { code, verifier } = await authorizationCode(h, user, client)
      expectOAuthError(await exchange(h, client, code, verifier, extra), 400, 'invalid_request')
    })

    test('400 invalid_request: wrong grant_type, malformed verifier, repeated parameter, bad bodies', async () => {
      const { code, verifier } = await authorizationCode(h, user, client)
      expectOAuthError(await exchange(h, client, code, verifier, { grant_type: 'password' }), 400, 'invalid_request')
      expectOAuthError(await exchange(h, client, code, verifier, { code_verifier: 'short' }), 400, 'invalid_request')
      expectOAuthError(await exchange(h, client, code, verifier, { code_verifier: 'x'.repeat(129) }), 400, 'invalid_request')
      const repeated = await h.call('POST', '/api/oauth/signin/exchange', {
        body: `grant_type=authorization_code&code=${code}&code=${code}&redirect_uri=${encodeURIComponent(REDIRECT)}&client_id=${client.clientId}&client_secret=${client.clientSecret}&code_verifier=${verifier}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      })
      expectOAuthError(repeated, 400, 'invalid_request')
      const notJson = await h.call('POST', '/api/oauth/signin/exchange', { body: '{nope', headers: { 'content-type': 'application/json' } })
      expectOAuthError(notJson, 400, 'invalid_request')
      const numeric = await h.call('POST', '/api/oauth/signin/exchange', { body: { grant_type: 'authorization_code', code: 42 } })
      expectOAuthError(numeric, 400, 'invalid_request')
      const text = await h.call('POST', '/api/oauth/signin/exchange', { body: 'code=1', headers: { 'content-type': 'text/plain' } })
      expectOAuthError(text, 400, 'invalid_request')
      const empty = await h.call('POST', '/api/oauth/signin/exchange')
      expectOAuthError(empty, 400, 'invalid_request')
      const both = await postForm(
        h,
        '/api/oauth/signin/exchange',
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_secret: client.clientSecret },
        { authorization: basic(client.clientId, client.clientSecret) },
      )
      expectOAuthError(both, 400, 'invalid_request')
      // None of those consumed the code.
      expect((await exchange(h, client, code, verifier)).status).toBe(200)
    })

    test('401 invalid_client: wrong client_secret, unknown client_id, bad Basic credentials', async () => {
      const { code, verifier } = await authorizationCode(h, user, client)
      expectOAuthError(await exchange(h, client, code, verifier, { client_secret: `${client.clientSecret}x` }), 401, 'invalid_client')
      expectOAuthError(await exchange(h, client, code, verifier, { client_id: 'ecoc_unknown' }), 401, 'invalid_client')
      const viaBasic = await postForm(
        h,
        '/api/oauth/signin/exchange',
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
        { authorization: basic(client.clientId, 'wrong') },
      )
      expectOAuthError(viaBasic, 401, 'invalid_client')
      expect(viaBasic.headers.get('www-authenticate')).toStartWith('Basic')
      expect((await exchange(h, client, code, verifier)).status).toBe(200)
    })

    test('401 invalid_verifier: the PKCE verifier does not match the challenge', async () => {
      const { code } = await authorizationCode(h, user, client)
      expectOAuthError(await exchange(h, client, code, 'a'.repeat(43)), 401, 'invalid_verifier')
    })

    test('401 token_expired: an expired OAuth access token on an API call', async () => {
      const tokens = await authorizedTokens(h, user, client)
      h.advanceClock(3601_000)
      try {
        const res = await me(tokens.access_token)
        expect(res.status).toBe(401)
        expect(res.body.error.code).toBe('token_expired')
      } finally {
        h.advanceClock(-3601_000)
      }
    })
  })

  test('reusing a code revokes the tokens it issued (RFC 9700)', async () => {
    const { code, verifier } = await authorizationCode(h, user, client)
    const first = await exchange(h, client, code, verifier)
    expect(first.status).toBe(200)
    expect((await me(first.body.access_token)).status).toBe(200)
    expectOAuthError(await exchange(h, client, code, verifier), 400, 'invalid_grant')
    expect((await me(first.body.access_token)).status).toBe(401)
    const refreshed = await postForm(h, '/api/auth/refresh', {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: client.clientId,
      client_secret: client.clientSecret,
    })
    expectOAuthError(refreshed, 400, 'invalid_grant')
  })

  test('concurrent exchanges of one code: exactly one wins', async () => {
    const { code, verifier } = await authorizationCode(h, user, client)
    const results = await Promise.all(Array.from({ length: 8 }, () => exchange(h, client, code, verifier)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    for (const r of results.filter((r) => r.status !== 200)) expectOAuthError(r, 400, 'invalid_grant')
  })

  test('codes and refresh tokens are stored only as SHA-256 hashes', async () => {
    const { code, verifier } = await authorizationCode(h, user, client)
    const res = await exchange(h, client, code, verifier)
    const codes = await h.db.select().from(oauthCodes)
    const tokens = await h.db.select().from(oauthRefreshTokens)
    const stored = JSON.stringify([codes, tokens])
    expect(stored).not.toContain(code)
    expect(stored).not.toContain(res.body.refresh_token)
    expect(codes.every((c) => /^[0-9a-f]{64}$/.test(c.codeHash))).toBe(true)
    expect(h.logLines.join('\n')).not.toContain(code)
  })
})
