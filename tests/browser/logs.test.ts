import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { customerOf, provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, PHONE, SCREENSHOTS, signIn, tab, until } from './support'

// The console's Logs group in a real Chromium: the audit log filtered by action, actor and time,
// a row linking to the thing it names; messages sent; webhook deliveries by endpoint and status.

const app = consoleServerForFile({ WEBHOOK_PRIVATE_ADDRESSES: 'allow', WEBHOOK_RETRY_SECONDS: '1' })
const PASSWORD = 'logs-page-password'

describe.skipIf(!!browserMissing)('the console’s logs in a browser', () => {
  test('audit log: filter by action, actor and time, follow a row to what it names; messages sent; webhook deliveries', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const as = org.as(owner)
    const ada = await customerOf(app.h, org, owner, 'ada')
    await app.h.call('PATCH', `/customer/customers/${ada.customerId}`, { ...as, body: { name: 'Ada Lovelace', email: 'ada@example.test' } })
    const hook = (await app.h.call('POST', '/integrations/webhooks', { ...as, body: { url: `${app.origin}/no-such-receiver`, events: [] } })).body
    expect((await app.h.call('POST', `/integrations/webhooks/${hook.id}/test`, as)).status).toBe(200)
    expect(
      (await app.h.call('POST', '/messaging/email', { ...as, body: { customerId: ada.customerId, subject: 'Welcome aboard', text: 'Hello' } })).status,
    ).toBe(200)

    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Audit log').click()
    const row = page.getByRole('row').filter({ hasText: 'integrations.webhook.created' })
    await row.waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-audit-log.png'), fullPage: true })

    // Action prefix: only the webhook's events remain.
    await page.getByLabel('Action').fill('integrations.')
    await page.getByLabel('Action').press('Enter')
    await until(async () => (await page.getByRole('row').filter({ hasText: 'registry.' }).count()) === 0, true)
    const actions = await page.locator('tbody tr td:nth-child(3)').allTextContents()
    expect(actions.length).toBeGreaterThan(0)
    expect(actions.every((a) => a.startsWith('integrations.'))).toBe(true)

    // A time range in the future matches nothing; cleared, the rows come back.
    await page.getByLabel('From').fill('2999-01-01T00:00')
    await page.getByText('Nothing logged that matches: widen the time range').waitFor()
    await page.getByLabel('From').fill('')
    await row.waitFor()

    // The actor's id filters to that actor; the target opens the webhook's page.
    await row.getByRole('button', { name: owner.user.id.slice(0, 8) }).click()
    expect(await page.getByLabel('Actor id').inputValue()).toBe(owner.user.id)
    await row.getByRole('link', { name: /^webhook / }).click()
    await page.getByRole('heading', { name: 'Endpoint' }).waitFor()
    expect(page.url()).toContain(`#/webhooks/${hook.id}`)

    await tab(page, 'Messages sent').click()
    const sent = page.getByRole('row').filter({ hasText: 'Welcome aboard' })
    await sent.waitFor()
    expect(await sent.textContent()).toContain('ada@example.test')
    await page.getByLabel('To').fill('2000-01-01T00:00')
    await page.getByText('Nothing sent yet.').waitFor()

    await tab(page, 'Webhook deliveries').click()
    await page.getByRole('row').filter({ hasText: 'webhook.test' }).waitFor()
    expect(await page.getByLabel('Endpoint').inputValue()).toBe(hook.id)
    await page.getByLabel('Status').selectOption('succeeded')
    await page.getByText('No deliveries succeeded.').waitFor()
    await page.getByRole('link', { name: 'Open endpoint' }).click()
    await page.getByRole('heading', { name: 'Endpoint' }).waitFor()
    expect(elsewhere).toEqual([])
    await page.close()

    // At phone width the log does not make the page scroll sideways.
    const phone = await app.open('/console', PHONE)
    await signIn(phone.page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(phone.page, 'Audit log').click()
    await phone.page.getByRole('row').filter({ hasText: 'integrations.webhook.created' }).waitFor()
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'console-audit-log-phone.png'), fullPage: true })
    await phone.page.close()
  })
})
