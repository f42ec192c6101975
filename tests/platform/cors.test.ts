import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { ConfigError, loadConfig } from '../../src/config'
import { createHarness, type Harness } from '../support/harness'

const APP = 'https://app.example.com'
const EVIL = 'https://evil.example.net'

describe('CORS_ORIGINS set', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness({ CORS_ORIGINS: `${APP}, http://localhost:5173` })
  })
  afterAll(() => h.close())

  const preflight = (origin: string, method = 'POST') =>
    h.call('OPTIONS', '/auth/login', {
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'content-type, authorization' },
    })

  test('a preflight from a listed origin answers 204 with the CORS headers, before any auth or body check', async () => {
    const res = await preflight(APP)
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe(APP)
    expect(res.headers.get('access-control-allow-credentials')).toBe('true')
    expect(res.headers.get('access-control-allow-methods')).toContain('PATCH')
    expect(res.headers.get('access-control-allow-headers')).toContain('x-ecosystem-id')
    expect(res.headers.get('access-control-max-age')).toBe('600')
    expect(res.headers.get('vary')).toBe('Origin')
    expect((await h.call('OPTIONS', '/auth/me', { headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' } })).status).toBe(204)
  })

  test('an unlisted origin gets no CORS headers, so its browser keeps the same-origin policy', async () => {
    const res = await preflight(EVIL)
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
    const login = await h.call('POST', '/auth/login', { headers: { origin: EVIL }, body: { email: 'x@example.test', password: 'whatever-long' } })
    expect(login.headers.get('access-control-allow-origin')).toBeNull()
    expect(login.headers.get('access-control-allow-credentials')).toBeNull()
  })

  test('responses to a listed origin carry the origin, credentials and exposed headers, errors included', async () => {
    const user = await h.register()
    const me = await h.call('GET', '/auth/me', { token: user.token, headers: { origin: APP } })
    expect(me.status).toBe(200)
    expect(me.headers.get('access-control-allow-origin')).toBe(APP)
    expect(me.headers.get('access-control-allow-credentials')).toBe('true')
    expect(me.headers.get('access-control-expose-headers')).toContain('x-request-id')
    expect(me.headers.get('access-control-expose-headers')).toContain('ratelimit, ratelimit-policy')
    const denied = await h.call('GET', '/auth/me', { headers: { origin: APP } })
    expect(denied.status).toBe(401)
    expect(denied.headers.get('access-control-allow-origin')).toBe(APP)
  })

  test('the refresh cookie is SameSite=None; Secure, and only the own origin or a listed one may use it', async () => {
    const user = await h.register()
    const login = await h.call('POST', '/auth/login', { headers: { origin: APP }, body: { email: user.email, password: user.password } })
    const cookie = login.headers.get('set-cookie')!
    expect(cookie).toMatch(/SameSite=None/i)
    expect(cookie).toMatch(/Secure/)
    expect(cookie).toMatch(/HttpOnly/)
    const jar = `ecobase_refresh=${login.body.refreshToken}`
    const evil = await h.call('POST', '/auth/refresh', { headers: { origin: EVIL, cookie: jar } })
    expect(evil.status).toBe(403)
    expect(evil.body.error.code).toBe('origin_not_allowed')
    expect((await h.call('POST', '/auth/revoke', { headers: { origin: EVIL, cookie: jar } })).status).toBe(403)
    const listed = await h.call('POST', '/auth/refresh', { headers: { origin: APP, cookie: jar } })
    expect(listed.status).toBe(200)
    const own = await h.call('POST', '/auth/refresh', { headers: { origin: 'http://localhost', cookie: `ecobase_refresh=${listed.body.refreshToken}` } })
    expect(own.status).toBe(200)
  })
})

describe('CORS_ORIGINS absent', () => {
  let h: Harness
  beforeAll(async () => {
    h = await createHarness()
  })
  afterAll(() => h.close())

  test('no CORS headers at all, preflights are not answered, and the cookie stays SameSite=Strict', async () => {
    const pre = await h.call('OPTIONS', '/auth/login', { headers: { origin: APP, 'access-control-request-method': 'POST' } })
    expect(pre.status).not.toBe(204)
    expect(pre.headers.get('access-control-allow-origin')).toBeNull()
    const user = await h.register()
    const login = await h.call('POST', '/auth/login', { headers: { origin: APP }, body: { email: user.email, password: user.password } })
    expect(login.headers.get('access-control-allow-origin')).toBeNull()
    expect(login.headers.get('set-cookie')).toMatch(/SameSite=Strict/i)
    const crossSite = await h.call('POST', '/auth/refresh', { headers: { origin: APP, cookie: `ecobase_refresh=${login.body.refreshToken}` } })
    expect(crossSite.status).toBe(403)
    const noOrigin = await h.call('POST', '/auth/refresh', { headers: { cookie: `ecobase_refresh=${login.body.refreshToken}` } })
    expect(noOrigin.status).toBe(200)
  })

  test('a same-origin page reached under a host PUBLIC_URL does not name may still use the cookie', async () => {
    const user = await h.register()
    const jar = (refreshToken: string) => `ecobase_refresh=${refreshToken}`
    const other = 'http://127.0.0.1:3000'
    const forged = await h.call('POST', '/auth/refresh', { headers: { origin: other, 'sec-fetch-site': 'cross-site', cookie: jar(user.refreshToken) } })
    expect(forged.status).toBe(403)
    const sameOrigin = await h.call('POST', '/auth/refresh', { headers: { origin: other, 'sec-fetch-site': 'same-origin', cookie: jar(user.refreshToken) } })
    expect(sameOrigin.status).toBe(200)
  })
})

describe('CORS_ORIGINS parsing', () => {
  test.each(['https://app.example.com/', 'https://app.example.com/path', 'app.example.com', 'ftp://x.example', '*'])(
    '%s is refused naming the variable',
    (origin) => {
      expect(() => loadConfig({ CORS_ORIGINS: origin })).toThrow(ConfigError)
      expect(() => loadConfig({ CORS_ORIGINS: origin })).toThrow(/CORS_ORIGINS/)
    },
  )

  test('a list of exact origins is kept in order', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example, http://localhost:5173' }).corsOrigins).toEqual(['https://a.example', 'http://localhost:5173'])
  })
})
