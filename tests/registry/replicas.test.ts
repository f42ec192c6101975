import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'

/** Two replicas over one database: the ecosystem lookup cache of one follows changes made on the other. */
let h: Harness
let replica: Awaited<ReturnType<Harness['replica']>>
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  replica = await h.replica()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(async () => {
  await replica.close()
  await h.close()
})

/** Polls the replica (NOTIFY arrives asynchronously) until it answers `status`; returns the last status. */
async function replicaAnswers(ecosystem: string, status: number): Promise<number> {
  let last = 0
  for (let i = 0; i < 50 && last !== status; i++) {
    last = (await replica.call('GET', '/customer/me', { token: owner.token, headers: { 'x-ecosystem-id': ecosystem } })).status
    if (last !== status) await Bun.sleep(10)
  }
  return last
}

test('a renamed ecosystem stops answering to its old rdid at once on another replica', async () => {
  const created = await h.call('POST', '/registry/ecosystems', { token: owner.token, body: { organizationId: org.organization.id, slug: 'before' } })
  const oldRdid: string = created.body.rdid
  expect(await replicaAnswers(oldRdid, 200)).toBe(200) // now cached on the replica
  const renamed = await h.call('PATCH', `/registry/ecosystems/${created.body.id}`, { token: owner.token, body: { slug: 'after' } })
  expect(renamed.body.rdid).not.toBe(oldRdid)
  expect(await replicaAnswers(oldRdid, 404)).toBe(404)
  expect(await replicaAnswers(renamed.body.rdid, 200)).toBe(200)
})

test('a deleted ecosystem is gone at once on another replica (404, never a half-written record)', async () => {
  const created = await h.call('POST', '/registry/ecosystems', { token: owner.token, body: { organizationId: org.organization.id, slug: 'doomed' } })
  expect(await replicaAnswers(created.body.id, 200)).toBe(200)
  expect(await replicaAnswers(created.body.rdid, 200)).toBe(200)
  expect((await h.call('DELETE', `/registry/ecosystems/${created.body.id}`, { token: owner.token })).status).toBe(204)
  expect(await replicaAnswers(created.body.id, 404)).toBe(404)
  expect(await replicaAnswers(created.body.rdid, 404)).toBe(404)
})
