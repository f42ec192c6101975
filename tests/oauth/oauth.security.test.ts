import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SignJWT } from 'jose'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { authorizedTokens, createClient, type TestClient } from './support'

let h: Harness
let alice: RegisteredUser
let mallory: RegisteredUser
let client: TestClient
beforeAll(async () => {
  h = await createHarness()
  alice = await h.register()
  mallory = await h.register()
  client = await createClient(h, alice)
})
afterAll(() => h.close())

describe('cross-user isolation', () => {
  test("another user's client is 404 on every route and absent from their list", async () => {
    const as = { token: mallory.token }
    expect((await h.call('GET', `/oauth/clients/${client.id}`, as)).status).toBe(404)
    expect((await h.call('PATCH', `/oauth/clients/${client.id}`, { ...as, body: { name: 'pwned' } })).status).toBe(404)
    expect((await h.call('POST', `/oauth/clients/${client.id}/secret`, as)).status).toBe(404)
    expect((await h.call('DELETE', `/oauth/clients/${client.id}`, as)).status).toBe(404)
    expect((await h.call('GET', '/oauth/clients', as)).body.total).toBe(0)
    const mine = await h.call('GET', `/oauth/clients/${client.id}`, { token: alice.token })
    expect(mine.body.name).toBe('Test App')
  })

  test("another user's grant is 404 and absent from their list; it stays valid", async () => {
    const tokens = await authorizedTokens(h, alice, client)
    const [grant] = (await h.call('GET', '/oauth/grants', { token: alice.token })).body.items
    expect((await h.call('GET', '/oauth/grants', { token: mallory.token })).body.total).toBe(0)
    expect((await h.call('DELETE', `/oauth/grants/${grant.id}`, { token: mallory.token })).status).toBe(404)
    expect((await h.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(200)
  })

  test('an access token answers for its own user only', async () => {
    const forMallory = await authorizedTokens(h, mallory, client)
    const res = await h.call('GET', '/api/auth/me', { token: forMallory.access_token })
    expect(res.body.id).toBe(mallory.user.id)
  })
})

describe('scopes', () => {
  test('OAuth access tokens are refused on account-only routes', async () => {
    const tokens = await authorizedTokens(h, alice, client)
    for (const [method, path] of [
      ['GET', '/auth/me'],
      ['GET', '/auth/tokens'],
      ['POST', '/auth/revoke-all'],
      ['GET', '/oauth/clients'],
      ['POST', '/oauth/clients'],
      ['GET', '/oauth/grants'],
      ['GET', '/settings/auth-methods'],
    ] as const) {
      const res = await h.call(method, path, {
        token: tokens.access_token,
        body: method === 'POST' ? { name: 'x', redirectUris: ['https://x.test/'] } : undefined,
      })
      expect(res.status, `${method} ${path}`).toBe(401)
    }
    // Nothing was done with it: alice's own session still works.
    expect((await h.call('GET', '/auth/me', { token: alice.token })).status).toBe(200)
  })

  test('/api/auth/me needs `profile` (403 insufficient_scope) and shows the e-mail only with `email`', async () => {
    const emailOnly = await authorizedTokens(h, alice, client, { scope: 'email' })
    const refused = await h.call('GET', '/api/auth/me', { token: emailOnly.access_token })
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('insufficient_scope')
    const profileOnly = await authorizedTokens(h, alice, client, { scope: 'profile' })
    const me = await h.call('GET', '/api/auth/me', { token: profileOnly.access_token })
    expect(me.status).toBe(200)
    expect(me.body).toEqual({
      id: alice.user.id,
      name: alice.user.name,
      avatarUrl: '',
      slug: null,
      capabilities: alice.user.capabilities,
    })
    const both = await authorizedTokens(h, alice, client, { scope: 'profile email' })
    expect((await h.call('GET', '/api/auth/me', { token: both.access_token })).body.email).toBe(alice.email)
  })

  test('account credentials (session or API token) see the whole user on /api/auth/me', async () => {
    expect((await h.call('GET', '/api/auth/me', { token: alice.token })).body.email).toBe(alice.email)
    const key = await h.call('POST', '/auth/tokens', { token: alice.token, body: { name: 'cli' } })
    expect((await h.call('GET', '/api/auth/me', { token: key.body.token })).body.email).toBe(alice.email)
  })

  test('a forged oauth token is 401 unauthorized', async () => {
    const forged = await new SignJWT({ typ: 'oauth', client_id: client.clientId, scope: 'profile email', gid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(alice.user.id)
      .setIssuer('http://localhost')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('x'.repeat(48)))
    const res = await h.call('GET', '/api/auth/me', { token: forged })
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('unauthorized')
  })

  test('a client secret is never accepted as a bearer credential, nor is a refresh token', async () => {
    const tokens = await authorizedTokens(h, alice, client)
    for (const token of [client.clientSecret, tokens.refresh_token]) {
      expect((await h.call('GET', '/api/auth/me', { token })).status).toBe(401)
    }
  })
})

describe('OAuth access tokens inside ecosystems', () => {
  test('a client application acting for a team member cannot act in the ecosystem (no ecosystem scopes exist)', async () => {
    const { provision } = await import('../support/tenancy')
    const org = await provision(h, alice)
    const tokens = await authorizedTokens(h, alice, client)
    const asApp = { token: tokens.access_token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
    expect((await h.call('GET', '/customer/me', asApp)).status).toBe(401)
    expect((await h.call('GET', '/customer/customers', asApp)).status).toBe(401)
    expect((await h.call('GET', '/storage/attachments', asApp)).status).toBe(401)
    expect((await h.call('GET', '/customer/me', org.as(alice))).status).toBe(200)
  })
})
