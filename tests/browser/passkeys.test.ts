import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, reloadConsole, SCREENSHOTS, signIn, tab, until } from './support'

// Passkeys in a real Chromium with the DevTools protocol's virtual authenticator: the page calls
// navigator.credentials.create() and .get() against the service's options, as a front end would.
// WebAuthn needs a domain as RP ID, so the page is opened at http://localhost:<port> (RP_ID localhost).
// The console does the same with its own buttons: a passkey made on the Second factors page signs
// in without a password, and its aal2 session lets the owner require a second factor of the team.

let port = 0
const app = consoleServerForFile((p) => {
  port = p
  return { RP_ID: 'localhost', WEBAUTHN_ORIGINS: `http://localhost:${p}` }
})

/** A page with a virtual authenticator that verifies its user (as a fingerprint would). */
async function withAuthenticator(): Promise<Page> {
  const page = await app.browser.newPage()
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('WebAuthn.enable')
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return page
}

describe.skipIf(!!browserMissing)('passkeys in a browser', () => {
  test('register a passkey with a virtual authenticator, then sign in with it at aal2', async () => {
    const user = await app.h.register()
    const page = await withAuthenticator()
    await page.goto(`http://localhost:${port}/health`)
    const outcome = await page.evaluate(async (token) => {
      const post = (path: string, body?: unknown, bearer?: string) =>
        fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(bearer ? { authorization: `Bearer ${bearer}` } : {}) },
          body: JSON.stringify(body ?? {}),
        })
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
    expect(claims).toMatchObject({ aal: 'aal2', amr: ['webauthn'] })
    await page.close()
  })

  test('the console: create a passkey, sign in with it (no password, aal2), then require a second factor of the team', async () => {
    const password = 'passkey-console-password'
    const owner = await app.h.register({ password })
    const org = await provision(app.h, owner)
    const member = await app.h.register()
    expect(
      (await app.h.call('POST', '/team/members', { token: owner.token, body: { organizationId: org.organization.id, email: member.email, role: 'admin' } }))
        .status,
    ).toBe(201)
    expect((await app.h.call('GET', '/customer/customers', org.as(member))).status).toBe(200)
    // An API token of the owner's, to look from outside: the first factor will end the owner's other sessions.
    const probe = (await app.h.call('POST', '/auth/tokens', { token: owner.token, body: { name: 'probe' } })).body.token as string
    const page = await withAuthenticator()
    await reloadConsole(page, () => page.goto(`http://localhost:${port}/console`))
    await signIn(page, owner.email, password)

    // Without a factor the policy cannot be set: the console says why.
    await tab(page, 'Team').click()
    await page.getByRole('button', { name: 'Require a second factor' }).click()
    await page.getByRole('alert').filter({ hasText: '(conflict)' }).waitFor()

    await tab(page, 'Second factors').click()
    await page.getByLabel('Passkey name').fill('Virtual key')
    await page.getByRole('button', { name: 'Create passkey' }).click()
    // The account's first factor brings its recovery codes, once.
    expect((await page.getByTestId('recovery-codes').textContent())!.split(/\s+/).filter(Boolean)).toHaveLength(10)
    await page.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('cell', { name: 'Virtual key', exact: true }).waitFor()
    expect(await page.getByRole('row').filter({ hasText: 'Virtual key' }).textContent()).toContain('Passkey')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-passkeys.png') })
    expect((await app.h.call('GET', '/auth/me', { token: owner.token })).status).toBe(401)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await page.getByRole('button', { name: 'Sign out' }).waitFor()
    await tab(page, 'Second factors').click()
    await until(
      async () => (await page.getByTestId('session-assurance').textContent())?.trim(),
      (text) => text === 'Two-step verification in this session: verified.',
    )

    // The aal2 session sets the organization's policy; a member's aal1 session is then refused there.
    await tab(page, 'Team').click()
    await page.getByRole('button', { name: 'Require a second factor' }).click()
    await page.getByRole('button', { name: 'Stop requiring a second factor' }).waitFor()
    expect((await app.h.call('GET', `/registry/organizations/${org.organization.id}`, { token: probe })).body.requireMfa).toBe(true)
    const refused = await app.h.call('GET', '/customer/customers', org.as(member))
    expect(refused.status).toBe(403)
    expect(refused.body.error.code).toBe('mfa_required')
    // The Team page shows each member's two-step verification and who is out of compliance.
    expect(await page.getByRole('row').filter({ hasText: member.email }).textContent()).toContain('Password only')
    expect(await page.getByRole('row').filter({ hasText: owner.email }).textContent()).toContain('Verified')
    const compliance = page.getByTestId('mfa-compliance')
    await until(
      async () => (await compliance.textContent()) ?? '',
      (text) => text.includes('Out of compliance') && text.includes(member.email),
    )
    expect(await compliance.textContent()).not.toContain(owner.email)
    await page.close()
  })

  test('after a password sign-in, the console verifies the account with its passkey (aal2), no code needed', async () => {
    const password = 'passkey-step-up-password'
    const owner = await app.h.register({ password })
    const page = await withAuthenticator()
    await reloadConsole(page, () => page.goto(`http://localhost:${port}/console`))
    await signIn(page, owner.email, password)
    await tab(page, 'Second factors').click()
    await page.getByLabel('Passkey name').fill('Virtual key')
    await page.getByRole('button', { name: 'Create passkey' }).click()
    await page.getByRole('button', { name: 'Done' }).click()
    await page.getByRole('button', { name: 'Sign out' }).click()

    // The password alone is aal1: the console asks for the second factor and offers the passkey.
    await signInWithPassword(page, owner.email, password)
    await page.getByRole('heading', { name: 'Second factor' }).waitFor()
    await page.getByRole('button', { name: 'Use a passkey' }).click()
    await page.getByRole('button', { name: 'Sign out' }).waitFor()
    await tab(page, 'Second factors').click()
    await until(
      async () => (await page.getByTestId('session-assurance').textContent())?.trim(),
      (text) => text === 'Two-step verification in this session: verified.',
    )
    // A reload restores the same aal2 session from the refresh cookie the step-up set.
    await reloadConsole(page)
    await tab(page, 'Second factors').click()
    await until(
      async () => (await page.getByTestId('session-assurance').textContent())?.trim(),
      (text) => text === 'Two-step verification in this session: verified.',
    )
    const events = (
      await app.h.call('GET', '/auth/me', { token: (await app.h.call('POST', '/auth/login', { body: { email: owner.email, password } })).body.token })
    ).body
    expect(events.mfa.factors.map((f: { type: string }) => f.type)).toEqual(['passkey'])
    await page.screenshot({ path: join(SCREENSHOTS, 'console-passkey-step-up.png') })
    await page.close()
  })

  test('at an address passkeys cannot use (127.0.0.1 while RP_ID is localhost) the console says which address to open', async () => {
    const password = 'passkey-wrong-address'
    const owner = await app.h.register({ password })
    const page = await withAuthenticator()
    await reloadConsole(page, () => page.goto(`http://127.0.0.1:${port}/console`))
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click()
    await page
      .getByRole('alert')
      .filter({ hasText: `open http://localhost:${port} instead` })
      .waitFor()
    await signIn(page, owner.email, password)
    await tab(page, 'Second factors').click()
    await page.getByLabel('Passkey name').fill('Here')
    await page.getByRole('button', { name: 'Create passkey' }).click()
    const alert = page.getByRole('alert').filter({ hasText: 'passkey_origin_mismatch' })
    await alert.waitFor()
    expect(await alert.textContent()).toContain(`open http://localhost:${port} instead`)
    expect(await alert.textContent()).toContain('IP address')
    await page.close()
  })
})

/** The password form alone (the account then has a factor to verify, so `signIn`'s wait for the console does not apply). */
async function signInWithPassword(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in', exact: true }).click()
}
