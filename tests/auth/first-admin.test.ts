import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'

let h: Harness
/** The instance's first account (its admin). */
let admin: RegisteredUser | undefined
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

test('GET /auth/first-run tells a sign-in page the instance has no account yet, and whether registration is open', async () => {
  expect(await h.call('GET', '/auth/first-run')).toMatchObject({ status: 200, body: { firstAccount: true, registration: true } })
})

test('with no ADMIN_EMAILS the first account becomes admin, once, and the server says so once', async () => {
  const results = await Promise.all([h.register(), h.register(), h.register()])
  const admins = results.filter((r) => r.user.capabilities.includes('admin'))
  expect(admins).toHaveLength(1)
  admin = admins[0]
  const later = await h.register()
  expect(later.user.capabilities).toEqual([])
  const said = h.logLines.filter((l) => l.includes('first account registered'))
  expect(said).toHaveLength(1)
  expect(JSON.parse(said[0]!).userId).toBe(admins[0]!.user.id)
})

test('after the first account, first-run says so; with password registration switched off, so does registration', async () => {
  expect((await h.call('GET', '/auth/first-run')).body).toEqual({ firstAccount: false, registration: true })
  expect((await h.call('PUT', '/settings/auth-methods/password', { token: admin!.token, body: { enabled: false } })).status).toBe(200)
  expect((await h.call('GET', '/auth/first-run')).body).toEqual({ firstAccount: false, registration: false })
})
