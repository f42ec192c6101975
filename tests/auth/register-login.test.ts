import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { decodeJwt } from 'jose'
import { userMethods } from '../../src/modules/auth/schema'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
beforeAll(async () => {
  h = await createHarness({ ADMIN_EMAILS: 'boss@example.test' })
})
afterAll(() => h.close())

describe('POST /auth/register', () => {
  test('creates the account, returns AuthResult and sets the httpOnly refresh cookie', async () => {
    const res = await h.call('POST', '/auth/register', {
      body: { email: 'Alice@Example.test', password: 'correct horse', name: 'Alice' },
    })
    expect(res.status).toBe(201)
    expect(Object.keys(res.body).sort()).toEqual(['refreshToken', 'token', 'user'])
    expect(res.body.user).toEqual({
      id: expect.any(String),
      email: 'Alice@Example.test',
      name: 'Alice',
      avatarUrl: '',
      slug: null,
      capabilities: [],
    })
    const claims = decodeJwt(res.body.token)
    expect(claims.sub).toBe(res.body.user.id)
    expect(claims.typ).toBe('user')
    expect(typeof claims.sid).toBe('string')
    expect(claims.exp! - claims.iat!).toBe(900)
    const cookie = res.headers.get('set-cookie')!
    expect(cookie).toContain(`ecobase_refresh=${res.body.refreshToken}`)
    expect(cookie).toContain('HttpOnly')
    expect(cookie).toContain('SameSite=Strict')
  })

  test('e-mail is unique regardless of case: 409 email_taken', async () => {
    const res = await h.call('POST', '/auth/register', {
      body: { email: 'alice@EXAMPLE.test', password: 'another-pass', name: 'Other' },
    })
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe('email_taken')
  })

  test.each([
    [{ email: 'x@example.test', password: 'short', name: 'X' }, 'body.password'],
    [{ email: 'not-an-email', password: 'long-enough', name: 'X' }, 'body.email'],
    [{ email: 'x@example.test', password: 'long-enough' }, 'body.name'],
    [{ email: 'x@example.test', password: 'long-enough', name: '' }, 'body.name'],
    [{ email: 'x@example.test', password: 'long-enough', name: 'x'.repeat(256) }, 'body.name'],
  ])('bad input %j is a 400 naming the field', async (body, field) => {
    const res = await h.call('POST', '/auth/register', { body })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
    expect(res.body.error.message).toContain(field)
  })

  test('addresses in ADMIN_EMAILS get the admin capability', async () => {
    const boss = await h.register({ email: 'BOSS@example.test' })
    expect(boss.user.capabilities).toEqual(['admin'])
  })

  test('passwords are stored as argon2id at no less than the OWASP minimum', async () => {
    const user = await h.register()
    const [method] = await h.db.select().from(userMethods).where(eq(userMethods.userId, user.user.id))
    expect(method!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
    expect(method!.passwordHash).not.toContain(user.password)
  })
})

describe('POST /auth/login', () => {
  test('signs in with the right password, whatever the e-mail case', async () => {
    const user = await h.register({ email: 'Login-Case@example.test' })
    const res = await h.call('POST', '/auth/login', { body: { email: 'login-case@EXAMPLE.test', password: user.password } })
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(user.user.id)
    const me = await h.call('GET', '/auth/me', { token: res.body.token })
    expect(me.status).toBe(200)
    expect(res.headers.get('set-cookie')).toContain('ecobase_refresh=')
  })

  test('wrong password and unknown e-mail get the same 401 invalid_credentials', async () => {
    const user = await h.register()
    const wrong = await h.call('POST', '/auth/login', { body: { email: user.email, password: 'not-the-password' } })
    const unknown = await h.call('POST', '/auth/login', { body: { email: 'nobody@example.test', password: 'whatever-pass' } })
    expect(wrong.status).toBe(401)
    expect(unknown.status).toBe(401)
    expect(wrong.body).toEqual(unknown.body)
    expect(wrong.body.error.code).toBe('invalid_credentials')
  })
})

describe('password hash upgrade', () => {
  test('a hash made at an older, cheaper cost is upgraded on the next successful login', async () => {
    const stronger = await createHarness({ PASSWORD_MEMORY_KIB: '24576', PASSWORD_TIME_COST: '3' })
    try {
      const user = await stronger.register()
      const old = await Bun.password.hash(user.password, { algorithm: 'argon2id', memoryCost: 19456, timeCost: 2 })
      await stronger.db.update(userMethods).set({ passwordHash: old }).where(eq(userMethods.userId, user.user.id))
      const res = await stronger.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })
      expect(res.status).toBe(200)
      const [method] = await stronger.db.select().from(userMethods).where(eq(userMethods.userId, user.user.id))
      expect(method!.passwordHash).toMatch(/^\$argon2id\$v=19\$m=24576,t=3,p=1\$/)
      expect(await Bun.password.verify(user.password, method!.passwordHash!)).toBe(true)
    } finally {
      await stronger.close()
    }
  })
})
