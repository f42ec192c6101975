import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { addMember, provision } from '../support/tenancy'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

const members = (org: { organization: { id: string } }, as: RegisteredUser) =>
  h.call('GET', `/team/members?organizationId=${org.organization.id}`, { token: as.token })

describe('team members', () => {
  test('owners and admins add existing accounts; the list shows e-mail, name and role', async () => {
    const owner = await h.register()
    const admin = await h.register({ name: 'Ada Admin' })
    const org = await provision(h, owner)
    const added = await h.call('POST', '/team/members', {
      token: owner.token,
      body: { organizationId: org.organization.id, email: admin.email.toUpperCase(), role: 'admin' },
    })
    expect(added.status).toBe(201)
    expect(added.body).toEqual({
      id: expect.any(String),
      organizationId: org.organization.id,
      userId: admin.user.id,
      email: admin.email,
      name: 'Ada Admin',
      mfa: false,
      role: 'admin',
      createdAt: expect.any(String),
    })
    const list = await members(org, admin)
    expect(list.body.total).toBe(2)
    expect(list.body.items.map((m: { role: string }) => m.role)).toEqual(['owner', 'admin'])
  })

  test('unknown e-mail 404 user_not_found; duplicates 409 already_member; bad role 400', async () => {
    const owner = await h.register()
    const other = await h.register()
    const org = await provision(h, owner)
    const unknown = await h.call('POST', '/team/members', {
      token: owner.token,
      body: { organizationId: org.organization.id, email: 'ghost@example.test', role: 'member' },
    })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe('user_not_found')
    await addMember(h, org, owner, other, 'member')
    const dup = await h.call('POST', '/team/members', { token: owner.token, body: { organizationId: org.organization.id, email: other.email, role: 'admin' } })
    expect(dup.status).toBe(409)
    expect(dup.body.error.code).toBe('already_member')
    const bad = await h.call('POST', '/team/members', { token: owner.token, body: { organizationId: org.organization.id, email: other.email, role: 'king' } })
    expect(bad.status).toBe(400)
  })

  test('members cannot manage; admins cannot make owners; strangers see 404', async () => {
    const owner = await h.register()
    const admin = await h.register()
    const member = await h.register()
    const stranger = await h.register()
    const newcomer = await h.register()
    const org = await provision(h, owner)
    await addMember(h, org, owner, admin, 'admin')
    const m = await addMember(h, org, owner, member, 'member')
    const body = { organizationId: org.organization.id, email: newcomer.email, role: 'member' }
    expect((await h.call('POST', '/team/members', { token: member.token, body })).status).toBe(403)
    expect((await h.call('POST', '/team/members', { token: admin.token, body: { ...body, role: 'owner' } })).status).toBe(403)
    expect((await h.call('PATCH', `/team/members/${m.id}`, { token: admin.token, body: { role: 'owner' } })).status).toBe(403)
    expect((await h.call('PATCH', `/team/members/${m.id}`, { token: admin.token, body: { role: 'admin' } })).status).toBe(200)
    expect((await members(org, stranger)).status).toBe(404)
    expect((await h.call('POST', '/team/members', { token: stranger.token, body })).status).toBe(404)
    expect((await h.call('PATCH', `/team/members/${m.id}`, { token: stranger.token, body: { role: 'member' } })).status).toBe(404)
    expect((await h.call('DELETE', `/team/members/${m.id}`, { token: stranger.token })).status).toBe(404)
  })

  test('the last owner can be neither demoted nor removed (409 last_owner); with two owners one may go', async () => {
    const owner = await h.register()
    const second = await h.register()
    const org = await provision(h, owner)
    const own = (await members(org, owner)).body.items[0]
    const demote = await h.call('PATCH', `/team/members/${own.id}`, { token: owner.token, body: { role: 'admin' } })
    expect(demote.status).toBe(409)
    expect(demote.body.error.code).toBe('last_owner')
    expect((await h.call('DELETE', `/team/members/${own.id}`, { token: owner.token })).status).toBe(409)
    const s = await addMember(h, org, owner, second, 'owner')
    expect((await h.call('PATCH', `/team/members/${own.id}`, { token: owner.token, body: { role: 'admin' } })).status).toBe(200)
    expect((await h.call('DELETE', `/team/members/${s.id}`, { token: second.token })).status).toBe(409)
  })

  test('two owners removing each other at once: one wins, an owner always remains', async () => {
    const a = await h.register()
    const b = await h.register()
    const org = await provision(h, a)
    const mb = await addMember(h, org, a, b, 'owner')
    const ma = (await members(org, a)).body.items.find((m: { userId: string }) => m.userId === a.user.id)
    const results = await Promise.all([
      h.call('DELETE', `/team/members/${mb.id}`, { token: a.token }),
      h.call('DELETE', `/team/members/${ma.id}`, { token: b.token }),
    ])
    // The loser is refused either as no longer a member (404) or as the last owner (409).
    const [won, lost] = results.map((r) => r.status).sort()
    expect(won).toBe(204)
    expect([404, 409]).toContain(lost!)
    const [owners] = await queryRows<{ n: number }>(
      h.db,
      sql`select count(*)::int as n from team.members m join team.teams t on t.id = m.team_id where t.organization_id = ${org.organization.id} and m.role = 'owner'`,
    )
    expect(owners!.n).toBe(1)
  })

  test('anyone may leave; admins remove members; removed members lose access', async () => {
    const owner = await h.register()
    const member = await h.register()
    const leaver = await h.register()
    const org = await provision(h, owner)
    const m = await addMember(h, org, owner, member, 'member')
    const l = await addMember(h, org, owner, leaver, 'member')
    expect((await h.call('DELETE', `/team/members/${l.id}`, { token: leaver.token })).status).toBe(204)
    expect((await h.call('DELETE', `/team/members/${m.id}`, { token: owner.token })).status).toBe(204)
    expect((await members(org, member)).status).toBe(404)
    expect((await h.call('GET', '/customer/me', org.as(member))).status).toBe(403)
  })
})
