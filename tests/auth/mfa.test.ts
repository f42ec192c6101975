import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import * as OTPAuth from 'otpauth'
import { stored } from '../audit/support'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startSmtp } from '../support/smtp'
import { addMember, provision } from '../support/tenancy'
import { until } from '../support/wait'

// Codes are computed by an independent library (otpauth), at the app's clock.

const smtp = await startSmtp()
let h: Harness
beforeAll(async () => {
  h = await createHarness({ SMTP_URL: smtp.url, MAIL_FROM: 'Ecobase <accounts@example.test>' })
})
afterAll(async () => {
  await h.close()
  await smtp.close()
})

/** The app's clock moves forward in whole 30 s steps, so each step's code is fresh. */
let clockSteps = 0
const nextStep = () => {
  clockSteps++
  h.advanceClock(30_000)
}
const now = () => Date.now() + clockSteps * 30_000
const totpOf = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
const codeAt = (secret: string, offsetSteps = 0) => totpOf(secret).generate({ timestamp: now() + offsetSteps * 30_000 })
const login = async (user: RegisteredUser) =>
  (await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })).body as { token: string; refreshToken: string }
const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { aal: string; amr: string[]; mfa?: boolean }

/** A user with a confirmed TOTP factor: its secret and recovery codes. */
async function enrolled() {
  const user = await h.register()
  const start = await h.call('POST', '/auth/mfa/totp', { token: user.token, body: { name: 'Phone' } })
  expect(start.status).toBe(200)
  const confirm = await h.call('POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { token: user.token, body: { code: codeAt(start.body.secret) } })
  expect(confirm.status).toBe(200)
  nextStep()
  return { user, secret: start.body.secret as string, factorId: start.body.factorId as string, recoveryCodes: confirm.body.recoveryCodes as string[] }
}

describe('TOTP second factor', () => {
  test('enrol: secret, otpauth URL and QR code; a wrong code is refused; the right one confirms it with ten recovery codes', async () => {
    const user = await h.register()
    const start = await h.call('POST', '/auth/mfa/totp', { token: user.token, body: { name: 'Phone' } })
    expect(start.body.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(start.body.otpauthUrl).toStartWith('otpauth://totp/Ecobase%3A')
    expect(start.body.otpauthUrl).toContain(`secret=${start.body.secret}`)
    expect(start.body.qrSvg).toStartWith('<svg')
    expect(OTPAuth.URI.parse(start.body.otpauthUrl).secret.base32).toBe(start.body.secret)
    expect((await h.call('GET', '/auth/me', { token: user.token })).body.mfa).toEqual({ enabled: false, factors: [] })

    const wrong = await h.call('POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, {
      token: user.token,
      body: { code: '000000' === codeAt(start.body.secret) ? '111111' : '000000' },
    })
    expect([wrong.status, wrong.body.error.code]).toEqual([400, 'invalid_code'])
    const confirm = await h.call('POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { token: user.token, body: { code: codeAt(start.body.secret) } })
    expect(confirm.status).toBe(200)
    expect(confirm.body.factor).toMatchObject({ id: start.body.factorId, type: 'totp', name: 'Phone' })
    expect(confirm.body.recoveryCodes).toHaveLength(10)
    expect(new Set(confirm.body.recoveryCodes).size).toBe(10)
    const me = (await h.call('GET', '/auth/me', { token: user.token })).body
    expect(me.mfa.enabled).toBe(true)
    expect(me.mfa.factors.map((f: { name: string }) => f.name)).toEqual(['Phone'])
    // The confirming session is aal2 from its next refresh on.
    const refreshed = await h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })
    expect(claims(refreshed.body.token).aal).toBe('aal2')
    // Whether the account has a factor is the account's, read per request: the token does not say.
    expect(claims(refreshed.body.token).mfa).toBeUndefined()
    expect(await stored(h, 'auth.mfa.enrolled').then((rows) => rows.filter((r) => r.targetId === user.user.id).length)).toBe(1)
    nextStep()
  })

  test('a password sign-in is aal1: only /auth/me, /auth/mfa and sign-out answer; verifying a code gives aal2 tokens that refreshing keeps', async () => {
    const { user, secret } = await enrolled()
    const first = await login(user)
    expect(claims(first.token)).toMatchObject({ aal: 'aal1', amr: ['pwd'] })
    expect((await h.call('GET', '/auth/me', { token: first.token })).body.aal).toBe('aal1')
    const blocked = await h.call('GET', '/auth/tokens', { token: first.token })
    expect([blocked.status, blocked.body.error.code]).toEqual([403, 'mfa_required'])
    expect(
      (await h.call('POST', '/registry/organizations', { token: first.token, body: { slug: `mfa-${crypto.randomUUID().slice(0, 6)}`, name: 'x' } })).body.error
        .code,
    ).toBe('mfa_required')

    const verified = await h.call('POST', '/auth/mfa/verify', { token: first.token, body: { code: codeAt(secret) } })
    expect(verified.status).toBe(200)
    expect(claims(verified.body.token).aal).toBe('aal2')
    // A page that keeps only the cookie (the console) stays signed in after the step-up: the cookie holds the new refresh token.
    expect(verified.headers.get('set-cookie')).toContain(`ecobase_refresh=${verified.body.refreshToken}`)
    expect(claims(verified.body.token).amr.sort()).toEqual(['otp', 'pwd'])
    expect((await h.call('GET', '/auth/tokens', { token: verified.body.token })).status).toBe(200)
    const refreshed = await h.call('POST', '/auth/refresh', { body: { refreshToken: verified.body.refreshToken } })
    expect(claims(refreshed.body.token).aal).toBe('aal2')
    // The aal1 refresh token of the same session does not turn into aal2 tokens: it stopped working.
    expect((await h.call('POST', '/auth/refresh', { body: { refreshToken: first.refreshToken } })).status).toBe(401)
    expect((await h.call('GET', '/auth/me', { token: refreshed.body.token })).status).toBe(200)
  })

  test("a refresh carries its session's assurance: an aal1 session stays aal1 and limited, a verified one keeps aal2 and how it got there", async () => {
    const { user, secret } = await enrolled()
    const refresh = (refreshToken: string) => h.call('POST', '/auth/refresh', { body: { refreshToken } })
    const weak = await refresh((await login(user)).refreshToken)
    expect(claims(weak.body.token)).toMatchObject({ aal: 'aal1', amr: ['pwd'] })
    expect((await h.call('GET', '/auth/tokens', { token: weak.body.token })).body.error.code).toBe('mfa_required')
    const verified = await h.call('POST', '/auth/mfa/verify', { token: weak.body.token, body: { code: codeAt(secret) } })
    const strong = await refresh(verified.body.refreshToken)
    expect(claims(strong.body.token).aal).toBe('aal2')
    expect(claims(strong.body.token).amr.sort()).toEqual(['otp', 'pwd'])
    expect((await h.call('GET', '/auth/tokens', { token: strong.body.token })).status).toBe(200)
  })

  test('each time step is accepted once (a replay is refused), and the steps either side of now are accepted', async () => {
    const { user, secret } = await enrolled()
    const a = await login(user)
    const code = codeAt(secret)
    expect((await h.call('POST', '/auth/mfa/verify', { token: a.token, body: { code } })).status).toBe(200)
    const b = await login(user)
    const replay = await h.call('POST', '/auth/mfa/verify', { token: b.token, body: { code } })
    expect([replay.status, replay.body.error.code]).toEqual([400, 'invalid_code'])
    nextStep()
    nextStep()
    // One step behind (a slow clock on the phone): accepted; two behind: not.
    expect((await h.call('POST', '/auth/mfa/verify', { token: b.token, body: { code: codeAt(secret, -2) } })).status).toBe(400)
    expect((await h.call('POST', '/auth/mfa/verify', { token: b.token, body: { code: codeAt(secret, -1) } })).status).toBe(200)
    const c = await login(user)
    expect((await h.call('POST', '/auth/mfa/verify', { token: c.token, body: { code: codeAt(secret, 1) } })).status).toBe(200)
    nextStep()
    nextStep()
  })

  test('recovery codes work once each; replacing them needs aal2 and ends the old ones', async () => {
    const { user, recoveryCodes } = await enrolled()
    const a = await login(user)
    const used = await h.call('POST', '/auth/mfa/verify', { token: a.token, body: { recoveryCode: recoveryCodes[0]!.toUpperCase() } })
    expect(used.status).toBe(200)
    expect(claims(used.body.token).amr).toContain('recovery')
    const b = await login(user)
    expect((await h.call('POST', '/auth/mfa/verify', { token: b.token, body: { recoveryCode: recoveryCodes[0] } })).status).toBe(400)
    expect((await h.call('POST', '/auth/mfa/recovery-codes', { token: b.token })).body.error.code).toBe('mfa_required')
    const fresh = await h.call('POST', '/auth/mfa/recovery-codes', { token: used.body.token })
    expect(fresh.body.recoveryCodes).toHaveLength(10)
    expect((await h.call('POST', '/auth/mfa/verify', { token: b.token, body: { recoveryCode: recoveryCodes[1] } })).status).toBe(400)
    expect((await h.call('POST', '/auth/mfa/verify', { token: b.token, body: { recoveryCode: fresh.body.recoveryCodes[1] } })).status).toBe(200)
    expect((await stored(h, 'auth.recovery.used')).filter((r) => r.targetId === user.user.id).length).toBe(2)
  })

  test('aal2 guards: adding or removing a factor, API tokens; removing the last factor ends the aal1 limits', async () => {
    const { user, secret, factorId } = await enrolled()
    const a = await login(user)
    expect((await h.call('DELETE', `/auth/mfa/factors/${factorId}`, { token: a.token })).body.error.code).toBe('mfa_required')
    expect((await h.call('POST', '/auth/mfa/totp', { token: a.token, body: { name: 'Second' } })).body.error.code).toBe('mfa_required')
    const strong = (await h.call('POST', '/auth/mfa/verify', { token: a.token, body: { code: codeAt(secret) } })).body
    nextStep()
    expect((await h.call('POST', '/auth/tokens', { token: strong.token, body: { name: 'ci' } })).status).toBe(201)
    expect((await h.call('DELETE', `/auth/mfa/factors/${factorId}`, { token: strong.token })).status).toBe(204)
    const after = await login(user)
    expect(claims(after.token).aal).toBe('aal1')
    expect((await h.call('GET', '/auth/tokens', { token: after.token })).status).toBe(200)
    expect((await h.call('GET', '/auth/me', { token: after.token })).body.mfa).toEqual({ enabled: false, factors: [] })
  })

  test('wrong codes are throttled per account (429), recorded, and the owner gets account-security e-mails (the wrong codes’ one as their window closes: mfa-failures.test.ts)', async () => {
    const { user } = await enrolled()
    const a = await login(user)
    const statuses: number[] = []
    for (let i = 0; i < 12; i++) statuses.push((await h.call('POST', '/auth/mfa/verify', { token: a.token, body: { code: String(100000 + i) } })).status)
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true)
    expect(statuses.at(-1)).toBe(429)
    expect((await stored(h, 'auth.mfa.failed')).filter((r) => r.targetId === user.user.id).length).toBeGreaterThanOrEqual(10)
    const subjects = () => smtp.received.filter((m) => m.envelope.to.includes(user.email.toLowerCase())).map((m) => m.parsed.subject)
    await until(() => subjects().includes('Account security: A second factor was added to your account'))
  })

  test('a member whose session is aal1 cannot act in an ecosystem until it verifies', async () => {
    const { user, secret } = await enrolled()
    const strong = (await h.call('POST', '/auth/mfa/verify', { token: (await login(user)).token, body: { code: codeAt(secret) } })).body
    nextStep()
    const org = await provision(h, { ...user, token: strong.token })
    const weak = await login(user)
    const refused = await h.call('GET', '/customer/customers', { token: weak.token, headers: { 'x-ecosystem-id': org.ecosystem.id } })
    expect([refused.status, refused.body.error.code]).toEqual([403, 'mfa_required'])
    expect((await h.call('GET', '/customer/customers', { token: strong.token, headers: { 'x-ecosystem-id': org.ecosystem.id } })).status).toBe(200)
  })

  test('policy requireMfa: owners with a verified factor turn it on; members then need aal2 in its ecosystems (enrolling first if they have no factor)', async () => {
    const { user: owner, secret } = await enrolled()
    const strong = (await h.call('POST', '/auth/mfa/verify', { token: (await login(owner)).token, body: { code: codeAt(secret) } })).body
    nextStep()
    const org = await provision(h, { ...owner, token: strong.token })
    const member = await h.register()
    await addMember(h, org, { ...owner, token: strong.token }, member, 'admin')
    const asMember = { token: member.token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
    expect((await h.call('GET', '/customer/customers', asMember)).status).toBe(200)

    const bare = await h.register()
    const bareOrg = await provision(h, bare)
    expect((await h.call('PATCH', `/registry/organizations/${bareOrg.organization.id}/policy`, { token: bare.token, body: { requireMfa: true } })).status).toBe(
      409,
    )
    expect((await h.call('PATCH', `/registry/organizations/${org.organization.id}/policy`, { token: member.token, body: { requireMfa: true } })).status).toBe(
      403,
    )
    const set = await h.call('PATCH', `/registry/organizations/${org.organization.id}/policy`, { token: strong.token, body: { requireMfa: true } })
    expect(set.body).toMatchObject({ id: org.organization.id, requireMfa: true })

    const refused = await h.call('GET', '/customer/customers', asMember)
    expect([refused.status, refused.body.error.code]).toEqual([403, 'mfa_required'])
    expect(refused.body.error.message).toContain('enroll one (POST /auth/mfa/totp')
    // The member enrols; the session that confirmed is aal2 from its next refresh.
    const start = await h.call('POST', '/auth/mfa/totp', { token: member.token, body: { name: 'Phone' } })
    await h.call('POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { token: member.token, body: { code: codeAt(start.body.secret) } })
    nextStep()
    const refreshed = (await h.call('POST', '/auth/refresh', { body: { refreshToken: member.refreshToken } })).body
    expect((await h.call('GET', '/customer/customers', { ...asMember, token: refreshed.token })).status).toBe(200)
    expect((await h.call('GET', '/customer/customers', { ...asMember, token: (await login(member)).token })).body.error.code).toBe('mfa_required')
  })
})

describe('second factors through the typed client', () => {
  test('enroll, confirm, verify and read aal from /auth/me with client.api.auth', async () => {
    const { connect } = await import('../client/connect')
    const user = await h.register()
    const { client } = connect(h, { tokens: { token: user.token, refreshToken: user.refreshToken } })
    const { data: start } = await client.api.auth.mfa.totp.post({ name: 'Phone' })
    const { data: confirmed } = await client.api.auth.mfa.totp({ id: start!.factorId }).confirm.post({ code: codeAt(start!.secret) })
    expect(confirmed!.recoveryCodes).toHaveLength(10)
    nextStep()
    const signedIn = connect(h)
    await signedIn.client.login({ email: user.email, password: user.password })
    expect((await signedIn.client.api.auth.me.get()).data!.aal).toBe('aal1')
    const { error } = await signedIn.client.api.auth.tokens.get()
    expect(error!.status).toBe(403)
    const { data: strong } = await signedIn.client.api.auth.mfa.verify.post({ code: codeAt(start!.secret) })
    signedIn.client.setTokens({ token: strong!.token, refreshToken: strong!.refreshToken })
    const me = (await signedIn.client.api.auth.me.get()).data!
    expect([me.aal, me.mfa.enabled, me.mfa.factors[0]!.type]).toEqual(['aal2', true, 'totp'])
    nextStep()
  })
})
