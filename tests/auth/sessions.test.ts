import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { SignJWT } from 'jose'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const refresh = (refreshToken: string) => h.call('POST', '/auth/refresh', { body: { refreshToken } })
const me = (token: string) => h.call('GET', '/auth/me', { token })

describe('refresh rotation', () => {
  test('a refresh returns a new pair; the old refresh token is single-use', async () => {
    const user = await h.register()
    const first = await refresh(user.refreshToken)
    expect(first.status).toBe(200)
    expect(Object.keys(first.body).sort()).toEqual(['refreshToken', 'token'])
    expect(first.body.refreshToken).not.toBe(user.refreshToken)
    expect((await me(first.body.token)).status).toBe(200)
    const second = await refresh(first.body.refreshToken)
    expect(second.status).toBe(200)
  })

  test('presenting a rotated refresh token revokes the whole session (reuse detection)', async () => {
    const user = await h.register()
    const rotated = await refresh(user.refreshToken)
    expect(rotated.status).toBe(200)
    const replay = await refresh(user.refreshToken)
    expect(replay.status).toBe(401)
    expect(replay.body.error.code).toBe('invalid_refresh_token')
    // The thief's replay burnt the legitimate holder's newer tokens too.
    expect((await refresh(rotated.body.refreshToken)).status).toBe(401)
    expect((await me(rotated.body.token)).status).toBe(401)
  })

  test('concurrent refreshes with one token: exactly one succeeds', async () => {
    const user = await h.register()
    const results = await Promise.all(Array.from({ length: 8 }, () => refresh(user.refreshToken)))
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
    expect(results.filter((r) => r.status === 401)).toHaveLength(7)
  })

  test('unknown, empty or missing refresh tokens get 401', async () => {
    expect((await refresh('not-a-real-token')).status).toBe(401)
    const none = await h.call('POST', '/auth/refresh')
    expect(none.status).toBe(401)
    expect(none.body.error.code).toBe('invalid_refresh_token')
  })

  test('browsers can refresh with the httpOnly cookie alone', async () => {
    const user = await h.register()
    const res = await h.call('POST', '/auth/refresh', { headers: { cookie: `ecobase_refresh=${user.refreshToken}` } })
    expect(res.status).toBe(200)
    expect(res.headers.get('set-cookie')).toContain(`ecobase_refresh=${res.body.refreshToken}`)
  })

  test('a session past its refresh lifetime cannot be refreshed', async () => {
    const short = await createHarness({ REFRESH_TOKEN_TTL_SECONDS: '60' })
    try {
      const user = await short.register()
      short.advanceClock(61_000)
      const res = await short.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })
      expect(res.status).toBe(401)
    } finally {
      await short.close()
    }
  })
})

describe('access tokens', () => {
  test('an expired access token gets 401 token_expired; a refreshed one works', async () => {
    const user = await h.register()
    h.advanceClock(901_000)
    try {
      const expired = await me(user.token)
      expect(expired.status).toBe(401)
      expect(expired.body.error.code).toBe('token_expired')
      const fresh = await refresh(user.refreshToken)
      expect((await me(fresh.body.token)).status).toBe(200)
    } finally {
      h.advanceClock(-901_000)
    }
  })

  test('forged, malformed and missing tokens get 401 unauthorized', async () => {
    const user = await h.register()
    const forged = await new SignJWT({ typ: 'user', sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.user.id)
      .setIssuer('http://localhost')
      .setExpirationTime('10m')
      .sign(new TextEncoder().encode('x'.repeat(48)))
    for (const token of [forged, 'garbage', `${user.token.slice(0, -3)}abc`]) {
      const res = await me(token)
      expect(res.status).toBe(401)
      expect(res.body.error.code).toBe('unauthorized')
    }
    const none = await h.call('GET', '/auth/me')
    expect(none.status).toBe(401)
    expect(none.body.error.code).toBe('unauthorized')
    const basic = await h.call('GET', '/auth/me', { headers: { authorization: 'Basic abc' } })
    expect(basic.status).toBe(401)
  })
})

describe('revocation', () => {
  test('POST /auth/revoke signs out: the access token stops working at once and the refresh token is dead', async () => {
    const user = await h.register()
    expect((await me(user.token)).status).toBe(200)
    const res = await h.call('POST', '/auth/revoke', { body: { refreshToken: user.refreshToken } })
    expect(res.status).toBe(204)
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0')
    expect((await me(user.token)).status).toBe(401)
    expect((await refresh(user.refreshToken)).status).toBe(401)
  })

  test('POST /auth/revoke with an unknown token is still 204', async () => {
    expect((await h.call('POST', '/auth/revoke', { body: { refreshToken: 'nope' } })).status).toBe(204)
    expect((await h.call('POST', '/auth/revoke')).status).toBe(204)
  })

  test('POST /auth/revoke-all ends every session of the user and no one else', async () => {
    const user = await h.register()
    const other = await h.register()
    const second = await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })
    expect((await h.call('POST', '/auth/revoke-all', { token: user.token })).status).toBe(204)
    expect((await me(user.token)).status).toBe(401)
    expect((await me(second.body.token)).status).toBe(401)
    expect((await refresh(second.body.refreshToken)).status).toBe(401)
    expect((await me(other.token)).status).toBe(200)
  })
})

describe('POST /auth/change-password', () => {
  test('changes the password and revokes every session without issuing new tokens', async () => {
    const user = await h.register()
    const res = await h.call('POST', '/auth/change-password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'a-brand-new-password' },
    })
    expect(res.status).toBe(204)
    expect(res.body).toBeNull()
    expect((await me(user.token)).status).toBe(401)
    expect((await refresh(user.refreshToken)).status).toBe(401)
    const old = await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })
    expect(old.status).toBe(401)
    const fresh = await h.call('POST', '/auth/login', { body: { email: user.email, password: 'a-brand-new-password' } })
    expect(fresh.status).toBe(200)
  })

  test('wrong current password: 401; short new password: 400; nothing changes', async () => {
    const user = await h.register()
    const wrong = await h.call('POST', '/auth/change-password', {
      token: user.token,
      body: { currentPassword: 'not-it-at-all', newPassword: 'a-brand-new-password' },
    })
    expect(wrong.status).toBe(401)
    expect(wrong.body.error.code).toBe('invalid_credentials')
    const short = await h.call('POST', '/auth/change-password', {
      token: user.token,
      body: { currentPassword: user.password, newPassword: 'short' },
    })
    expect(short.status).toBe(400)
    expect(short.body.error.message).toContain('newPassword')
    expect((await me(user.token)).status).toBe(200)
    expect((await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(200)
  })
})
