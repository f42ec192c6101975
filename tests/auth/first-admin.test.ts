import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

test('with no ADMIN_EMAILS the first account becomes admin, once, and the server says so once', async () => {
  const results = await Promise.all([h.register(), h.register(), h.register()])
  const admins = results.filter((r) => r.user.capabilities.includes('admin'))
  expect(admins).toHaveLength(1)
  const later = await h.register()
  expect(later.user.capabilities).toEqual([])
  const said = h.logLines.filter((l) => l.includes('first account registered'))
  expect(said).toHaveLength(1)
  expect(JSON.parse(said[0]!).userId).toBe(admins[0]!.user.id)
})
