import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { users } from '../../src/modules/auth/schema'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

describe('GET /auth/me', () => {
  test('returns the User of the bearer', async () => {
    const user = await h.register({ name: 'Me Myself' })
    const res = await h.call('GET', '/auth/me', { token: user.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ ...user.user, emailVerified: false, aal: 'aal1', mfa: { enabled: false, factors: [] } })
  })
})

describe('PATCH /auth/me', () => {
  test('updates name and slug', async () => {
    const user = await h.register()
    const slug = `me-${crypto.randomUUID().slice(0, 8)}`
    const res = await h.call('PATCH', '/auth/me', { token: user.token, body: { name: 'New Name', slug } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ id: user.user.id, name: 'New Name', slug })
    expect((await h.call('GET', '/auth/me', { token: user.token })).body.slug).toBe(slug)
  })

  test.each([
    [{}, 'empty object'],
    [{ name: '' }, 'empty name'],
    [{ name: 'n'.repeat(256) }, 'name over 255'],
    [{ slug: 'A-upper' }, 'slug with upper case'],
    [{ slug: '-leading' }, 'slug with leading dash'],
    [{ slug: 'a' }, 'slug too short'],
    [{ slug: 'a'.repeat(65) }, 'slug too long'],
    [{ slug: 'has space' }, 'slug with a space'],
  ])('%j (%s) is a 400', async (body) => {
    const user = await h.register()
    const res = await h.call('PATCH', '/auth/me', { token: user.token, body })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
  })

  test('a slug held by another account is 409 slug_taken', async () => {
    const a = await h.register()
    const b = await h.register()
    const slug = `taken-${crypto.randomUUID().slice(0, 8)}`
    expect((await h.call('PATCH', '/auth/me', { token: a.token, body: { slug } })).status).toBe(200)
    const res = await h.call('PATCH', '/auth/me', { token: b.token, body: { slug } })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('slug_taken')
  })

  test('401 without a token, 404 when the account is gone', async () => {
    expect((await h.call('PATCH', '/auth/me', { body: { name: 'x' } })).status).toBe(401)
    const user = await h.register()
    const key = await h.call('POST', '/auth/tokens', { token: user.token, body: { name: 'k' } })
    await h.db.delete(users).where(eq(users.id, user.user.id))
    const res = await h.call('PATCH', '/auth/me', { token: user.token, body: { name: 'ghost' } })
    expect([401, 404]).toContain(res.status)
    expect((await h.call('GET', '/auth/me', { token: key.body.token })).status).toBe(401)
  })
})

describe('GET /auth/slug-available/{slug}', () => {
  test('answers format, taken or available', async () => {
    const a = await h.register()
    const b = await h.register()
    const slug = `free-${crypto.randomUUID().slice(0, 8)}`
    const check = (token: string, s: string) => h.call('GET', `/auth/slug-available/${s}`, { token })
    expect((await check(a.token, slug)).body).toEqual({ available: true })
    expect((await check(a.token, 'Bad_Slug')).body).toEqual({ available: false, reason: 'format' })
    await h.call('PATCH', '/auth/me', { token: a.token, body: { slug } })
    expect((await check(b.token, slug)).body).toEqual({ available: false, reason: 'taken' })
    expect((await check(a.token, slug)).body).toEqual({ available: true })
    expect((await h.call('GET', `/auth/slug-available/${slug}`)).status).toBe(401)
  })
})
