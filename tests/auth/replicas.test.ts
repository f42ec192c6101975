import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'

let h: Harness
let replica: Awaited<ReturnType<Harness['replica']>>
beforeAll(async () => {
  h = await createHarness()
  replica = await h.replica()
})
afterAll(async () => {
  await replica.close()
  await h.close()
})

test('a session revoked on one replica stops working at once on another that had it cached', async () => {
  const user = await h.register()
  const onReplica = () => replica.call('GET', '/auth/me', { token: user.token })
  expect((await onReplica()).status).toBe(200) // now cached as alive on the replica
  expect((await h.call('POST', '/auth/revoke-all', { token: user.token })).status).toBe(204)
  let status = 0
  for (let i = 0; i < 50 && status !== 401; i++) {
    status = (await onReplica()).status
    if (status !== 401) await Bun.sleep(10)
  }
  expect(status).toBe(401)
})
