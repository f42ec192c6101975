import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
})
afterAll(() => h.close())

const count = async (table: string) => (await queryRows<{ n: number }>(h.db, sql.raw(`select count(*)::int as n from ${table}`)))[0]!.n

describe('POST /registry/organizations', () => {
  test('provisions organization, namespace, owner team and first ecosystem with identifiers', async () => {
    const res = await h.call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'acme', name: 'Acme Inc' } })
    expect(res.status).toBe(201)
    const { organization, namespace, teamId, ecosystem } = res.body
    expect(organization).toEqual({ id: expect.any(String), slug: 'acme', name: 'Acme Inc', requireMfa: false })
    expect(namespace).toEqual({ id: expect.any(String), ownerKind: 'organization', ownerId: organization.id, slug: 'acme', name: 'Acme Inc', rdid: 'org.acme' })
    expect(typeof teamId).toBe('string')
    expect(ecosystem).toMatchObject({ slug: 'main', rdid: 'org.acme.main', organizationId: organization.id })
    const members = await h.call('GET', `/team/members?organizationId=${organization.id}`, { token: owner.token })
    expect(members.body.items).toEqual([expect.objectContaining({ userId: owner.user.id, role: 'owner' })])
    for (const [rdid, entityType, entityId] of [
      ['org.acme', 'namespace', namespace.id],
      ['organization.acme', 'organization', organization.id],
      ['org.acme.main', 'ecosystem', ecosystem.id],
    ]) {
      const resolved = await h.call('GET', `/registry/resolve/${rdid}`)
      expect(resolved.body).toEqual({ rdid, entityType, entityId, createdBy: null })
    }
  })

  test('namespaceSlug and ecosystemSlug shape the prefixes', async () => {
    const res = await h.call('POST', '/registry/organizations', {
      token: owner.token,
      body: { slug: 'globex-corp', name: 'Globex', namespaceSlug: 'globex', ecosystemSlug: 'shop' },
    })
    expect(res.status).toBe(201)
    expect(res.body.namespace.rdid).toBe('org.globex')
    expect(res.body.ecosystem.rdid).toBe('org.globex.shop')
  })

  test('a taken slug is 409 and leaves nothing behind (one transaction)', async () => {
    const before = await Promise.all(
      ['registry.namespaces', 'registry.organizations', 'registry.ecosystems', 'registry.identifiers', 'team.teams', 'team.members'].map(count),
    )
    const taken = await h.call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'acme', name: 'Again' } })
    expect(taken.status).toBe(409)
    expect(taken.body.error.code).toBe('slug_taken')
    // namespace slug is fresh, organization slug collides late in the transaction
    const late = await h.call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'acme', name: 'Again', namespaceSlug: 'fresh-ns' } })
    expect(late.status).toBe(409)
    const after = await Promise.all(
      ['registry.namespaces', 'registry.organizations', 'registry.ecosystems', 'registry.identifiers', 'team.teams', 'team.members'].map(count),
    )
    expect(after).toEqual(before)
    expect((await h.call('GET', '/registry/resolve/org.fresh-ns')).status).toBe(404)
  })

  test.each([[{ slug: 'Upper', name: 'x' }], [{ slug: 'has.dot', name: 'x' }], [{ slug: '-lead', name: 'x' }], [{ slug: 'ok', name: '' }], [{ slug: 'ok' }]])(
    'bad input %j is 400',
    async (body) => {
      const res = await h.call('POST', '/registry/organizations', { token: owner.token, body })
      expect(res.status).toBe(400)
      expect(res.body.error.code).toBe('validation_failed')
    },
  )

  test("GET lists only the caller's organizations; GET one is 404 for non-members", async () => {
    const stranger = await h.register()
    const mine = await provision(h, owner)
    const theirs = await provision(h, stranger)
    const list = await h.call('GET', '/registry/organizations?pageSize=100', { token: owner.token })
    const ids = list.body.items.map((o: { id: string }) => o.id)
    expect(ids).toContain(mine.organization.id)
    expect(ids).not.toContain(theirs.organization.id)
    expect((await h.call('GET', `/registry/organizations/${mine.organization.id}`, { token: owner.token })).body).toEqual(mine.organization)
    expect((await h.call('GET', `/registry/organizations/${theirs.organization.id}`, { token: owner.token })).status).toBe(404)
    expect((await h.call('GET', '/registry/organizations')).status).toBe(401)
  })
})
