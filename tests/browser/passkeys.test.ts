import { describe, expect, test } from 'bun:test'
import { browserMissing, consoleServerForFile } from './support'

// Passkeys in a real Chromium with the DevTools protocol's virtual authenticator: the page calls
// navigator.credentials.create() and .get() against the service's options, as a front end would.
// WebAuthn needs a domain as RP ID, so the page is opened at http://localhost:<port> (RP_ID localhost).

let port = 0
const app = consoleServerForFile((p) => {
  port = p
  return { RP_ID: 'localhost', WEBAUTHN_ORIGINS: `http://localhost:${p}` }
})

describe.skipIf(!!browserMissing)('passkeys in a browser', () => {
  test('register a passkey with a virtual authenticator, then sign in with it at aal2', async () => {
    const user = await app.h.register()
    const page = await app.browser.newPage()
    const cdp = await page.context().newCDPSession(page)
    await cdp.send('WebAuthn.enable')
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    await page.goto(`http://localhost:${port}/health`)
    const outcome = await page.evaluate(async (token) => {
      const post = (path: string, body?: unknown, bearer?: string) =>
        fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) }, body: JSON.stringify(body ?? {}) })
      const creation = await (await post('/auth/passkeys/register/options', undefined, token)).json()
      const created = (await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(creation) })) as PublicKeyCredential
      const registered = await post('/auth/passkeys/register/verify', { response: created.toJSON(), name: 'Chromium' }, token)
      const request = await (await post('/auth/passkeys/login/options', {})).json()
      const asserted = (await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(request) })) as PublicKeyCredential
      const signedIn = await post('/auth/passkeys/login/verify', { response: asserted.toJSON() })
      const result = await signedIn.json()
      return { registered: registered.status, signedIn: signedIn.status, userId: result.user?.id, token: result.token as string }
    }, user.token)
    expect(outcome.registered).toBe(200)
    expect(outcome.signedIn).toBe(200)
    expect(outcome.userId).toBe(user.user.id)
    const claims = JSON.parse(Buffer.from(outcome.token.split('.')[1]!, 'base64url').toString())
    expect(claims).toMatchObject({ aal: 'aal2', amr: ['webauthn'], mfa: true })
    await page.close()
  })
})
