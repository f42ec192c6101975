import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { RegisteredUser } from '../support/harness'
import { mfaKit } from '../support/mfa'
import { provision } from '../support/tenancy'
import { browserMissing, confirmDialog, consoleServerForFile, PHONE, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The console's People page in a real Chromium: a platform admin sees every account's two-step
// verification in words, and resets an account's through the in-page confirmation (Cancel keeps
// it); others do not get the page; at phone width it fits.

const ADMIN = `people-admin-${crypto.randomUUID().slice(0, 8)}@example.test`
const STRONG_ADMIN = `people-strong-admin-${crypto.randomUUID().slice(0, 8)}@example.test`
const app = consoleServerForFile({ ADMIN_EMAILS: `${ADMIN},${STRONG_ADMIN}` })
const PASSWORD = 'people-page-password'

const register = (name: string, email?: string) => app.h.register({ password: PASSWORD, name, ...(email ? { email } : {}) })
/** The account's second factor as the API lists it to `admin`. */
const listed = async (admin: RegisteredUser, who: RegisteredUser) => {
  const { body } = await app.h.call('GET', `/auth/admin/users?q=${encodeURIComponent(who.email)}`, { token: admin.token })
  return body.items.find((i: { id: string }) => i.id === who.user.id).secondFactor.verified as boolean
}
const row = (page: Page, who: RegisteredUser) => page.getByRole('row').filter({ hasText: who.email })
const resetButton = (page: Page, who: RegisteredUser) => page.getByRole('button', { name: `Reset two-step verification of ${who.email}` })

let admin: RegisteredUser
const theAdmin = async () => {
  admin ??= await register('Pat Admin', ADMIN)
  return admin
}

describe.skipIf(!!browserMissing)('the console’s People page in a browser', () => {
  test('a platform admin sees who verifies in two steps and resets one, Cancel first keeping it', async () => {
    const admin = await theAdmin()
    const enrolled = await register('Erin Enrolled')
    await mfaKit(app.h).enrol(enrolled)
    const plain = await register('Paul Plain')
    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, admin.email, PASSWORD)
    await tab(page, 'People').click()
    await page.getByRole('heading', { name: 'People', level: 2 }).waitFor()

    await until(
      async () => (await row(page, enrolled).textContent()) ?? '',
      (text) => text.includes('Verified'),
    )
    expect(await row(page, enrolled).textContent()).toContain('authenticator app; 10 recovery codes left')
    expect(await row(page, plain).textContent()).toContain('Password only')
    expect(await resetButton(page, plain).count()).toBe(0)
    expect(await row(page, admin).textContent()).toContain('platform admin')

    // The search narrows the list to matching e-mails and names.
    await page.getByRole('searchbox').fill('erin enrolled')
    await until(() => page.locator('tbody tr').count(), 1)
    expect(await row(page, enrolled).count()).toBe(1)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-people.png'), fullPage: true })

    // Cancel keeps the factor.
    await resetButton(page, enrolled).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    const question = (await dialog.textContent()) ?? ''
    for (const said of [enrolled.email, 'authenticator apps, passkeys and recovery codes are removed', 'every session of theirs ends', 'e-mailed'])
      expect(question).toContain(said)
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(await row(page, enrolled).textContent()).toContain('Verified')
    expect(await listed(admin, enrolled)).toBe(true)

    await resetButton(page, enrolled).click()
    await confirmDialog(page, 'Reset', enrolled.email)
    await until(
      async () => (await row(page, enrolled).textContent()) ?? '',
      (text) => text.includes('Password only'),
    )
    expect(await resetButton(page, enrolled).count()).toBe(0)
    expect(await listed(admin, enrolled)).toBe(false)
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })

  test('an admin with a second factor verifies it at sign-in, then resets another account; their own row points to Second factors', async () => {
    const kit = mfaKit(app.h)
    const strong = await register('Sam Strong', STRONG_ADMIN)
    const { secret } = await kit.enrol(strong)
    const target = await register('Tia Target')
    await kit.enrol(target)
    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    await page.getByLabel('E-mail').fill(strong.email)
    await page.getByLabel('Password').fill(PASSWORD)
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    await page.getByLabel('Code').fill(kit.code(secret))
    await page.getByRole('button', { name: 'Verify' }).click()
    await tab(page, 'People').click()

    await until(
      async () => (await row(page, strong).textContent()) ?? '',
      (text) => text.includes('Verified'),
    )
    // The row's action shows once the page knows whose row is yours (GET /auth/me), never a Reset before.
    await row(page, strong).getByRole('link', { name: 'Yours: Second factors' }).waitFor()
    expect(await resetButton(page, strong).count()).toBe(0)
    await resetButton(page, target).click()
    await confirmDialog(page, 'Reset', target.email)
    await until(
      async () => (await row(page, target).textContent()) ?? '',
      (text) => text.includes('Password only'),
    )
    expect(await listed(await theAdmin(), target)).toBe(false)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })

  test('an account that is no platform admin has no People page, by the sections or by its address', async () => {
    const member = await register('Mo Member')
    const org = await provision(app.h, member)
    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, member.email, PASSWORD, org.ecosystem.name)
    const sections = page.getByRole('navigation', { name: 'Sections' })
    await sections.getByRole('link', { name: 'Team', exact: true }).waitFor()
    expect(await sections.getByRole('link', { name: 'People', exact: true }).count()).toBe(0)

    await page.goto(`${app.origin}/console#/people`)
    await page.locator('main h2').first().waitFor()
    expect(await page.getByRole('heading', { name: 'People', level: 2 }).count()).toBe(0)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })

  test('at 390 px the page fits the width, the reset in reach', async () => {
    const admin = await theAdmin()
    const enrolled = await register('Phoebe Phone-Enrolled')
    await mfaKit(app.h).enrol(enrolled)
    const { page, elsewhere } = await app.open('/console', PHONE)
    const problems = watchProblems(page)
    await signIn(page, admin.email, PASSWORD)
    await tab(page, 'People').click()
    await resetButton(page, enrolled).waitFor()
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: innerWidth }))
    expect(widths.scroll).toBeLessThanOrEqual(widths.inner)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-people-phone.png'), fullPage: true })
    // The columns a phone leaves out are the dates: the account, its two-step verification and the reset fit without scrolling.
    const box = (await resetButton(page, enrolled).boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })
})
