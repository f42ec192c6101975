import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

/**
 * Elysia parses what a route's hooks read, judged from their source: a guard that hands its whole
 * context on (`resolve(ctx)`) makes every route it guards parse the cookies (and more) of every
 * request, a fifth of a cached GET /auth/me. Guards destructure what they read.
 */
test('only the routes that set or read the refresh cookie parse cookies', () => {
  const parsing = (h.app.routes as { method: string; path: string; compile(): unknown }[])
    .filter((r) => /parseCookie|createCookieJar/.test(String(r.compile())))
    .map((r) => `${r.method} ${r.path}`)
    .sort()
  expect(parsing).toEqual([
    'POST /auth/login',
    'POST /auth/mfa/verify',
    'POST /auth/passkeys/login/verify',
    'POST /auth/refresh',
    'POST /auth/register',
    'POST /auth/revoke',
  ])
})
