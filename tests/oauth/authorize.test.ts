import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { approve, createClient, exchange, pkce, REDIRECT, type TestClient } from './support'

let h: Harness
let owner: RegisteredUser
let user: RegisteredUser
let client: TestClient
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  user = await h.register()
  client = await createClient(h, owner, { name: 'Photo <Printer>' })
})
afterAll(() => h.close())

function query(overrides: Record<string, string | undefined> = {}) {
  const params: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: REDIRECT,
    scope: 'profile',
    state: 'xyz 123',
    code_challenge: pkce().challenge,
    code_challenge_method: 'S256',
    ...overrides,
  }
  const q = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v)
  return q
}

const page = (q: URLSearchParams | string) => h.app.handle(new Request(`http://localhost/api/oauth/authorize?${q}`))

/** The error redirect's parameters, after checking it goes back to the registered URI. */
function redirected(res: Response) {
  expect(res.status).toBe(302)
  const location = new URL(res.headers.get('location')!)
  expect(location.origin + location.pathname).toBe(REDIRECT)
  return Object.fromEntries(location.searchParams)
}

describe('GET /api/oauth/authorize', () => {
  test('a valid request gets the sign-in + consent page, framed by nobody, escaped', async () => {
    const res = await page(query({ scope: 'profile email' }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toContain('text/html')
    expect(res.headers.get('x-frame-options')).toBe('DENY')
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    expect(res.headers.get('cache-control')).toBe('no-store')
    const html = await res.text()
    expect(html).toContain('Photo &lt;Printer&gt;')
    expect(html).not.toContain('Photo <Printer>')
    expect(html).toContain('<b>email</b>')
    expect(html).toContain('type="password"')
    const nonce = /script-src 'nonce-([^']+)'/.exec(res.headers.get('content-security-policy')!)![1]
    expect(html).toContain(`<script nonce="${nonce}">`)
  })

  test('an unknown client or unregistered redirect_uri gets an error page, never a redirect', async () => {
    for (const q of [
      query({ client_id: 'ecoc_nobody' }),
      query({ client_id: undefined }),
      query({ redirect_uri: 'https://evil.example.test/steal' }),
      query({ redirect_uri: `${REDIRECT}/` }),
      query({ redirect_uri: undefined }),
      `${query().toString()}&redirect_uri=${encodeURIComponent(REDIRECT)}`,
    ]) {
      const res = await page(q)
      expect(res.status).toBe(400)
      expect(res.headers.get('location')).toBeNull()
      expect(res.headers.get('content-type')).toContain('text/html')
      expect(await res.text()).toContain('cannot be completed')
    }
  })

  test.each([
    ['response_type missing', { response_type: undefined }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['no PKCE', { code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['PKCE method omitted', { code_challenge_method: undefined }, 'invalid_request'],
    ['malformed challenge', { code_challenge: 'abc' }, 'invalid_request'],
    ['unknown scope', { scope: 'profile admin' }, 'invalid_scope'],
  ])('%s: redirects back with error and state (RFC 6749 §4.1.2.1)', async (_name, overrides, error) => {
    const params = redirected(await page(query(overrides)))
    expect(params).toMatchObject({ error, state: 'xyz 123', iss: 'http://localhost' })
    expect(params.error_description).toBeString()
    expect(params.code).toBeUndefined()
  })

  test('a scope the client did not register is invalid_scope', async () => {
    const narrow = await createClient(h, owner, { scopes: ['profile'] })
    const params = redirected(await page(query({ client_id: narrow.clientId, scope: 'email' })))
    expect(params.error).toBe('invalid_scope')
  })

  test('a repeated parameter is invalid_request', async () => {
    const params = redirected(await page(`${query().toString()}&scope=email`))
    expect(params.error).toBe('invalid_request')
  })

  test('with OAUTH_CONSENT_URL, a valid request is forwarded there with its query; errors still go to the client', async () => {
    const custom = await createHarness({ OAUTH_CONSENT_URL: 'https://accounts.example.test/consent' })
    try {
      const o = await custom.register()
      const c = await createClient(custom, o)
      const q = query({ client_id: c.clientId })
      const res = await custom.app.handle(new Request(`http://localhost/api/oauth/authorize?${q}`))
      expect(res.status).toBe(302)
      expect(res.headers.get('location')).toBe(`https://accounts.example.test/consent?${q}`)
      const bad = await custom.app.handle(new Request(`http://localhost/api/oauth/authorize?${query({ client_id: c.clientId, scope: 'nope' })}`))
      expect(new URL(bad.headers.get('location')!).origin).toBe('https://app.example.test')
    } finally {
      await custom.close()
    }
  })
})

describe('POST /api/oauth/authorize', () => {
  const body = (overrides: Record<string, string | undefined> = {}) => Object.fromEntries(query(overrides))

  test('issues a code and the redirect, keeping state and the redirect URI’s own query', async () => {
    const withQuery = await createClient(h, owner, { redirectUris: ['https://app.example.test/cb?tenant=a%20b'] })
    const { verifier, challenge } = pkce()
    const res = await approve(h, user, body({ client_id: withQuery.clientId, redirect_uri: withQuery.redirectUris[0], code_challenge: challenge }))
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ redirectTo: expect.any(String), code: expect.any(String), state: 'xyz 123' })
    expect(res.body.redirectTo).toStartWith('https://app.example.test/cb?tenant=a%20b&code=')
    const back = new URL(res.body.redirectTo).searchParams
    expect(back.get('code')).toBe(res.body.code)
    expect(back.get('state')).toBe('xyz 123')
    expect(back.get('iss')).toBe('http://localhost')
    const tokens = await exchange(h, withQuery, res.body.code, verifier)
    expect(tokens.status).toBe(200)
    expect(tokens.body.scope).toBe('profile')
  })

  test('without scope the client’s registered scopes are granted; without state none is returned', async () => {
    const res = await approve(h, user, body({ scope: undefined, state: undefined }))
    expect(res.status).toBe(200)
    expect(res.body.state).toBeUndefined()
    expect(new URL(res.body.redirectTo).searchParams.has('state')).toBe(false)
  })

  test.each([
    ['unknown client', { client_id: 'ecoc_nobody' }, 'invalid_client'],
    ['unregistered redirect', { redirect_uri: 'https://evil.example.test/' }, 'invalid_redirect_uri'],
    ['unknown scope', { scope: 'root' }, 'invalid_scope'],
    ['no PKCE', { code_challenge: undefined }, 'validation_failed'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
  ])('%s: 400 with that code', async (_name, overrides, code) => {
    const res = await approve(h, user, body(overrides))
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe(code)
  })

  test('needs account credentials: none is 401; an OAuth access token is 401', async () => {
    expect((await h.call('POST', '/api/oauth/authorize', { body: body() })).status).toBe(401)
    const { verifier, challenge } = pkce()
    const issued = await approve(h, user, body({ code_challenge: challenge }))
    const tokens = await exchange(h, client, issued.body.code, verifier)
    const withOAuth = await h.call('POST', '/api/oauth/authorize', { token: tokens.body.access_token, body: body() })
    expect(withOAuth.status).toBe(401)
  })
})

describe('GET /.well-known/oauth-authorization-server', () => {
  test('names every endpoint under the issuer (RFC 8414)', async () => {
    const res = await h.call('GET', '/.well-known/oauth-authorization-server')
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({
      issuer: 'http://localhost',
      authorization_endpoint: 'http://localhost/api/oauth/authorize',
      token_endpoint: 'http://localhost/api/oauth/signin/exchange',
      revocation_endpoint: 'http://localhost/api/auth/revoke',
      ecobase_refresh_endpoint: 'http://localhost/api/auth/refresh',
      ecobase_me_endpoint: 'http://localhost/api/auth/me',
      scopes_supported: ['profile', 'email'],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
    })
  })
})
