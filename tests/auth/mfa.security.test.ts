import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { only } from '../audit/support'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { mfaKit } from '../support/mfa'
import { startSmtp } from '../support/smtp'
import { addMember, provision } from '../support/tenancy'
import { until } from '../support/wait'

// Second factors against an attacker: a token from before the first factor, API tokens, a password
// alone (aal1), an organization's policy, and an administrator's reset.

const smtp = await startSmtp()
const ADMINS = [1, 2].map((n) => `admin${n}-${crypto.randomUUID().slice(0, 8)}@example.test`)
let h: Harness
let mfa: ReturnType<typeof mfaKit>
beforeAll(async () => {
  h = await createHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Ecobase <accounts@example.test>', ADMIN_EMAILS: ADMINS.join(',') })
  mfa = mfaKit(h)
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})

const subjects = (user: RegisteredUser) =>
  smtp.received.filter((m) => m.envelope.to.includes(user.email.toLowerCase())).map((m) => ({ subject: m.parsed.subject, text: m.parsed.text ?? '' }))
const code = (res: { status: number; body: { error?: { code: string } } }) => [res.status, res.body?.error?.code]

describe('a token issued before the first factor', () => {
  test('the stale-token sequence: another session from before enrolment cannot remove the factor, mint an API token or add its passkey', async () => {
    const owner = await h.register()
    // The attacker holds a session from before the owner turned on a second factor (aal1, no factor then).
    const attacker = await mfa.login(owner)
    expect((await h.call('GET', '/auth/tokens', { token: attacker.token })).status).toBe(200)

    const { factorId } = await mfa.enrol(owner)
    // Enrolling the first factor ended every other session: the attacker's access and refresh tokens stop working.
    expect(code(await h.call('DELETE', `/auth/mfa/factors/${factorId}`, { token: attacker.token }))).toEqual([401, 'unauthorized'])
    expect(code(await h.call('POST', '/auth/tokens', { token: attacker.token, body: { name: 'stolen' } }))).toEqual([401, 'unauthorized'])
    expect(code(await h.call('POST', '/auth/passkeys/register/options', { token: attacker.token }))).toEqual([401, 'unauthorized'])
    expect(code(await h.call('POST', '/auth/refresh', { body: { refreshToken: attacker.refreshToken } }))).toEqual([401, 'invalid_refresh_token'])

    // The enrolling session stays; its next refresh is aal2, and the factor is still there.
    const refreshed = (await h.call('POST', '/auth/refresh', { body: { refreshToken: owner.refreshToken } })).body
    const me = (await h.call('GET', '/auth/me', { token: refreshed.token })).body
    expect([me.aal, me.mfa.enabled, me.mfa.factors.map((f: { id: string }) => f.id)]).toEqual(['aal2', true, [factorId]])
    expect((await h.call('GET', '/auth/tokens', { token: refreshed.token })).body.total).toBe(0)
    // The e-mail says the other sessions were signed out.
    await until(() => subjects(owner).some((m) => m.subject === 'Account security: A second factor was added to your account'))
    expect(subjects(owner).find((m) => m.subject === 'Account security: A second factor was added to your account')!.text).toContain(
      'Every other session of your account was signed out',
    )
    expect((await only(h, 'auth.mfa.enrolled', owner.user.id)).metadata).toMatchObject({ otherSessionsRevoked: true })
  })

  test('whether the account has a factor is read from the account: an access token that says "no factor" is refused like any aal1 token', async () => {
    const owner = await h.register()
    const { factorId } = await mfa.enrol(owner)
    const weak = await mfa.login(owner)
    const { sid } = JSON.parse(Buffer.from(weak.token.split('.')[1]!, 'base64url').toString()) as { sid: string }
    // The same live session, with the claim the service used to trust.
    const forged = await h.deps.tokens.sign({ sub: owner.user.id, typ: 'user', sid, aal: 'aal1', amr: ['pwd'], mfa: false }, 900)
    expect((await h.call('GET', '/auth/me', { token: forged })).body.mfa.enabled).toBe(true)
    expect(code(await h.call('DELETE', `/auth/mfa/factors/${factorId}`, { token: forged }))).toEqual([403, 'mfa_required'])
    expect(code(await h.call('POST', '/auth/tokens', { token: forged, body: { name: 'x' } }))).toEqual([403, 'mfa_required'])
    expect(code(await h.call('POST', '/auth/passkeys/register/options', { token: forged }))).toEqual([403, 'mfa_required'])
    expect(code(await h.call('POST', '/registry/organizations', { token: forged, body: { slug: `f-${crypto.randomUUID().slice(0, 6)}`, name: 'x' } }))).toEqual(
      [403, 'mfa_required'],
    )
  })

  test('on another replica: the old session ends there too, and the enrolling session’s aal1 token meets the factor', async () => {
    const replica = await h.replica()
    try {
      const owner = await h.register()
      const other = await mfa.login(owner)
      // Both sessions and the account (no factor) are now in the replica's memory.
      expect((await replica.call('GET', '/auth/tokens', { token: other.token })).status).toBe(200)
      expect((await replica.call('GET', '/auth/tokens', { token: owner.token })).status).toBe(200)
      await mfa.enrol(owner)
      await until(async () => (await replica.call('GET', '/auth/tokens', { token: other.token })).status === 401)
      await until(async () => code(await replica.call('GET', '/auth/tokens', { token: owner.token }))[1] === 'mfa_required')
    } finally {
      await replica.close()
    }
  })
})

describe('API tokens are not interactive sessions', () => {
  /** Every credential route, as an API token would call it. */
  const credentialRoutes = (ids: { factorId: string; tokenId: string; userId: string }): [string, string, unknown?][] => [
    ['POST', '/auth/mfa/totp', { name: 'Phone' }],
    ['POST', `/auth/mfa/totp/${ids.factorId}/confirm`, { code: '123456' }],
    ['POST', '/auth/mfa/verify', { code: '123456' }],
    ['POST', '/auth/mfa/verify/options'],
    ['POST', '/auth/mfa/recovery-codes'],
    ['DELETE', `/auth/mfa/factors/${ids.factorId}`],
    ['GET', '/auth/passkeys'],
    ['POST', '/auth/passkeys/register/options'],
    ['POST', '/auth/passkeys/register/verify', { response: { id: 'x', rawId: 'x', type: 'public-key', response: {} }, name: 'Key' }],
    ['DELETE', `/auth/passkeys/${ids.factorId}`],
    ['GET', '/auth/tokens'],
    ['POST', '/auth/tokens', { name: 'more' }],
    ['DELETE', `/auth/tokens/${ids.tokenId}`],
    ['POST', '/auth/revoke-all'],
    ['POST', '/auth/change-password', { currentPassword: 'whatever-it-is', newPassword: 'a-new-password' }],
  ]

  test('whatever the account, an API token cannot manage factors, passkeys, recovery codes, tokens, sessions or the password (403 interactive_session_required); it still acts elsewhere', async () => {
    // An account without a factor (its token made at aal1) and one with a factor (its token made at aal2).
    const plain = await h.register()
    const guarded = await h.register()
    const { secret, factorId } = await mfa.enrol(guarded)
    const strong = await mfa.strong(guarded, secret)
    for (const [user, session, factor] of [
      [plain, plain.token, crypto.randomUUID()],
      [guarded, strong.token, factorId],
    ] as const) {
      const made = await h.call('POST', '/auth/tokens', { token: session, body: { name: 'ci' } })
      expect(made.status).toBe(201)
      for (const [method, path, body] of credentialRoutes({ factorId: factor, tokenId: made.body.id, userId: user.user.id })) {
        expect(code(await h.call(method, path, { token: made.body.token, body })), `${method} ${path}`).toEqual([403, 'interactive_session_required'])
      }
      expect((await h.call('GET', '/auth/me', { token: made.body.token })).body.id).toBe(user.user.id)
      expect(
        (await h.call('POST', '/registry/organizations', { token: made.body.token, body: { slug: `t-${crypto.randomUUID().slice(0, 6)}`, name: 'By token' } }))
          .status,
      ).toBe(201)
    }
    // Nothing changed: the factor, the tokens and the sessions are as they were.
    expect((await h.call('GET', '/auth/me', { token: strong.token })).body.mfa.factors.map((f: { id: string }) => f.id)).toEqual([factorId])
    expect((await h.call('GET', '/auth/tokens', { token: strong.token })).body.total).toBe(1)
  })

  test('an admin’s API token cannot reset another account’s factors', async () => {
    const admin = await h.register({ email: ADMINS[0] })
    const target = await h.register()
    const { factorId } = await mfa.enrol(target)
    const made = await h.call('POST', '/auth/tokens', { token: admin.token, body: { name: 'ops' } })
    expect(code(await h.call('DELETE', `/auth/admin/users/${target.user.id}/factors`, { token: made.body.token }))).toEqual([
      403,
      'interactive_session_required',
    ])
    const relogin = await mfa.login(target)
    expect((await h.call('GET', '/auth/me', { token: relogin.token })).body.mfa.factors.map((f: { id: string }) => f.id)).toEqual([factorId])
  })
})

describe('aal2 for profile changes and signing out everywhere', () => {
  test('a password alone (aal1) cannot rename the account, take a slug or end the owner’s verified sessions; aal2 can', async () => {
    const owner = await h.register()
    const { secret } = await mfa.enrol(owner)
    const verified = await mfa.strong(owner, secret)
    const weak = await mfa.login(owner)
    expect(code(await h.call('PATCH', '/auth/me', { token: weak.token, body: { name: 'Mallory' } }))).toEqual([403, 'mfa_required'])
    expect(code(await h.call('PATCH', '/auth/me', { token: weak.token, body: { slug: `m-${crypto.randomUUID().slice(0, 6)}` } }))).toEqual([
      403,
      'mfa_required',
    ])
    expect(code(await h.call('POST', '/auth/revoke-all', { token: weak.token }))).toEqual([403, 'mfa_required'])
    const me = (await h.call('GET', '/auth/me', { token: verified.token })).body
    expect([me.name, me.slug]).toEqual([owner.user.name, null])

    expect((await h.call('PATCH', '/auth/me', { token: verified.token, body: { name: 'Owner' } })).body.name).toBe('Owner')
    expect((await h.call('POST', '/auth/revoke-all', { token: verified.token })).status).toBe(204)
    expect((await h.call('GET', '/auth/me', { token: verified.token })).status).toBe(401)
    expect((await h.call('GET', '/auth/me', { token: weak.token })).status).toBe(401)
  })
})

describe('an organization requiring a second factor, against API tokens', () => {
  test('a member’s API token acts in its ecosystems only while the member has a verified factor; the team list shows who has one', async () => {
    const owner = await h.register()
    const ownerFactor = await mfa.enrol(owner)
    const ownerStrong = { ...owner, ...(await mfa.strong(owner, ownerFactor.secret)) }
    const org = await provision(h, ownerStrong)
    const member = await h.register()
    await addMember(h, org, ownerStrong, member, 'admin')
    // Made at aal1 while the member had no factor: allowed (nothing to verify then).
    const made = await h.call('POST', '/auth/tokens', { token: member.token, body: { name: 'deploy' } })
    const asToken = { token: made.body.token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
    expect((await h.call('GET', '/customer/customers', asToken)).status).toBe(200)
    const list = async () =>
      (await h.call('GET', `/team/members?organizationId=${org.organization.id}`, { token: ownerStrong.token })).body.items.map(
        (m: { userId: string; mfa: boolean }) => [m.userId, m.mfa],
      )

    expect(
      (await h.call('PATCH', `/registry/organizations/${org.organization.id}/policy`, { token: ownerStrong.token, body: { requireMfa: true } })).status,
    ).toBe(200)
    expect(await list()).toEqual([
      [owner.user.id, true],
      [member.user.id, false],
    ])
    const refused = await h.call('GET', '/customer/customers', asToken)
    expect(code(refused)).toEqual([403, 'mfa_required'])
    expect(refused.body.error.message).toContain('this token’s account has none')
    // Its session is refused alike; elsewhere (outside the organization) the token still works.
    expect(code(await h.call('GET', '/customer/customers', org.as(member)))).toEqual([403, 'mfa_required'])
    expect((await h.call('GET', '/auth/me', { token: made.body.token })).status).toBe(200)

    // The member enrolls: the same token acts again, and the list says so.
    const { secret, factorId } = await mfa.enrol(member)
    expect((await h.call('GET', '/customer/customers', asToken)).status).toBe(200)
    expect(await list()).toEqual([
      [owner.user.id, true],
      [member.user.id, true],
    ])
    // A session must still verify it; a verified one acts.
    expect(code(await h.call('GET', '/customer/customers', org.as({ ...member, ...(await mfa.login(member)) })))).toEqual([403, 'mfa_required'])
    const memberStrong = await mfa.strong(member, secret)
    expect((await h.call('GET', '/customer/customers', org.as({ ...member, ...memberStrong }))).status).toBe(200)

    // The factor removed: the token and even the aal2 session stop acting there.
    expect((await h.call('DELETE', `/auth/mfa/factors/${factorId}`, { token: memberStrong.token })).status).toBe(204)
    expect(code(await h.call('GET', '/customer/customers', asToken))).toEqual([403, 'mfa_required'])
    expect(code(await h.call('GET', '/customer/customers', org.as({ ...member, ...memberStrong })))).toEqual([403, 'mfa_required'])
    expect(await list()).toEqual([
      [owner.user.id, true],
      [member.user.id, false],
    ])
  })
})

describe('an administrator resets an account’s second factors', () => {
  test('platform admins only, at aal2; every factor, passkey and recovery code goes, sessions end, audited, the owner e-mailed', async () => {
    const admin = await h.register({ email: ADMINS[1] })
    const adminFactor = await mfa.enrol(admin)
    const target = await h.register()
    const { secret, recoveryCodes } = await mfa.enrol(target)
    await mfa.enrol(await mfa.strong(target, secret), 'Tablet')
    const targetSession = await mfa.login(target)
    const path = `/auth/admin/users/${target.user.id}/factors`

    const stranger = await h.register()
    expect(code(await h.call('DELETE', path, { token: stranger.token }))).toEqual([403, 'forbidden'])
    expect(code(await h.call('DELETE', path, { token: (await mfa.login(admin)).token }))).toEqual([403, 'mfa_required'])
    const adminStrong = await mfa.strong(admin, adminFactor.secret)
    expect(code(await h.call('DELETE', `/auth/admin/users/${crypto.randomUUID()}/factors`, { token: adminStrong.token }))).toEqual([404, 'not_found'])

    expect((await h.call('DELETE', path, { token: adminStrong.token })).status).toBe(204)
    expect((await h.call('GET', '/auth/me', { token: targetSession.token })).status).toBe(401)
    const after = await mfa.login(target)
    expect((await h.call('GET', '/auth/me', { token: after.token })).body.mfa).toEqual({ enabled: false, factors: [] })
    // A password sign-in reaches everything again (no factor to verify), and the old recovery codes are gone.
    expect((await h.call('GET', '/auth/tokens', { token: after.token })).status).toBe(200)
    expect(code(await h.call('POST', '/auth/mfa/verify', { token: after.token, body: { recoveryCode: recoveryCodes![0] } }))).toEqual([400, 'invalid_code'])
    const event = await only(h, 'auth.mfa.reset', target.user.id)
    expect([event.actorType, event.actorId]).toEqual(['user', admin.user.id])
    expect(event.metadata).toMatchObject({ factorsRemoved: 2, sessionsRevoked: true })
    await until(() => subjects(target).some((m) => m.subject === 'Account security: An administrator removed the second factors of your account'))
  })
})
