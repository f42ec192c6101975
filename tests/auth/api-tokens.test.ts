import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { apiTokens } from '../../src/modules/auth/schema'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

describe('API tokens', () => {
  test('created once with the raw token, listed afterwards only by prefix, stored hashed', async () => {
    const user = await h.register()
    const created = await h.call('POST', '/auth/tokens', { token: user.token, body: { name: 'ci' } })
    expect(created.status).toBe(201)
    expect(created.body).toEqual({
      id: expect.any(String),
      name: 'ci',
      prefix: created.body.token.slice(0, 12),
      createdAt: expect.any(String),
      expiresAt: null,
      lastUsedAt: null,
      token: expect.stringMatching(/^eco_[A-Za-z0-9_-]{43}$/),
    })
    const list = await h.call('GET', '/auth/tokens', { token: user.token })
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ total: 1, page: 1, pageSize: 20 })
    expect(list.body.items[0]).not.toHaveProperty('token')
    expect(JSON.stringify(list.body)).not.toContain(created.body.token)
    const [row] = await h.db.select().from(apiTokens).where(eq(apiTokens.id, created.body.id))
    expect(row!.tokenHash).not.toContain(created.body.token)
    expect(row!.tokenHash).toMatch(/^[0-9a-f]{64}$/)
  })

  test('works as a bearer credential and records lastUsedAt', async () => {
    const user = await h.register()
    const { body: key } = await h.call('POST', '/auth/tokens', { token: user.token, body: { name: 'script' } })
    const me = await h.call('GET', '/auth/me', { token: key.token })
    expect(me.status).toBe(200)
    expect(me.body.id).toBe(user.user.id)
    // Listing tokens is for a signed-in session (an API token is refused there).
    const list = await h.call('GET', '/auth/tokens', { token: user.token })
    expect(list.body.items[0].lastUsedAt).not.toBeNull()
  })

  test('expired tokens get 401 token_expired; expiresAt in the past is refused', async () => {
    const user = await h.register()
    const past = await h.call('POST', '/auth/tokens', {
      token: user.token,
      body: { name: 'old', expiresAt: new Date(Date.now() - 1000).toISOString() },
    })
    expect(past.status).toBe(400)
    const soon = new Date(Date.now() + 60_000).toISOString()
    const { body: key } = await h.call('POST', '/auth/tokens', { token: user.token, body: { name: 'soon', expiresAt: soon } })
    expect(key.expiresAt).toBe(soon)
    expect((await h.call('GET', '/auth/me', { token: key.token })).status).toBe(200)
    h.advanceClock(61_000)
    try {
      const res = await h.call('GET', '/auth/me', { token: key.token })
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('token_expired')
    } finally {
      h.advanceClock(-61_000)
    }
  })

  test("deleted tokens get 401; deleting another user's token is 404", async () => {
    const user = await h.register()
    const other = await h.register()
    const { body: key } = await h.call('POST', '/auth/tokens', { token: user.token, body: { name: 'gone' } })
    expect((await h.call('DELETE', `/auth/tokens/${key.id}`, { token: other.token })).status).toBe(404)
    expect((await h.call('DELETE', `/auth/tokens/${key.id}`, { token: user.token })).status).toBe(204)
    expect((await h.call('GET', '/auth/me', { token: key.token })).status).toBe(401)
    expect((await h.call('DELETE', `/auth/tokens/${key.id}`, { token: user.token })).status).toBe(404)
    expect((await h.call('DELETE', '/auth/tokens/not-a-uuid', { token: user.token })).status).toBe(400)
  })

  test('a made-up eco_ token is 401', async () => {
    const res = await h.call('GET', '/auth/me', { token: `eco_${'a'.repeat(43)}` })
    expect(res.status).toBe(401)
    expect(res.body.error.code).toBe('unauthorized')
  })

  test("list is paged, newest first, and only the caller's", async () => {
    const user = await h.register()
    const other = await h.register()
    await h.call('POST', '/auth/tokens', { token: other.token, body: { name: 'theirs' } })
    for (const name of ['t1', 't2', 't3']) {
      await h.call('POST', '/auth/tokens', { token: user.token, body: { name } })
      await Bun.sleep(2) // distinct creation times, even on a coarse clock
    }
    const page1 = await h.call('GET', '/auth/tokens?page=1&pageSize=2', { token: user.token })
    expect(page1.body).toMatchObject({ total: 3, page: 1, pageSize: 2 })
    expect(page1.body.items.map((t: { name: string }) => t.name)).toEqual(['t3', 't2'])
    const page2 = await h.call('GET', '/auth/tokens?page=2&pageSize=2', { token: user.token })
    expect(page2.body.items.map((t: { name: string }) => t.name)).toEqual(['t1'])
    expect((await h.call('GET', '/auth/tokens?pageSize=101', { token: user.token })).status).toBe(400)
    expect((await h.call('GET', '/auth/tokens?page=0', { token: user.token })).status).toBe(400)
  })
})

describe('GET /auth/methods', () => {
  test('lists the password method without exposing the hash', async () => {
    const user = await h.register()
    const res = await h.call('GET', '/auth/methods', { token: user.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([
      {
        id: expect.any(String),
        userId: user.user.id,
        provider: 'password',
        providerId: user.email.toLowerCase(),
        hasCredential: true,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ])
    expect(JSON.stringify(res.body)).not.toContain('argon2')
  })
})
