import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { customerOf, provision } from '../support/tenancy'
import { browserMissing, confirmDialog, consoleServerForFile, PHONE, SCREENSHOTS, signIn, tab, until } from './support'

// The console's Billing page in a real Chromium: the provider (Stripe keys write-only), a feature,
// a plan made and edited in the form, and a customer's plan in force, use and manual assignment.

const app = consoleServerForFile()
const PASSWORD = 'billing-page-password'

describe.skipIf(!!browserMissing)('the console’s billing page in a browser', () => {
  test('features, plans and a customer’s plan: made in the console, in force through the API', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const ada = await customerOf(app.h, org, owner, 'ada')
    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Plans and features').click()

    // A feature of the ecosystem's own, beside the two built in.
    await page.getByRole('cell', { name: 'chat.messages' }).waitFor()
    await page.getByLabel('Feature key').fill('exports')
    await page.getByLabel('Feature name').fill('Exports')
    await page.getByRole('button', { name: 'Add feature' }).click()
    await page.getByRole('button', { name: 'Delete feature exports' }).waitFor()

    // A default plan: two chat messages a month, five exports.
    await page.getByRole('button', { name: 'New plan' }).click()
    await page.getByLabel('Plan key').fill('free')
    await page.getByLabel('Plan name').fill('Free')
    await page.getByLabel('Default plan').check()
    await page.getByLabel('Limit of chat.messages', { exact: true }).fill('2')
    await page.getByLabel('Grant exports').check()
    await page.getByLabel('Limit of exports', { exact: true }).fill('5')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-billing-plan.png'), fullPage: true })
    await page.getByRole('button', { name: 'Create plan' }).click()
    const free = page.getByRole('row').filter({ hasText: 'Free' })
    await until(
      async () => (await free.textContent()) ?? '',
      (text) => text.includes('chat.messages 2') && text.includes('exports 5') && text.includes('default'),
    )
    const entitlements = async () => (await app.h.call('GET', '/billing/me', { token: ada.token })).body
    expect((await entitlements()).plan).toBe('free')
    expect((await entitlements()).entitlements.find((e: { feature: string }) => e.feature === 'exports')).toMatchObject({ limit: 5, remaining: 5 })

    // Edited: the new limit is in force.
    await page.getByRole('button', { name: 'Edit plan free' }).click()
    expect(await page.getByLabel('Plan key').isDisabled()).toBe(true)
    await page.getByLabel('Limit of exports', { exact: true }).fill('10')
    await page.getByLabel('Past the limit of exports').selectOption('allow')
    await page.getByRole('button', { name: 'Save plan' }).click()
    await until(
      async () => (await free.textContent()) ?? '',
      (text) => text.includes('exports 10 (overage allowed)'),
    )
    expect((await entitlements()).entitlements.find((e: { feature: string }) => e.feature === 'exports')).toMatchObject({ limit: 10 })

    // The provider: Stripe keys are kept, never shown.
    await page.getByLabel('Provider').selectOption('stripe')
    await page.getByLabel('Stripe secret key').fill('sk_test_console_secret')
    await page.getByRole('button', { name: 'Save provider' }).click()
    // Both keys are needed: the API's refusal is shown, nothing is kept.
    await page.getByRole('alert').filter({ hasText: 'stripeWebhookSecret' }).waitFor()
    await page.getByLabel('Stripe webhook secret').fill('whsec_console_secret')
    await page.getByRole('button', { name: 'Save provider' }).click()
    await page.getByText('kept now: stripeSecretKey, stripeWebhookSecret').waitFor()
    expect(await page.content()).not.toContain('sk_test_console_secret')
    expect(await page.content()).not.toContain('whsec_console_secret')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-billing.png'), fullPage: true })

    // A customer's page: the default plan and its use; a manual assignment wins until removed.
    await app.h.call('POST', '/billing/plans', {
      ...org.as(owner),
      body: { key: 'pro', name: 'Pro', entitlements: [{ feature: 'chat.messages', limit: 1000 }] },
    })
    await page.goto(`${app.origin}/console#/customers/${ada.customerId}`)
    const plan = page.getByTestId('customer-plan')
    await until(
      async () => (await plan.textContent()) ?? '',
      (text) => text.includes('Plan Free (the default)'),
    )
    await page.getByRole('meter', { name: 'chat.messages used' }).waitFor()
    await page.getByLabel('Assign plan').selectOption('pro')
    await page.getByRole('button', { name: 'Assign', exact: true }).click()
    await until(
      async () => (await plan.textContent()) ?? '',
      (text) => text.includes('Plan Pro (assigned here)'),
    )
    expect((await entitlements()).plan).toBe('pro')
    await page.getByRole('button', { name: 'Remove assignment' }).click()
    await confirmDialog(page, 'Remove assignment', 'manual plan')
    await until(
      async () => (await plan.textContent()) ?? '',
      (text) => text.includes('Plan Free (the default)'),
    )
    expect(elsewhere).toEqual([])
    await page.close()

    const phone = await app.open('/console', PHONE)
    await signIn(phone.page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(phone.page, 'Plans and features').click()
    await phone.page.getByRole('row').filter({ hasText: 'Free' }).waitFor()
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'console-billing-phone.png'), fullPage: true })
    await phone.page.close()
  })
})
