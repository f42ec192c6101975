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

const claims = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { aal: string; amr: string[] }

async function registered(userVerified = true) {
  const user = await h.register()
  const authenticator = await softwareAuthenticator({ origin: ORIGIN, userVerified })
  const options = (await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body
  const verify = await h.call('POST', '/auth/passkeys/register/verify', {
    token: user.token,
    body: { response: authenticator.create(options), name: 'Laptop' },
  })
  return { user, authenticator, verify }
}

describe('passkeys', () => {
  test('register: options name the RP; the answer is kept as a factor with recovery codes; it lists, and the account now has MFA', async () => {
    const user = await h.register()
    const options = (await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body
    expect(options).toMatchObject({ rp: { id: 'app.example.test', name: 'Ecobase' }, user: { name: user.email }, attestation: 'none' })
    const authenticator = await softwareAuthenticator({ origin: ORIGIN })
    const verify = await h.call('POST', '/auth/passkeys/register/verify', {
      token: user.token,
      body: { response: authenticator.create(options), name: 'Laptop' },
    })
    expect(verify.status).toBe(200)
    expect(verify.body.factor).toMatchObject({ type: 'passkey', name: 'Laptop' })
    expect(verify.body.recoveryCodes).toHaveLength(10)
    expect((await h.call('GET', '/auth/passkeys', { token: user.token })).body.map((p: { name: string }) => p.name)).toEqual(['Laptop'])
    // The session's access token is aal1 of an account that has a factor now; its next refresh is aal2.
    expect((await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body.error.code).toBe('mfa_required')
    const strong = (await h.call('POST', '/auth/refresh', { body: { refreshToken: user.refreshToken } })).body.token
    // The challenge was spent: the same answer again is refused.
    expect(
      (await h.call('POST', '/auth/passkeys/register/verify', { token: strong, body: { response: authenticator.create(options), name: 'Again' } })).status,
    ).toBe(400)
    const login = await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })
    expect(claims(login.body.token).aal).toBe('aal1')
    expect((await h.call('GET', '/auth/me', { token: login.body.token })).body.mfa.enabled).toBe(true)
  })

  test('an answer from another origin is refused', async () => {
    const user = await h.register()
    const options = (await h.call('POST', '/auth/passkeys/register/options', { token: user.token })).body
    const phishing = await softwareAuthenticator({ origin: 'https://app-example.test' })
    expect(
      (await h.call('POST', '/auth/passkeys/register/verify', { token: user.token, body: { response: phishing.create(options), name: 'x' } })).status,
    ).toBe(400)
  })

  test('sign in with a passkey: aal2 when the user was verified, discoverable whatever e-mail was named; a replayed or cloned counter is refused', async () => {
    const { user, authenticator } = await registered()
    const byEmail = (await h.call('POST', '/auth/passkeys/login/options', { body: { email: user.email } })).body
    expect(byEmail.allowCredentials).toEqual([])
    const assertion = await authenticator.get(byEmail)
    const signedIn = await h.call('POST', '/auth/passkeys/login/verify', { body: { response: assertion } })
    expect(signedIn.status).toBe(200)
    expect(signedIn.headers.get('set-cookie')).toContain(`ecobase_refresh=${signedIn.body.refreshToken}`)
    expect(signedIn.body.user.id).toBe(user.user.id)
    expect(claims(signedIn.body.token)).toMatchObject({ aal: 'aal2', amr: ['webauthn'] })
    expect((await h.call('GET', '/auth/tokens', { token: signedIn.body.token })).status).toBe(200)
    // The same assertion again: its challenge is spent.
    expect((await h.call('POST', '/auth/passkeys/login/verify', { body: { response: assertion } })).status).toBe(401)

    const discoverable = (await h.call('POST', '/auth/passkeys/login/options', { body: {} })).body
    expect(discoverable.allowCredentials ?? []).toEqual([])
    expect((await h.call('POST', '/auth/passkeys/login/verify', { body: { response: await authenticator.get(discoverable) } })).status).toBe(200)
    // A clone of the authenticator presents an old counter: refused.
    const again = (await h.call('POST', '/auth/passkeys/login/options', { body: {} })).body
    expect((await h.call('POST', '/auth/passkeys/login/verify', { body: { response: await authenticator.get(again, { counter: 1 }) } })).status).toBe(401)
  })

  test('sign-in options are the same for every e-mail: an account with passkeys, one without, an unknown address, none', async () => {
    const { user, authenticator } = await registered()
    const bare = await h.register()
    const answers = await Promise.all(
      [{ email: user.email }, { email: user.email.toUpperCase() }, { email: bare.email }, { email: 'nobody@example.test' }, {}].map((body) =>
        h.call('POST', '/auth/passkeys/login/options', { body }),
      ),
    )
    const shape = (options: Record<string, unknown>) => ({ ...options, challenge: typeof options.challenge })
    for (const answer of answers) {
      expect(answer.status).toBe(200)
      expect(shape(answer.body)).toEqual(shape(answers[4]!.body))
      expect(JSON.stringify(answer.body)).not.toContain(authenticator.id)
    }
    expect(answers[0]!.body).toMatchObject({ rpId: 'app.example.test', allowCredentials: [], userVerification: 'preferred' })
    expect(new Set(answers.map((a) => a.body.challenge)).size).toBe(answers.length)
  })

  test('without user verification the sign-in is aal1; removing a passkey needs aal2', async () => {
    const { user, authenticator, verify } = await registered(false)
    const options = (await h.call('POST', '/auth/passkeys/login/options', { body: { email: user.email } })).body
    const weak = await h.call('POST', '/auth/passkeys/login/verify', { body: { response: await authenticator.get(options) } })
    expect(claims(weak.body.token).aal).toBe('aal1')
    expect((await h.call('DELETE', `/auth/passkeys/${verify.body.factor.id}`, { token: weak.body.token })).body.error.code).toBe('mfa_required')
    const strong = await h.call('POST', '/auth/mfa/verify', { token: weak.body.token, body: { recoveryCode: verify.body.recoveryCodes[0] } })
    expect((await h.call('DELETE', `/auth/passkeys/${verify.body.factor.id}`, { token: strong.body.token })).status).toBe(204)
    expect((await h.call('GET', '/auth/passkeys', { token: strong.body.token })).body).toEqual([])
  })
})

describe('step-up with a passkey after a password sign-in', () => {
  test('options allow the account’s passkeys; the answer raises the session to aal2; a replay, another account’s passkey or none at all are refused', async () => {
    const { user, authenticator, verify } = await registered(false)
    const weak = (await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })).body
    expect(claims(weak.token).aal).toBe('aal1')
    const options = await h.call('POST', '/auth/mfa/verify/options', { token: weak.token })
    expect(options.status).toBe(200)
    expect(options.body.allowCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.id])
    const assertion = await authenticator.get(options.body)
    const stepped = await h.call('POST', '/auth/mfa/verify', { token: weak.token, body: { passkey: assertion } })
    expect(stepped.status).toBe(200)
    expect(claims(stepped.body.token).aal).toBe('aal2')
    expect(claims(stepped.body.token).amr.sort()).toEqual(['pwd', 'webauthn'])
    expect(stepped.headers.get('set-cookie')).toContain(`ecobase_refresh=${stepped.body.refreshToken}`)
    // Without user verification it still counts: the password was the first factor, the passkey is the second.
    expect((await h.call('DELETE', `/auth/passkeys/${verify.body.factor.id}`, { token: stepped.body.token })).status).toBe(204)

    // The same answer again: its challenge is spent.
    const { user: other, authenticator: theirs } = await registered()
    const otherWeak = (await h.call('POST', '/auth/login', { body: { email: other.email, password: other.password } })).body
    const fresh = (await h.call('POST', '/auth/mfa/verify/options', { token: otherWeak.token })).body
    const answer = await theirs.get(fresh)
    expect((await h.call('POST', '/auth/mfa/verify', { token: otherWeak.token, body: { passkey: answer } })).status).toBe(200)
    const replay = await h.call('POST', '/auth/mfa/verify', {
      token: (await h.call('POST', '/auth/login', { body: { email: other.email, password: other.password } })).body.token,
      body: { passkey: answer },
    })
    expect([replay.status, replay.body.error.code]).toEqual([400, 'invalid_code'])
    // Another account's passkey does not verify this one, even against this account's own challenge.
    const mine = (await h.call('POST', '/auth/login', { body: { email: other.email, password: other.password } })).body
    const mineOptions = (await h.call('POST', '/auth/mfa/verify/options', { token: mine.token })).body
    const foreign = await softwareAuthenticator({ origin: ORIGIN })
    const foreignUser = await h.register()
    await h.call('POST', '/auth/passkeys/register/verify', {
      token: foreignUser.token,
      body: { response: foreign.create((await h.call('POST', '/auth/passkeys/register/options', { token: foreignUser.token })).body), name: 'Theirs' },
    })
    expect((await h.call('POST', '/auth/mfa/verify', { token: mine.token, body: { passkey: await foreign.get(mineOptions) } })).body.error.code).toBe(
      'invalid_code',
    )
    // An account with no passkey has no such options.
    const bare = await h.register()
    expect((await h.call('POST', '/auth/mfa/verify/options', { token: bare.token })).status).toBe(409)
  })
})

describe('passkeys where the RP ID cannot work', () => {
  test('options for a page at another origin (an IP address, say) are 400 passkey_origin_mismatch, naming the address to open', async () => {
    const user = await h.register()
    const at = (origin?: string) => ({ token: user.token, headers: (origin ? { origin } : {}) as Record<string, string> })
    for (const path of ['/auth/passkeys/register/options', '/auth/passkeys/login/options', '/auth/mfa/verify/options']) {
      const refused = await h.call('POST', path, { ...at('http://127.0.0.1:3000'), body: path.includes('login') ? {} : undefined })
      expect([refused.status, refused.body.error.code], path).toEqual([400, 'passkey_origin_mismatch'])
      expect(refused.body.error.message).toContain(`open ${ORIGIN} instead`)
      expect(refused.body.error.message).toContain('RP_ID app.example.test')
      expect(refused.body.error.message).toContain('IP address')
    }
    expect((await h.call('POST', '/auth/passkeys/register/options', at(ORIGIN))).status).toBe(200)
    expect((await h.call('POST', '/auth/passkeys/login/options', { ...at('https://evil.example.test'), body: {} })).body.error.code).toBe(
      'passkey_origin_mismatch',
    )
    // Apps and servers send no Origin: they are not refused.
    expect((await h.call('POST', '/auth/passkeys/register/options', at())).status).toBe(200)
  })

  test('an RP ID that is an IP address (PUBLIC_URL at 127.0.0.1) cannot work for anyone: 400 saying to use a name', async () => {
    const ip = await createHarness({ PUBLIC_URL: 'http://127.0.0.1:3000' })
    try {
      const user = await ip.register()
      const refused = await ip.call('POST', '/auth/passkeys/register/options', { token: user.token, headers: { origin: 'http://127.0.0.1:3000' } })
      expect([refused.status, refused.body.error.code]).toEqual([400, 'passkey_origin_mismatch'])
      expect(refused.body.error.message).toContain('RP_ID 127.0.0.1')
      expect(refused.body.error.message).toContain('http://localhost')
    } finally {
      await ip.close()
    }
  })
})
