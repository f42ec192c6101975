import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
let admin: Awaited<ReturnType<Harness['register']>>
let member: Awaited<ReturnType<Harness['register']>>
beforeAll(async () => {
  h = await createHarness({ ADMIN_EMAILS: 'root@example.test' })
  admin = await h.register({ email: 'root@example.test' })
  member = await h.register()
})
afterAll(() => h.close())

describe('sign-in method settings', () => {
  test('GET /settings/auth-methods lists password, enabled by default', async () => {
    const res = await h.call('GET', '/settings/auth-methods', { token: member.token })
    expect(res.status).toBe(200)
    expect(res.body).toEqual([{ method: 'password', enabled: true }])
  })

  test('only admins may change a method (403 forbidden otherwise); unknown methods are 404', async () => {
    const denied = await h.call('PUT', '/settings/auth-methods/password', { token: member.token, body: { enabled: false } })
    expect(denied.status).toBe(403)
    expect(denied.body.error.code).toBe('forbidden')
    expect((await h.call('PUT', '/settings/auth-methods/password', { body: { enabled: false } })).status).toBe(401)
    const unknown = await h.call('PUT', '/settings/auth-methods/carrier-pigeon', { token: admin.token, body: { enabled: true } })
    expect(unknown.status).toBe(404)
    const bad = await h.call('PUT', '/settings/auth-methods/password', { token: admin.token, body: { enabled: 'no' } })
    expect(bad.status).toBe(400)
  })

  test('disabling password stops registration with 403 registration_disabled; login still works', async () => {
    const off = await h.call('PUT', '/settings/auth-methods/password', { token: admin.token, body: { enabled: false } })
    expect(off.status).toBe(200)
    expect(off.body).toEqual({ method: 'password', enabled: false })
    try {
      const res = await h.call('POST', '/auth/register', {
        body: { email: 'late@example.test', password: 'long-enough', name: 'Late' },
      })
      expect(res.status).toBe(403)
      expect(res.body.error.code).toBe('registration_disabled')
      const login = await h.call('POST', '/auth/login', { body: { email: member.email, password: member.password } })
      expect(login.status).toBe(200)
      expect((await h.call('GET', '/settings/auth-methods', { token: member.token })).body).toEqual([{ method: 'password', enabled: false }])
    } finally {
      await h.call('PUT', '/settings/auth-methods/password', { token: admin.token, body: { enabled: true } })
    }
    expect((await h.call('POST', '/auth/register', { body: { email: 'ok@example.test', password: 'long-enough', name: 'Ok' } })).status).toBe(201)
  })
})
