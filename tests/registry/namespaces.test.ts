import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { identifiers } from '../../src/modules/registry/schema'
import { createPersona } from '../support/personas'
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
    const entityId = (await createPersona(h, org.as(owner))).id
    const minted = await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org.apps.web', entityType: 'persona', entityId } })
    expect(minted.status).toBe(201)
    expect(minted.body).toEqual({ rdid: 'org.ns-org.apps.web', entityType: 'persona', entityId, createdBy: owner.user.id })
    expect((await h.call('GET', '/registry/resolve/org.ns-org.apps.web')).body).toEqual(minted.body)
    const personal = `user.${member.user.id.replaceAll('-', '')}.me`
    const self = await h.call('POST', '/registry/identifiers', { token: member.token, body: { rdid: personal, entityType: 'user', entityId: member.user.id } })
    expect(self.status).toBe(201)
    expect(
      (await h.call('POST', '/registry/identifiers', { token: member.token, body: { rdid: 'org.ns-org.apps.ios', entityType: 'persona', entityId } })).status,
    ).toBe(403)
    expect(
      (await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'com.example.app', entityType: 'persona', entityId } })).status,
    ).toBe(403)
    expect((await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org', entityType: 'persona', entityId } })).status).toBe(
      403,
    )
    expect(
      (await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org.apps.web', entityType: 'persona', entityId } })).status,
    ).toBe(409)
    expect(
      (await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org.apps.pwa', entityType: 'persona', entityId } })).status,
    ).toBe(201)
    const list = await h.call('GET', `/registry/identifiers?entityId=${entityId}`, { token: member.token })
    expect(list.body.total).toBe(2)
  })

  test("an rdid can only name an entity of the namespace's owner: another tenant's private persona is refused and never resolves", async () => {
    const stranger = await h.register()
    const other = await provision(h, stranger)
    const foreign = await createPersona(h, other.as(stranger), { visibility: 'private' })
    const res = await h.call('POST', '/registry/identifiers', {
      token: owner.token,
      body: { rdid: 'org.ns-org.stolen', entityType: 'persona', entityId: foreign.id },
    })
    expect(res.status).toBe(404)
    expect(res.body.error.code).toBe('entity_not_found')
    expect((await h.call('GET', '/registry/resolve/org.ns-org.stolen')).status).toBe(404)
    const personal = `user.${owner.user.id.replaceAll('-', '')}`
    const foreignUnderPersonal = await h.call('POST', '/registry/identifiers', {
      token: owner.token,
      body: { rdid: `${personal}.bot`, entityType: 'persona', entityId: foreign.id },
    })
    expect(foreignUnderPersonal.status).toBe(404)
    const someoneElse = await h.call('POST', '/registry/identifiers', {
      token: owner.token,
      body: { rdid: `${personal}.them`, entityType: 'user', entityId: stranger.user.id },
    })
    expect(someoneElse.status).toBe(404)
    const missing = await h.call('POST', '/registry/identifiers', {
      token: owner.token,
      body: { rdid: 'org.ns-org.ghost', entityType: 'persona', entityId: crypto.randomUUID() },
    })
    expect(missing.status).toBe(404)
  })

  test("an identifier stops resolving when its entity is deleted or was never the namespace owner's (minted before the check)", async () => {
    const persona = await createPersona(h, org.as(owner))
    expect(
      (await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid: 'org.ns-org.gone', entityType: 'persona', entityId: persona.id } }))
        .status,
    ).toBe(201)
    expect((await h.call('GET', '/registry/resolve/org.ns-org.gone')).status).toBe(200)
    expect((await h.call('DELETE', `/persona/personas/${persona.id}`, org.as(owner))).status).toBe(204)
    expect((await h.call('GET', '/registry/resolve/org.ns-org.gone')).status).toBe(404)

    const stranger = await h.register()
    const other = await provision(h, stranger)
    const foreign = await createPersona(h, other.as(stranger))
    await h.db.insert(identifiers).values([
      { rdid: 'org.ns-org.legacy-foreign', entityType: 'persona', entityId: foreign.id, createdBy: owner.user.id },
      { rdid: 'org.ns-org.legacy-app', entityType: 'app', entityId: crypto.randomUUID(), createdBy: owner.user.id },
    ])
    expect((await h.call('GET', '/registry/resolve/org.ns-org.legacy-foreign')).status).toBe(404)
    expect((await h.call('GET', '/registry/resolve/org.ns-org.legacy-app')).status).toBe(404)
    expect((await h.call('GET', `/registry/resolve/${other.namespace.rdid}.main`)).status).toBe(200)
  })

  test("OAuth clients are named under their registrant's personal namespace only", async () => {
    const client = await h.call('POST', '/oauth/clients', { token: owner.token, body: { name: 'Web', redirectUris: ['https://app.example.com/cb'] } })
    expect(client.status).toBe(201)
    const personal = `user.${owner.user.id.replaceAll('-', '')}`
    const mine = await h.call('POST', '/registry/identifiers', {
      token: owner.token,
      body: { rdid: `${personal}.web`, entityType: 'oauth_client', entityId: client.body.id },
    })
    expect(mine.status).toBe(201)
    const notMine = await h.call('POST', '/registry/identifiers', {
      token: member.token,
      body: { rdid: `user.${member.user.id.replaceAll('-', '')}.web`, entityType: 'oauth_client', entityId: client.body.id },
    })
    expect(notMine.status).toBe(404)
  })

  test('unknown entity types are refused with the list of known ones', async () => {
    const res = await h.call('POST', '/registry/identifiers', {
      token: owner.token,
      body: { rdid: 'org.ns-org.apps.x', entityType: 'app', entityId: crypto.randomUUID() },
    })
    expect(res.status).toBe(400)
    expect(res.body.error).toEqual({ code: 'unknown_entity_type', message: 'entityType must be one of oauth_client, persona, user' })
  })

  test('system entity types cannot be minted, so no rdid can impersonate a tenant', async () => {
    for (const entityType of ['ecosystem', 'organization', 'namespace']) {
      const res = await h.call('POST', '/registry/identifiers', {
        token: owner.token,
        body: { rdid: `org.ns-org.fake-${entityType}`, entityType, entityId: org.ecosystem.id },
      })
      expect(res.status).toBe(403)
    }
    expect((await h.call('GET', '/registry/resolve/org.ns-org.fake-ecosystem')).status).toBe(404)
  })

  test.each(['single', 'Upper.case', 'a..b', 'a.-b', 'a.b-', `${'a'.repeat(64)}.b`, `${'a.'.repeat(127)}aa`])('rdid %s is malformed: 400', async (rdid) => {
    const res = await h.call('POST', '/registry/identifiers', { token: owner.token, body: { rdid, entityType: 'persona', entityId: crypto.randomUUID() } })
    expect(res.status).toBe(400)
  })
})
