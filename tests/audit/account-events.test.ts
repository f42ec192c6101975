import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { emailTokens } from '../../src/modules/auth/schema'
import { randomToken, sha256Hex } from '../../src/platform/crypto'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'
import { expectNoneStored, expectOrigin, from, only, stored } from './support'

let h: Harness
let root: RegisteredUser
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ TRUST_PROXY: 'on' })
  root = await h.register() // the first account: platform admin
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const account = { ecosystemId: null, organizationId: null }
/** Every password, token and secret these tests send or receive: none may be in any audit event. */
const planted: string[] = []

describe('audit events of accounts (no ecosystem)', () => {
  test('registering and signing in: the account as actor and target, with the address, agent and request id', async () => {
    const email = `ada-${crypto.randomUUID().slice(0, 8)}@example.test`
    const reg = await h.call('POST', '/auth/register', { ...from(1), body: { email, password: 'correct-horse-1', name: 'Ada' } })
    expect(reg.status).toBe(201)
    planted.push('correct-horse-1', reg.body.token, reg.body.refreshToken)
    const userId = reg.body.user.id
    const registered = await only(h, 'auth.account.registered', userId)
    expect(registered).toMatchObject({ actorType: 'user', actorId: userId, targetType: 'user', ...account })
    expectOrigin(registered, 1)

    const login = await h.call('POST', '/auth/login', { ...from(2), body: { email, password: 'correct-horse-1' } })
    expect(login.status).toBe(200)
    planted.push(login.body.token, login.body.refreshToken)
    const signedIn = await only(h, 'auth.session.signed_in', userId)
    expect(signedIn).toMatchObject({
      actorType: 'user',
      actorId: userId,
      targetType: 'user',
      ...account,
      metadata: { method: 'password', sessionId: expect.any(String) },
    })
    expectOrigin(signedIn, 2)
  })

  test('a failed sign-in is recorded on its own, with no actor and never the e-mail as typed', async () => {
    const user = await h.register()
    const wrong = await h.call('POST', '/auth/login', { ...from(3), body: { email: user.email, password: 'not-the-password' } })
    expect(wrong.status).toBe(401)
    const failed = await only(h, 'auth.sign_in.failed', user.user.id)
    expect(failed).toMatchObject({
      actorType: 'user',
      actorId: null,
      targetType: 'user',
      ...account,
      metadata: { method: 'password', reason: 'wrong_password' },
    })
    expectOrigin(failed, 3)

    const typo = 'pass-word-typed-into-the-email-field@example.test'
    planted.push(typo, 'not-the-password', 'whatever-1')
    expect((await h.call('POST', '/auth/login', { ...from(4), body: { email: typo, password: 'whatever-1' } })).status).toBe(401)
    const unknown = await only(h, 'auth.sign_in.failed', null)
    expect(unknown.metadata).toEqual({ method: 'password', reason: 'unknown_account' })
    expectOrigin(unknown, 4)
    expect(JSON.stringify(await stored(h, 'auth.sign_in.failed'))).not.toContain(typo)
  })

  test('password change and reset, and sign-out everywhere', async () => {
    const user = await h.register()
    const changed = await h.call('POST', '/auth/change-password', {
      ...from(5, user),
      body: { currentPassword: user.password, newPassword: 'a-new-password-5' },
    })
    expect(changed.status).toBe(204)
    const change = await only(h, 'auth.password.changed', user.user.id)
    expect(change).toMatchObject({ actorType: 'user', actorId: user.user.id, targetType: 'user', ...account })
    expectOrigin(change, 5)

    // A reset token as the mailer would have stored it.
    const token = randomToken(32)
    planted.push(user.password, 'a-new-password-5', 'a-reset-password-6', token)
    await h.db.insert(emailTokens).values({
      tokenHash: sha256Hex(token),
      userId: user.user.id,
      purpose: 'password_reset',
      emailKey: user.email.toLowerCase(),
      expiresAt: new Date(Date.now() + 600_000),
    })
    expect((await h.call('POST', '/auth/password-reset/confirm', { ...from(6), body: { token, newPassword: 'a-reset-password-6' } })).status).toBe(204)
    const reset = await only(h, 'auth.password.reset', user.user.id)
    expect(reset).toMatchObject({ actorType: 'user', actorId: user.user.id, targetType: 'user', ...account })
    expectOrigin(reset, 6)

    const login = await h.call('POST', '/auth/login', { body: { email: user.email, password: 'a-reset-password-6' } })
    expect((await h.call('POST', '/auth/revoke-all', from(7, login.body))).status).toBe(204)
    const revoked = await only(h, 'auth.session.revoked_all', user.user.id)
    expect(revoked).toMatchObject({ actorType: 'user', actorId: user.user.id, ...account })
    expectOrigin(revoked, 7)
  })

  test('API tokens created and revoked; what a token does is done by the token, for its account', async () => {
    const created = await h.call('POST', '/auth/tokens', { ...from(8, owner), body: { name: 'deploy bot' } })
    expect(created.status).toBe(201)
    planted.push(created.body.token)
    const event = await only(h, 'auth.api_token.created', created.body.id)
    expect(event).toMatchObject({
      actorType: 'user',
      actorId: owner.user.id,
      targetType: 'api_token',
      ...account,
      metadata: { name: 'deploy bot', expiresAt: null },
    })
    expectOrigin(event, 8)

    const hook = await h.call('POST', '/integrations/webhooks', {
      ...from(9, { token: created.body.token }, org.ecosystem.id),
      body: { url: 'https://hooks.example.test/in', events: ['customer.created'] },
    })
    expect(hook.status).toBe(201)
    const byToken = await only(h, 'integrations.webhook.created', hook.body.id)
    expect(byToken).toMatchObject({ actorType: 'api_token', actorId: created.body.id, actorUserId: owner.user.id, ecosystemId: org.ecosystem.id })
    expectOrigin(byToken, 9)

    expect((await h.call('DELETE', `/auth/tokens/${created.body.id}`, from(10, owner))).status).toBe(204)
    const revoked = await only(h, 'auth.api_token.revoked', created.body.id)
    expect(revoked).toMatchObject({ actorType: 'user', actorId: owner.user.id, ...account, metadata: { name: 'deploy bot' } })
    expectOrigin(revoked, 10)
    // A failed change writes nothing.
    expect((await h.call('DELETE', `/auth/tokens/${created.body.id}`, from(10, owner))).status).toBe(404)
    expect((await stored(h, 'auth.api_token.revoked')).filter((r) => r.targetId === created.body.id).length).toBe(1)
  })

  test('OAuth clients: created, updated, secret rotated, deleted; the public client id, never the secret', async () => {
    const created = await h.call('POST', '/oauth/clients', { ...from(11, owner), body: { name: 'Notes app', redirectUris: ['https://notes.example.test/cb'] } })
    expect(created.status).toBe(201)
    const id = created.body.id
    const facts = { clientId: created.body.clientId, name: 'Notes app' }
    expect(await only(h, 'oauth.client.created', id)).toMatchObject({
      actorType: 'user',
      actorId: owner.user.id,
      targetType: 'oauth_client',
      ...account,
      metadata: facts,
    })
    await h.call('PATCH', `/oauth/clients/${id}`, { ...from(12, owner), body: { redirectUris: ['https://notes.example.test/cb2'] } })
    expect((await only(h, 'oauth.client.updated', id)).metadata).toEqual({ ...facts, changed: ['redirectUris'] })
    const rotated = await h.call('POST', `/oauth/clients/${id}/secret`, from(13, owner))
    planted.push(created.body.clientSecret, rotated.body.clientSecret)
    const rotation = await only(h, 'oauth.client.secret_rotated', id)
    expectOrigin(rotation, 13)
    expect((await h.call('DELETE', `/oauth/clients/${id}`, from(14, owner))).status).toBe(204)
    expectOrigin(await only(h, 'oauth.client.deleted', id), 14)
    const all = JSON.stringify(await stored(h, 'oauth.client.created')) + JSON.stringify(rotation)
    expect(all).not.toContain(created.body.clientSecret)
    expect(all).not.toContain(rotated.body.clientSecret)
  })

  test('sign-in method settings, by platform admins', async () => {
    // Not an admin: refused, nothing recorded.
    expect((await h.call('PUT', '/settings/auth-methods/password', { ...from(15, owner), body: { enabled: false } })).status).toBe(403)
    expect(await stored(h, 'settings.auth_method.changed')).toEqual([])
    expect((await h.call('PUT', '/settings/auth-methods/password', { ...from(16, root), body: { enabled: false } })).status).toBe(200)
    expect((await h.call('PUT', '/settings/auth-methods/password', { ...from(17, root), body: { enabled: true } })).status).toBe(200)
    const [off, on] = await stored(h, 'settings.auth_method.changed')
    expect(off).toMatchObject({
      actorType: 'user',
      actorId: root.user.id,
      targetType: 'auth_method',
      targetId: 'password',
      ...account,
      metadata: { method: 'password', enabled: false },
    })
    expectOrigin(off!, 16)
    expect(on!.metadata).toEqual({ method: 'password', enabled: true })
  })
})

describe('audit events of organizations: team and registry (organization, no ecosystem)', () => {
  test('members added, role changed, removed, and leaving', async () => {
    const alice = await h.register()
    const bob = await h.register()
    const orgEvent = { ecosystemId: null, organizationId: org.organization.id }
    const added = await h.call('POST', '/team/members', {
      ...from(20, owner),
      body: { organizationId: org.organization.id, email: alice.email, role: 'member' },
    })
    expect(added.status).toBe(201)
    const addition = await only(h, 'team.member.added', added.body.id)
    expect(addition).toMatchObject({
      actorType: 'user',
      actorId: owner.user.id,
      targetType: 'team_member',
      ...orgEvent,
      metadata: { userId: alice.user.id, role: 'member' },
    })
    expectOrigin(addition, 20)

    expect((await h.call('PATCH', `/team/members/${added.body.id}`, { ...from(21, owner), body: { role: 'admin' } })).status).toBe(200)
    const change = await only(h, 'team.member.role_changed', added.body.id)
    expect(change).toMatchObject({ actorId: owner.user.id, ...orgEvent, metadata: { userId: alice.user.id, from: 'member', to: 'admin' } })
    expectOrigin(change, 21)
    // The same role again changes nothing and records nothing.
    await h.call('PATCH', `/team/members/${added.body.id}`, { ...from(21, owner), body: { role: 'admin' } })
    expect((await stored(h, 'team.member.role_changed')).filter((r) => r.targetId === added.body.id).length).toBe(1)
    // Refused (an admin cannot make owners): nothing recorded.
    const bobMember = await h.call('POST', '/team/members', {
      token: owner.token,
      body: { organizationId: org.organization.id, email: bob.email, role: 'member' },
    })
    expect((await h.call('PATCH', `/team/members/${bobMember.body.id}`, { token: alice.token, body: { role: 'owner' } })).status).toBe(403)
    expect((await stored(h, 'team.member.role_changed')).filter((r) => r.targetId === bobMember.body.id)).toEqual([])

    expect((await h.call('DELETE', `/team/members/${bobMember.body.id}`, from(22, alice))).status).toBe(204)
    expect(await only(h, 'team.member.removed', bobMember.body.id)).toMatchObject({
      actorId: alice.user.id,
      ...orgEvent,
      metadata: { userId: bob.user.id, role: 'member' },
    })
    expect((await h.call('DELETE', `/team/members/${added.body.id}`, from(23, alice))).status).toBe(204)
    const left = await only(h, 'team.member.left', added.body.id)
    expect(left).toMatchObject({ actorId: alice.user.id, ...orgEvent, metadata: { userId: alice.user.id, role: 'admin' } })
    expectOrigin(left, 23)
  })

  test('organizations provisioned, ecosystems created, renamed and deleted', async () => {
    const user = await h.register()
    const slug = `audit-org-${crypto.randomUUID().slice(0, 6)}`
    const made = await h.call('POST', '/registry/organizations', { ...from(30, user), body: { slug, name: 'Audit Org' } })
    expect(made.status).toBe(201)
    const organizationId = made.body.organization.id
    const orgEvent = { ecosystemId: null, organizationId }
    expect(await only(h, 'registry.organization.created', organizationId)).toMatchObject({
      actorId: user.user.id,
      ...orgEvent,
      metadata: { slug, ecosystemId: made.body.ecosystem.id },
    })
    const eco = await h.call('POST', '/registry/ecosystems', { ...from(31, user), body: { organizationId, slug: 'second' } })
    expect(await only(h, 'registry.ecosystem.created', eco.body.id)).toMatchObject({ actorId: user.user.id, targetType: 'ecosystem', ...orgEvent })
    await h.call('PATCH', `/registry/ecosystems/${eco.body.id}`, { ...from(32, user), body: { name: 'Second' } })
    expect((await only(h, 'registry.ecosystem.updated', eco.body.id)).metadata).toMatchObject({ changed: ['name'] })
    expect((await h.call('DELETE', `/registry/ecosystems/${eco.body.id}`, from(33, user))).status).toBe(204)
    const deleted = await only(h, 'registry.ecosystem.deleted', eco.body.id)
    expect(deleted).toMatchObject({ actorId: user.user.id, ...orgEvent, metadata: { slug: 'second' } })
    expectOrigin(deleted, 33)
  })
})

describe('secrets', () => {
  test('no stored audit event holds a password, token or secret these tests planted', async () => {
    for (const user of [root, owner]) planted.push(user.password, user.token, user.refreshToken)
    expect(planted.length).toBeGreaterThan(15)
    await expectNoneStored(h, planted)
  })
})
