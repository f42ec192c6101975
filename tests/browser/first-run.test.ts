import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import * as OTPAuth from 'otpauth'
import { provision } from '../support/tenancy'
import { browserMissing, confirmDialog, consoleServerForFile, PHONE, reloadConsole, SCREENSHOTS, signIn, tab, until } from './support'

// A new operator on a fresh instance (no account, no organization; nothing done with curl first),
// the console's layout and dark mode, and signing in with a second factor.

const app = consoleServerForFile()

describe.skipIf(!!browserMissing)('the console: first run, layout, dark mode, second factor', () => {
  test('creates the first account (the admin), then an organization, and lands in its ecosystem, which a new tab picks by itself', async () => {
    const { page, elsewhere } = await app.open()
    await page.getByRole('heading', { name: 'Create the first account' }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-first-account.png') })
    await page.getByLabel('Name', { exact: true }).fill('Olivia Operator')
    await page.getByLabel('E-mail').fill('olivia@example.test')
    await page.getByLabel('Password').fill('first-password-1')
    await page.getByRole('button', { name: 'Create account' }).click()

    await page.getByRole('heading', { name: 'Create an organization' }).waitFor()
    await page.getByLabel('Organization name').fill('Acme')
    await page.getByLabel('Slug').fill('acme')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-first-organization.png') })
    await page.getByRole('button', { name: 'Create organization' }).click()

    // Its main ecosystem is picked, and its overview is the first page.
    await page.getByRole('region', { name: 'Figures' }).waitFor()
    expect(await page.getByTestId('overview-customers').textContent()).toBe('0')
    expect(await page.getByLabel('Organization').locator('option:checked').textContent()).toBe('Acme')
    expect(await page.getByLabel('Ecosystem').inputValue()).not.toBe('')
    expect(await page.evaluate(async () => (await fetch('/auth/first-run')).json())).toEqual({ firstAccount: false, registration: true })

    // Another tab, or the browser after a restart (the same cookies and storage): signed in from the cookie, in the same ecosystem.
    const profile = await app.browser.newContext({ storageState: await page.context().storageState() })
    const second = await profile.newPage()
    await second.goto(`${app.origin}/console`)
    await second.getByRole('region', { name: 'Figures' }).waitFor()
    // The remembered pick acts at once; the picker fills in when the lists arrive.
    await until(() => second.getByLabel('Ecosystem').inputValue(), await page.getByLabel('Ecosystem').inputValue())
    await profile.close()

    // Phone width: the same page, usable.
    await page.setViewportSize(PHONE)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-first-run-phone.png') })
    expect(elsewhere).toEqual([])
  }, 60_000)

  test('the first account holds the admin capability', async () => {
    const signedIn = await app.h.call('POST', '/auth/login', { body: { email: 'olivia@example.test', password: 'first-password-1' } })
    expect(signedIn.status).toBe(200)
    expect(signedIn.body.user.capabilities).toEqual(['admin'])
  })

  test('a sidebar groups the sections by purpose; / goes to the search box; dark mode follows the system, a toggle overrides it and is remembered', async () => {
    const { page, elsewhere } = await app.open()
    await signIn(page, 'olivia@example.test', 'first-password-1')
    const sidebar = page.getByRole('navigation', { name: 'Sections' })
    expect(await sidebar.getByRole('heading').allTextContents()).toEqual([
      'Overview',
      'People',
      'Data',
      'AI',
      'Engagement',
      'Integrations',
      'Billing',
      'Security and settings',
      'Logs',
    ])
    expect(await sidebar.getByRole('list', { name: 'Data' }).getByRole('link').allTextContents()).toEqual([
      'Tables',
      'Documents',
      'Notes',
      'Storage',
      'Realtime',
    ])
    expect(await sidebar.getByRole('list', { name: 'Logs' }).getByRole('link').allTextContents()).toEqual(['Audit log', 'Messages sent', 'Webhook deliveries'])
    // People (every account of the instance) is there for a platform admin, as the first account is.
    expect(await sidebar.getByRole('list', { name: 'People' }).getByRole('link').allTextContents()).toEqual(['Customers', 'Team', 'People'])
    expect(await sidebar.getByRole('list', { name: 'Integrations' }).getByRole('link').allTextContents()).toEqual([
      'OAuth clients',
      'Monitored sites',
      'Webhooks',
      'Site services',
    ])
    // `/` jumps to the page's search box (once the customers page is there).
    await tab(page, 'Customers').click()
    await page.getByLabel('Search').waitFor()
    await page.keyboard.press('/')
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.type)).toBe('search')
    await page.keyboard.type('grace')
    expect(await page.getByLabel('Search').inputValue()).toBe('grace')
    await page.getByLabel('Search').fill('')
    const background = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor)
    const light = await background()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-layout.png') })

    // The system's preference first: dark.
    await page.emulateMedia({ colorScheme: 'dark' })
    const dark = await background()
    expect(dark).not.toBe(light)
    const toggle = page.getByRole('button', { name: 'Dark mode' })
    await until(() => toggle.getAttribute('aria-pressed'), 'true')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-dark.png') })
    // The toggle overrides it (light although the system is dark), and a reload keeps the choice.
    await toggle.click()
    await until(() => toggle.getAttribute('aria-pressed'), 'false')
    expect(await background()).toBe(light)
    await reloadConsole(page)
    await page.getByRole('button', { name: 'Dark mode' }).waitFor()
    expect(await background()).toBe(light)
    expect(await page.getByRole('button', { name: 'Dark mode' }).getAttribute('aria-pressed')).toBe('false')

    // Phone width: the sidebar waits behind the Menu button, then every section is reachable without scrolling sideways.
    await page.setViewportSize(PHONE)
    await sidebar.waitFor({ state: 'hidden' })
    await page.getByRole('button', { name: 'Menu', exact: true }).click()
    const box = await sidebar.getByRole('link', { name: 'Site services' }).boundingBox()
    expect(box && box.x >= 0 && box.x + box.width <= PHONE.width).toBe(true)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-layout-phone.png'), fullPage: true })
    expect(elsewhere).toEqual([])
  }, 60_000)

  test('an account with a second factor signs in with its code, works at aal2, and a reload keeps it there', async () => {
    const user = await app.h.register({ password: 'factor-password-1' })
    await provision(app.h, user)
    const start = await app.h.call('POST', '/auth/mfa/totp', { token: user.token, body: { name: 'Phone' } })
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(start.body.secret), algorithm: 'SHA1', digits: 6, period: 30 })
    expect((await app.h.call('POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { token: user.token, body: { code: totp.generate() } })).status).toBe(200)

    const { page, elsewhere } = await app.open()
    await page.getByLabel('E-mail').fill(user.email)
    await page.getByLabel('Password').fill('factor-password-1')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByRole('heading', { name: 'Second factor' }).waitFor()
    await page.getByLabel('Code').fill('000000' === totp.generate() ? '111111' : '000000')
    await page.getByRole('button', { name: 'Verify' }).click()
    expect(await page.getByRole('alert').textContent()).toContain('invalid_code')
    // The step its confirmation used is spent: the next one (the server accepts one step either side).
    await page.getByLabel('Code').fill(totp.generate({ timestamp: Date.now() + 30_000 }))
    await page.getByRole('button', { name: 'Verify' }).click()
    // The overview answers only an aal2 session of this account.
    await page.getByRole('region', { name: 'Figures' }).waitFor()
    await reloadConsole(page)
    await page.getByRole('region', { name: 'Figures' }).waitFor()
    await tab(page, 'Customers').click()
    await page.getByText('No customers yet: create the first one').waitFor()
    expect(elsewhere).toEqual([])
  }, 60_000)

  test('second factors: add an authenticator app with its QR code, keep the recovery codes, remove it', async () => {
    const user = await app.h.register({ password: 'security-password-1' })
    const { page, elsewhere } = await app.open()
    await signIn(page, user.email, 'security-password-1')
    await tab(page, 'Second factors').click()
    await page.getByText('No second factor yet', { exact: false }).waitFor()
    await page.getByLabel('Name', { exact: true }).fill('Phone')
    await page.getByRole('button', { name: 'Start' }).click()
    await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor()
    const secret = (await page.getByTestId('totp-secret').textContent())!
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 })
    await page.getByLabel('Code from the app').fill(totp.generate())
    await page.screenshot({ path: join(SCREENSHOTS, 'console-second-factor.png') })
    await page.getByRole('button', { name: 'Confirm' }).click()
    const codes = (await page.getByTestId('recovery-codes').textContent())!.trim().split(/\s+/)
    expect(codes).toHaveLength(10)
    await page.getByRole('cell', { name: 'Phone', exact: true }).waitFor()
    // The account's first factor ended its other sessions (the one registration opened among them); a new sign-in sees the factor.
    expect((await app.h.call('GET', '/auth/me', { token: user.token })).status).toBe(401)
    const fresh = (await app.h.call('POST', '/auth/login', { body: { email: user.email, password: 'security-password-1' } })).body.token
    expect((await app.h.call('GET', '/auth/me', { token: fresh })).body.mfa.enabled).toBe(true)
    await page.getByText('Two-step verification in this session: verified.').waitFor()

    await page.getByRole('button', { name: 'Remove Phone' }).click()
    await confirmDialog(page, 'Remove factor', 'Phone')
    await page.getByText('No second factor yet', { exact: false }).waitFor()
    expect(elsewhere).toEqual([])
  }, 60_000)
})
