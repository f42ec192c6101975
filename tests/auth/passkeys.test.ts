import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { softwareAuthenticator } from '../support/authenticator'
import { createHarness, type Harness } from '../support/harness'

// Passkeys end to end with a software authenticator (ES256, "none" attestation) the test builds
// from the WebAuthn byte layouts; @simplewebauthn/server verifies them in the service.

let h: Harness
const ORIGIN = 'https://app.example.test'
beforeAll(async () => {
  h = await createHarness({ RP_ID: 'app.example.test', WEBAUTHN_ORIGINS: ORIGIN })
})
afterAll(() => h.close())

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { aal: string; amr: string[]; mfa: boolean }

async function registered(userVerified = true) {
  const user = await h.register()
  const authenticator = await softwareAuthenticator({ origin: ORIGIN, userVerified })
  const options = (await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body
  const verify = await h.call('POST', '/auth/passkeys/register/verify', { token: user.token, body: { response: authenticator.create(options), name: 'Laptop' } })
  return { user, authenticator, verify }
}

describe('passkeys', () => {
  test('register: options name the RP; the answer is kept as a factor with recovery codes; it lists, and the account now has MFA', async () => {
    const user = await h.register()
    const options = (await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body
    expect(options).toMatchObject({ rp: { id: 'app.example.test', name: 'Ecobase' }, user: { name: user.email }, attestation: 'none' })
    const authenticator = await softwareAuthenticator({ origin: ORIGIN })
    const verify = await h.call('POST', '/auth/passkeys/register/verify', { token: user.token, body: { response: authenticator.create(options), name: 'Laptop' } })
    expect(verify.status).toBe(200)
    expect(verify.body.factor).toMatchObject({ type: 'passkey', name: 'Laptop' })
    expect(verify.body.recoveryCodes).toHaveLength(10)
    expect((await h.call('GET', '/auth/passkeys', { token: user.token })).body.map((p: { name: string }) => p.name)).toEqual(['Laptop'])
    // The challenge was spent: the same answer again is refused.
    expect((await h.call('POST', '/auth/passkeys/register/verify', { token: user.token, body: { response: authenticator.create(options), name: 'Again' } })).status).toBe(400)
    const login = await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })
    expect(claims(login.body.token)).toMatchObject({ aal: 'aal1', mfa: true })
  })

  test('an answer from another origin is refused', async () => {
    const user = await h.register()
    const options = (await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body
    const phishing = await softwareAuthenticator({ origin: 'https://app-example.test' })
    expect((await h.call('POST', '/auth/passkeys/register/verify', { token: user.token, body: { response: phishing.create(options), name: 'x' } })).status).toBe(400)
  })

  test('sign in with a passkey: aal2 when the user was verified, by e-mail or discoverable; a replayed or cloned counter is refused', async () => {
    const { user, authenticator } = await registered()
    const byEmail = (await h.call('POST', '/auth/passkeys/login/options', { body: { email: user.email } })).body
    expect(byEmail.allowCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.id])
    const assertion = await authenticator.get(byEmail)
    const signedIn = await h.call('POST', '/auth/passkeys/login/verify', { body: { response: assertion } })
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('set-cookie')).toContain(`ecobase_refresh=${signedIn.body.refreshToken}`)
    expect(signedIn.body.user.id).toBe(user.user.id)
    expect(claims(signedIn.body.token)).toMatchObject({ aal: 'aal2', amr: ['webauthn'], mfa: true })
    expect((await h.call('GET', '/auth/tokens', { token: signedIn.body.token })).status).toBe(200)
    // The same assertion again: its challenge is spent.
    expect((await h.call('POST', '/auth/passkeys/login/verify', { body: { response: assertion } })).status).toBe(401)

    const discoverable = (await h.call('POST', '/auth/passkeys/login/options', { body: {} })).body
    expect(discoverable.allowCredentials ?? []).toEqual([])
    expect((await h.call('POST', '/auth/passkeys/login/verify', { body: { response: await authenticator.get(discoverable) } })).status).toBe(200)
    // A clone of the authenticator presents an old counter: refused.
    const again = (await h.call('POST', '/auth/passkeys/login/options', { body: {} })).body
    expect((await h.call('POST', '/auth/passkeys/login/verify', { body: { response: await authenticator.get(again, { counter: 1 }) } })).status).toBe(401)
    const unknown = (await h.call('POST', '/auth/passkeys/login/options', { body: { email: 'nobody@example.test' } })).body
    expect(unknown.allowCredentials ?? []).toEqual([])
  })

  test('without user verification the sign-in is aal1; removing a passkey needs aal2', async () => {
    const { user, authenticator, verify } = await registered(false)
    const options = (await h.call('POST', '/auth/passkeys/login/options', { body: { email: user.email } })).body
    const weak = await h.call('POST', '/auth/passkeys/login/verify', { body: { response: await authenticator.get(options) } })
    expect(claims(weak.body.token)).toMatchObject({ aal: 'aal1', mfa: true })
    expect((await h.call('DELETE', `/auth/passkeys/${verify.body.factor.id}`, { token: weak.body.token })).body.error.code).toBe('mfa_required')
    const strong = await h.call('POST', '/auth/mfa/verify', { token: weak.body.token, body: { recoveryCode: verify.body.recoveryCodes[0] } })
    expect((await h.call('DELETE', `/auth/passkeys/${verify.body.factor.id}`, { token: strong.body.token })).status).toBe(204)
    expect((await h.call('GET', '/auth/passkeys', { token: strong.body.token })).body).toEqual([])
  })
})
