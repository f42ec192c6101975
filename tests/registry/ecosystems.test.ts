import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let admin: RegisteredUser
let member: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  admin = await h.register()
  member = await h.register()
  org = await provision(h, owner, 'eco-org')
  await addMember(h, org, owner, admin, 'admin')
  await addMember(h, org, owner, member, 'member')
})
afterAll(() => h.close())

describe('ecosystems', () => {
  test('admins create ecosystems; rdid defaults to the namespace prefix + slug', async () => {
    const res = await h.call('POST', '/registry/ecosystems', {
      token: admin.token,
      body: { organizationId: org.organization.id, slug: 'staging', name: 'Staging' },
    })
    expect(res.status).toBe(201)
    expect(res.body).toEqual({
      id: expect.any(String),
      slug: 'staging',
      rdid: 'org.eco-org.staging',
      name: 'Staging',
      organizationId: org.organization.id,
      rateLimits: null,
    })
    expect((await h.call('GET', '/registry/resolve/org.eco-org.staging')).body.entityId).toBe(res.body.id)
  })

  test('a custom rdid must lie under the namespace prefix; duplicates are 409', async () => {
    const custom = await h.call('POST', '/registry/ecosystems', {
      token: owner.token,
      body: { organizationId: org.organization.id, slug: 'eu', rdid: 'org.eco-org.region.eu' },
    })
    expect(custom.status).toBe(201)
    expect(custom.body.rdid).toBe('org.eco-org.region.eu')
    const outside = await h.call('POST', '/registry/ecosystems', {
      token: owner.token,
      body: { organizationId: org.organization.id, slug: 'us', rdid: 'com.someone-else.us' },
    })
    expect(outside.status).toBe(403)
    const dup = await h.call('POST', '/registry/ecosystems', { token: owner.token, body: { organizationId: org.organization.id, slug: 'eu' } })
    expect(dup.status).toBe(409)
  })

  test('members cannot create; strangers get 404', async () => {
    const stranger = await h.register()
    expect((await h.call('POST', '/registry/ecosystems', { token: member.token, body: { organizationId: org.organization.id, slug: 'nope' } })).status).toBe(
      403,
    )
    expect((await h.call('POST', '/registry/ecosystems', { token: stranger.token, body: { organizationId: org.organization.id, slug: 'nope' } })).status).toBe(
      404,
    )
  })

  test('list shows reachable ecosystems only; get is 404 outside the organization', async () => {
    const stranger = await h.register()
    const list = await h.call('GET', '/registry/ecosystems?pageSize=100', { token: member.token })
    expect(list.body.items.map((e: { rdid: string }) => e.rdid)).toContain('org.eco-org.main')
    expect((await h.call('GET', '/registry/ecosystems', { token: stranger.token })).body).toEqual({ items: [], total: 0, page: 1, pageSize: 20 })
    expect((await h.call('GET', `/registry/ecosystems/${org.ecosystem.id}`, { token: member.token })).status).toBe(200)
    expect((await h.call('GET', `/registry/ecosystems/${org.ecosystem.id}`, { token: stranger.token })).status).toBe(404)
  })

  test('PATCH renames; an rdid in default form follows the slug and the old one stops resolving', async () => {
    const created = await h.call('POST', '/registry/ecosystems', { token: owner.token, body: { organizationId: org.organization.id, slug: 'beta' } })
    expect((await h.call('PATCH', `/registry/ecosystems/${created.body.id}`, { token: member.token, body: { name: 'x' } })).status).toBe(403)
    const res = await h.call('PATCH', `/registry/ecosystems/${created.body.id}`, { token: admin.token, body: { slug: 'gamma', name: 'Gamma' } })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ slug: 'gamma', rdid: 'org.eco-org.gamma', name: 'Gamma' })
    expect((await h.call('GET', '/registry/resolve/org.eco-org.beta')).status).toBe(404)
    expect((await h.call('GET', '/registry/resolve/org.eco-org.gamma')).body.entityId).toBe(created.body.id)
    expect((await h.call('PATCH', `/registry/ecosystems/${created.body.id}`, { token: admin.token, body: {} })).status).toBe(400)
  })

  test('DELETE (owner only) removes the ecosystem, its identifier, customers and their tokens', async () => {
    const created = await h.call('POST', '/registry/ecosystems', { token: owner.token, body: { organizationId: org.organization.id, slug: 'doomed' } })
    const doomed = { ...org, ecosystem: created.body, as: (u: RegisteredUser) => ({ token: u.token, headers: { 'x-ecosystem-id': created.body.id } }) }
    const customer = await customerOf(h, doomed, owner)
    expect((await h.call('GET', '/customer/me', { token: customer.token })).status).toBe(200)
    expect((await h.call('DELETE', `/registry/ecosystems/${created.body.id}`, { token: admin.token })).status).toBe(403)
    expect((await h.call('DELETE', `/registry/ecosystems/${created.body.id}`, { token: owner.token })).status).toBe(204)
    expect((await h.call('GET', `/registry/ecosystems/${created.body.id}`, { token: owner.token })).status).toBe(404)
    expect((await h.call('GET', '/registry/resolve/org.eco-org.doomed')).status).toBe(404)
    expect((await h.call('GET', '/customer/me', { token: customer.token })).status).toBe(401)
    expect((await h.call('GET', '/customer/customers', doomed.as(owner))).status).toBe(404)
  })
})
