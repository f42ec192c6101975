import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { oauthClients } from '../../src/modules/oauth/schema'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { authorizedTokens, createClient, exchange, authorizationCode, REDIRECT } from './support'

let h: Harness
let owner: RegisteredUser
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
})
afterAll(() => h.close())

const create = (body: Record<string, unknown>) => h.call('POST', '/oauth/clients', { token: owner.token, body })

describe('client applications', () => {
  test('created with the secret once; listed, read and stored without it', async () => {
    const res = await create({ name: 'Reader', redirectUris: [REDIRECT, 'http://127.0.0.1:8080/cb'] })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      clientId: expect.stringMatching(/^ecoc_[A-Za-z0-9_-]{24}$/),
      clientSecret: expect.stringMatching(/^ecos_[A-Za-z0-9_-]{43}$/),
      name: 'Reader',
      redirectUris: [REDIRECT, 'http://127.0.0.1:8080/cb'],
      scopes: ['profile', 'email'],
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    })
    const { clientSecret, ...rest } = res.body
    const one = await h.call('GET', `/oauth/clients/${res.body.id}`, { token: owner.token })
    expect(one.body).toEqual(rest)
    const list = await h.call('GET', '/oauth/clients?pageSize=100', { token: owner.token })
    expect(list.body).toMatchObject({ page: 1, pageSize: 100 })
    expect(list.body.items).toContainEqual(rest)
    expect(JSON.stringify(list.body)).not.toContain(clientSecret)
    const [row] = await h.db.select().from(oauthClients).where(eq(oauthClients.id, res.body.id))
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(row)).not.toContain(clientSecret)
  })

  test.each([
    ['http on a public host', 'http://app.example.test/cb'],
    ['a fragment', 'https://app.example.test/cb#x'],
    ['a relative URL', '/cb'],
    ['a custom scheme', 'myapp://cb'],
    ['user info', 'https://me:pw@app.example.test/cb'],
    ['javascript', 'javascript:alert(1)'],
  ])('a redirect URI with %s is refused', async (_name, uri) => {
    const res = await create({ name: 'Bad', redirectUris: [uri] })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('invalid_redirect_uri')
  })

  test('loopback http is allowed (native apps); unknown scopes and empty lists are refused', async () => {
    for (const uri of ['http://localhost:5000/cb', 'http://[::1]/cb', 'http://127.0.0.1/cb']) {
      expect((await create({ name: 'Native', redirectUris: [uri] })).status).toBe(201)
    }
    const scope = await create({ name: 'X', redirectUris: [REDIRECT], scopes: ['profile', 'admin'] })
    expect([scope.status, scope.body.error.code]).toEqual([400, 'invalid_scope'])
    expect((await create({ name: 'X', redirectUris: [] })).status).toBe(400)
    expect((await create({ name: '', redirectUris: [REDIRECT] })).status).toBe(400)
  })

  test('PATCH changes name, redirect URIs and scopes, with the same checks', async () => {
    const client = await createClient(h, owner)
    const res = await h.call('PATCH', `/oauth/clients/${client.id}`, {
      token: owner.token,
      body: { name: 'Renamed', redirectUris: ['https://new.example.test/cb'], scopes: ['profile'] },
    })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ name: 'Renamed', redirectUris: ['https://new.example.test/cb'], scopes: ['profile'] })
    const bad = await h.call('PATCH', `/oauth/clients/${client.id}`, { token: owner.token, body: { redirectUris: ['http://x.test/'] } })
    expect(bad.status).toBe(400)
    expect((await h.call('PATCH', `/oauth/clients/${client.id}`, { token: owner.token, body: {} })).status).toBe(400)
  })

  test('rotating the secret returns a new one once; the old one stops working, issued tokens keep working', async () => {
    const client = await createClient(h, owner)
    const user = await h.register()
    const tokens = await authorizedTokens(h, user, client)
    const rotated = await h.call('POST', `/oauth/clients/${client.id}/secret`, { token: owner.token })
    expect(rotated.status).toBe(200)
    expect(rotated.body.clientSecret).not.toBe(client.clientSecret)
    const { code, verifier } = await authorizationCode(h, user, client)
    const old = await exchange(h, client, code, verifier)
    expect([old.status, old.body.error]).toEqual([401, 'invalid_client'])
    const fresh = await exchange(h, { ...client, clientSecret: rotated.body.clientSecret }, code, verifier)
    expect(fresh.status).toBe(200)
    expect((await h.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(200)
  })

  test('deleting a client ends every grant and token issued to it', async () => {
    const client = await createClient(h, owner)
    const user = await h.register()
    const tokens = await authorizedTokens(h, user, client)
    const res = await h.call('DELETE', `/oauth/clients/${client.id}`, { token: owner.token })
    expect(res.status).toBe(204)
    expect((await h.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(401)
    expect((await h.call('GET', `/oauth/clients/${client.id}`, { token: owner.token })).status).toBe(404)
    expect((await h.call('DELETE', `/oauth/clients/${client.id}`, { token: owner.token })).status).toBe(404)
    expect((await h.call('GET', '/oauth/grants', { token: user.token })).body.total).toBe(0)
  })
})

describe('authorized applications (grants)', () => {
  test('users list the apps they authorized and revoke one', async () => {
    const user = await h.register()
    const client = await createClient(h, owner, { name: 'Calendar' })
    const tokens = await authorizedTokens(h, user, client, { scope: 'profile' })
    const list = await h.call('GET', '/oauth/grants', { token: user.token })
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ total: 1, page: 1, pageSize: 20 })
    expect(list.body.items[0]).toEqual({
      id: expect.any(String),
      clientId: client.clientId,
      clientName: 'Calendar',
      scopes: ['profile'],
      createdAt: expect.any(String),
      lastUsedAt: null,
      expiresAt: expect.any(String),
    })
    const del = await h.call('DELETE', `/oauth/grants/${list.body.items[0].id}`, { token: user.token })
    expect(del.status).toBe(204)
    expect((await h.call('GET', '/api/auth/me', { token: tokens.access_token })).status).toBe(401)
    expect((await h.call('GET', '/oauth/grants', { token: user.token })).body.total).toBe(0)
    expect((await h.call('DELETE', `/oauth/grants/${list.body.items[0].id}`, { token: user.token })).status).toBe(404)
  })
})
