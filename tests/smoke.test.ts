import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHarness, type Harness } from './support/harness'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

test('health', async () => {
  const res = await h.call('GET', '/health')
  expect(res.status).toBe(200)
  expect(res.body.status).toBe('ok')
})
