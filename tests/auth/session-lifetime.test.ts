import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { sessions } from '../../src/modules/auth/schema'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'

// A sliding lifetime of an hour, an absolute one of 100 s: refreshing keeps a session alive only until its absolute end.
let h: Harness
beforeAll(async () => {
  h = await createHarness({ REFRESH_TOKEN_TTL_SECONDS: '3600', SESSION_MAX_AGE_SECONDS: '100', ACCESS_TOKEN_TTL_SECONDS: '3600' })
})
afterAll(() => h.close())

describe('absolute session lifetime (SESSION_MAX_AGE_SECONDS)', () => {
  test('an account session refreshed all along still ends at its absolute age', async () => {
    const user = await h.register()
    h.advanceClock(60_000)
    const refreshed = await h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })
    expect(refreshed.status).toBe(200)
    expect((await h.call('GET', '/auth/me', { token: refreshed.body.token })).status).toBe(200)
    h.advanceClock(41_000)
    expect((await h.call('GET', '/auth/me', { token: refreshed.body.token })).status).toBe(401)
    const late = await h.call('POST', '/auth/refresh', { body: { refreshToken: refreshed.body.refreshToken } })
    expect(late.status).toBe(401)
    expect(late.body.error.code).toBe('invalid_refresh_token')
    const again = await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })
    expect((await h.call('GET', '/auth/me', { token: again.body.token })).status).toBe(200)
  })

  test('a customer session refreshed all along still ends at its absolute age', async () => {
    const owner = await h.register()
    const org = await provision(h, owner)
    const customer = await customerOf(h, org, owner)
    h.advanceClock(60_000)
    const refreshed = await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })
    expect(refreshed.status).toBe(200)
    h.advanceClock(41_000)
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: refreshed.body.refreshToken } })).status).toBe(401)
  })

  test('a session already older than the absolute age ends even when its sliding expiry is later', async () => {
    // As for a session signed in before the absolute lifetime existed, or while it was longer.
    const user = await h.register()
    await h.db
      .update(sessions)
      .set({ createdAt: new Date(h.deps.now().getTime() - 101_000) })
      .where(eq(sessions.subjectId, user.user.id))
    expect((await h.call('GET', '/auth/me', { token: user.token })).status).toBe(401)
    const refreshed = await h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })
    expect(refreshed.status).toBe(401)
    expect(refreshed.body.error.code).toBe('invalid_refresh_token')
  })
})

test('an absolute lifetime of 68 years or more (past a 32-bit count of seconds) still refreshes', async () => {
  const long = await createHarness({ SESSION_MAX_AGE_SECONDS: String(2 ** 31) })
  try {
    const user = await long.register()
    expect((await long.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })).status).toBe(200)
  } finally {
    await long.close()
  }
})
