import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let member: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  member = await h.register()
  org = await provision(h, owner, 'ns-org')
  await addMember(h, org, owner, member, 'member')
})
afterAll(() => h.close())

describe('namespaces', () => {
  test('a personal namespace is created on first use, once', async () => {
    const user = await h.register()
    const [a, b] = await Promise.all([
      h.call('GET', '/registry/namespaces', { token: user.token }),
      h.call('GET', '/registry/namespaces', { token: user.token }),
    ])
    expect(a.body.items).toEqual([
      { id: expect.any(String), ownerKind: 'customer', ownerId: user.user.id, slug: null, name: null, rdid: `user.${user.user.id.replaceAll('-', '')}` },
    ])
    expect(b.body.items[0].id).toBe(a.body.items[0].id)
    expect((await h.call('GET', `/registry/resolve/${a.body.items[0].rdid}`)).body.entityType).toBe('namespace')
  })

  test("lists the caller's organization namespaces too", async () => {
    const res = await h.call('GET', '/registry/namespaces', { token: member.token })
    expect(res.body.total).toBe(2)
    expect(res.body.items.map((n: { rdid: string }) => n.rdid)).toContain('org.ns-org')
  })

  test('PATCH renames own and administered namespaces; rdid stays; members get 403, strangers 404', async () => {
    const own = (await h.call('GET', '/registry/namespaces', { token: owner.token })).body.items.find((n: { ownerKind: string }) => n.ownerKind === 'customer')
    const res = await h.call('PATCH', `/registry/namespaces/${own.id}`, { token: owner.token, body: { slug: 'owner-space', name: 'Mine' } })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ id: own.id, slug: 'owner-space', name: 'Mine' })
    const orgNs = await h.call('PATCH', `/registry/namespaces/${org.namespace.id}`, { token: owner.token, body: { name: 'Renamed' } })
    expect(orgNs.body).toEqual({ id: org.namespace.id, slug: 'ns-org', name: 'Renamed' })
    expect((await h.call('GET', '/registry/resolve/org.ns-org')).status).toBe(200)
    expect((await h.call('PATCH', `/registry/namespaces/${org.namespace.id}`, { token: member.token, body: { name: 'x' } })).status).toBe(403)
    expect((await h.call('PATCH', `/registry/namespaces/${own.id}`, { token: member.token, body: { name: 'x' } })).status).toBe(404)
    const taken = await h.call('PATCH', `/registry/namespaces/${org.namespace.id}`, { token: owner.token, body: { slug: 'owner-space' } })
    expect(taken.status).toBe(409)
    expect((await h.call('PATCH', `/registry/namespaces/${own.id}`, { token: owner.token, body: { slug: 'Not Valid' } })).status).toBe(400)
  })
})

describe('identifiers', () => {
  test('resolve is public; unknown is 404', async () => {
    expect((await h.call('GET', '/registry/resolve/org.ns-org.main')).status).toBe(200)
    expect((await h.call('GET', '/registry/resolve/org.nothing.here')).status).toBe(404)
  })

  test('minting under an administered or own namespace works; elsewhere is 403; taken is 409', async () => {
    const entityId = crypto.randomUUID()
    const minted = await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org.apps.web', entityType: 'app', entityId } })
    expect(minted.status).toBe(201)
    expect(minted.body).toEqual({ rdid: 'org.ns-org.apps.web', entityType: 'app', entityId, createdBy: owner.user.id })
    expect((await h.call('GET', '/registry/resolve/org.ns-org.apps.web')).body).toEqual(minted.body)
    const personal = `user.${member.user.id.replaceAll('-', '')}.thing`
    expect((await h.call('POST', '/registry/identifiers', { token: member.token, body: { rdid: personal, entityType: 'thing', entityId } })).status).toBe(201)
    expect((await h.call('POST', '/registry/identifiers', { token: member.token, body: { rdid: 'org.ns-org.apps.ios', entityType: 'app', entityId } })).status).toBe(403)
    expect((await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'com.example.app', entityType: 'app', entityId } })).status).toBe(403)
    expect((await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org', entityType: 'app', entityId } })).status).toBe(403)
    expect((await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org.apps.web', entityType: 'app', entityId } })).status).toBe(409)
    const list = await h.call('GET', `/registry/identifiers?entityId=${entityId}`, { token: member.token })
    expect(list.body.total).toBe(2)
  })

  test('system entity types cannot be minted, so no rdid can impersonate a tenant', async () => {
    for (const entityType of ['ecosystem', 'organization', 'namespace']) {
      const res = await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: `org.ns-org.fake-${entityType}`, entityType, entityId: org.ecosystem.id } })
      expect(res.status).toBe(403)
    }
    expect((await h.call('GET', '/registry/resolve/org.ns-org.fake-ecosystem')).status).toBe(404)
  })

  test.each(['single', 'Upper.case', 'a..b', 'a.-b', 'a.b-', `${'a'.repeat(64)}.b`, `${'a.'.repeat(127)}aa`])('rdid %s is malformed: 400', async (rdid) => {
    const res = await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid, entityType: 'app', entityId: crypto.randomUUID() } })
    expect(res.status).toBe(400)
  })
})
