import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Harness, RegisteredUser } from '../support/harness'
import { startReceiver } from '../support/receiver'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import {
  browserMissing,
  confirmDialog,
  type ConsoleServer,
  DESKTOP,
  PHONE,
  reloadConsole,
  SCREENSHOTS,
  signIn,
  startConsoleServer,
  tab,
  until,
} from './support'

// The console's engagement pages (monitored sites, webhooks, community, notifications, messaging,
// site services) in a real Chromium against the service on a real port, by labels and visible
// text, with every request that leaves the service refused. The service's own outbound calls (a
// monitored site, a webhook) go to local servers: the service itself and a local receiver.

const PASSWORD = 'console-password-1'
let app: ConsoleServer
let h: Harness
let receiver: ReturnType<typeof startReceiver>
let origin: string
let owner: RegisteredUser
let org: Provisioned
let ada: { customerId: string; token: string }
beforeAll(async () => {
  if (browserMissing) return
  receiver = startReceiver()
  app = await startConsoleServer({
    MONITORED_SITES_PRIVATE_ADDRESSES: 'allow',
    WEBHOOK_PRIVATE_ADDRESSES: 'allow',
    SITE_SERVICE_PRIVATE_ADDRESSES: 'allow',
    WEBHOOK_RETRY_SECONDS: '1',
  })
  h = app.h
  origin = app.origin
  owner = await h.register({ password: PASSWORD })
  org = await provision(h, owner)
  ada = await customerOf(h, org, owner, 'ada')
  await h.call('PATCH', `/customer/customers/${ada.customerId}`, { ...org.as(owner), body: { name: 'Ada Lovelace', email: 'ada@example.test' } })
}, 60_000)
afterAll(async () => {
  if (browserMissing) return
  receiver.close()
  await app.close()
})

/** The console, signed in as the owner, with the ecosystem picked. */
async function openSignedIn(viewport = DESKTOP) {
  const opened = await app.open('/console', viewport)
  await signIn(opened.page, owner.email, PASSWORD, org.ecosystem.name)
  return opened
}

describe.skipIf(!!browserMissing)('the console’s engagement pages in a browser', () => {
  test('monitored sites: add the service itself, check it now (by keyboard) and see the chart get a point', async () => {
    const { page, elsewhere } = await openSignedIn()
    await tab(page, 'Monitored sites').click()
    await page.getByText('No sites watched yet.').waitFor()
    await page.getByLabel('Site name').fill('Ecobase itself')
    await page.getByLabel('URL').fill(`${origin}/health`)
    await page.getByLabel('Check every (minutes)').fill('60')
    await page.getByRole('button', { name: 'Add site' }).click()
    await page.getByRole('link', { name: 'Ecobase itself' }).click()

    const chart = page.getByRole('img', { name: /Uptime and latency/ })
    const before = Number(await chart.getAttribute('data-checks'))
    // Keyboard: focus the button and press Enter.
    await page.getByRole('button', { name: 'Check now' }).focus()
    await page.keyboard.press('Enter')
    const result = page.getByRole('status').filter({ hasText: /^Checked:/ })
    await result.waitFor()
    expect(await result.textContent()).toMatch(/^Checked: up, status 200, \d+\sms/)
    const label = await until(
      () => chart.getAttribute('aria-label'),
      (l) => /of the last \d+ checks?: \d+ up, 0 failed; latency/.test(l ?? ''),
    )
    expect(Number(/last (\d+)/.exec(label!)![1])).toBeGreaterThan(before)
    expect(await chart.locator('circle').count()).toBeGreaterThanOrEqual(1)
    await page.getByRole('cell', { name: 'up', exact: true }).first().waitFor()
    expect(await page.getByRole('row', { name: /^Last 24 hours/ }).textContent()).toMatch(/^Last 24 hours100\.00\s%\d+\sms\d+$/)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-monitored-site.png'), fullPage: true })

    // The list shows the state, the 24 h uptime and p95 latency.
    await page.getByRole('link', { name: '← Monitored sites' }).click()
    const row = page.getByRole('row', { name: /Ecobase itself/ })
    await until(
      () => row.textContent(),
      (t) => /up100\.00\s%\d+\sms/.test(t ?? ''),
    )
    await page.screenshot({ path: join(SCREENSHOTS, 'console-monitored-sites.png'), fullPage: true })

    // A site that answers 503 is down after two failed checks: red marks on the chart.
    // (More failures are planned than checked: the scheduler may check it too, any minute.)
    receiver.plan.set('/flaky', ['down', 'down', 'down', 'down', 'down', 'down'])
    await page.getByLabel('Site name').fill('Flaky shop')
    await page.getByLabel('URL').fill(`${receiver.url}/flaky`)
    await page.getByLabel('Check every (minutes)').fill('60')
    await page.getByRole('button', { name: 'Add site' }).click()
    await page.getByRole('link', { name: 'Flaky shop' }).click()
    const flaky = page.getByRole('img', { name: /Uptime and latency/ })
    await flaky.waitFor()
    let checked = Number(await flaky.getAttribute('data-checks'))
    while (checked < 2) {
      await page.getByRole('button', { name: 'Check now' }).click()
      checked = Number(
        await until(
          () => flaky.getAttribute('data-checks'),
          (n) => Number(n) > checked,
        ),
      )
    }
    await page.getByRole('status').filter({ hasText: 'Checked: failed, status 503' }).waitFor()
    const failed = await until(
      () => flaky.getAttribute('aria-label'),
      (l) => /last (\d+) checks: 0 up, \1 failed/.test(l ?? ''),
    )
    expect(await flaky.locator('rect.fail').count()).toBe(Number(/last (\d+)/.exec(failed!)![1]))
    await page.getByText('answered 503, expected 200').first().waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-monitored-site-down.png'), fullPage: true })
    await page.getByRole('link', { name: '← Monitored sites' }).click()
    await until(
      () => page.getByRole('row', { name: /Flaky shop/ }).textContent(),
      (t) => /down0\.00\s%/.test(t ?? ''),
    )
    await page.screenshot({ path: join(SCREENSHOTS, 'console-monitored-sites.png'), fullPage: true })

    // Its settings can be changed.
    await page.getByRole('link', { name: 'Flaky shop' }).click()
    await page.getByRole('button', { name: 'Edit settings' }).click()
    const settings = page.getByRole('form', { name: 'Site settings' })
    expect(await settings.getByLabel('Check every (minutes)').inputValue()).toBe('60')
    await settings.getByLabel('Check every (minutes)').fill('15')
    await settings.getByLabel('Keyword (optional)').fill('open for business')
    await settings.getByRole('button', { name: 'Save settings' }).click()
    await page
      .getByRole('definition')
      .filter({ hasText: /^15 min/ })
      .waitFor()
    const sites = (await h.call('GET', '/monitored_sites/sites', org.as(owner))).body.items
    expect(sites.find((x: { name: string }) => x.name === 'Flaky shop')).toMatchObject({ intervalMinutes: 15, keyword: 'open for business' })
    expect(elsewhere).toEqual([])
    await page.close()
  }, 60_000)

  test('webhooks: create an endpoint and see its secret once, send a test event, see it delivered, retry it', async () => {
    const { page, elsewhere } = await openSignedIn()
    await tab(page, 'Webhooks').click()
    await page.getByLabel('Endpoint URL').fill(`${receiver.url}/console-hook`)
    await page.getByLabel('Description (optional)').fill('CRM sync')
    await page.getByRole('checkbox', { name: 'customer.created' }).check()
    await page.getByRole('button', { name: 'Create endpoint' }).click()
    const secret = (await page.getByTestId('new-webhook-secret').textContent())!
    expect(secret).toMatch(/^whsec_/)
    await page.getByRole('link', { name: `${receiver.url}/console-hook` }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-webhooks.png'), fullPage: true })
    await page.getByRole('button', { name: 'Done' }).click()
    await reloadConsole(page)
    await page.getByRole('link', { name: `${receiver.url}/console-hook` }).waitFor()
    expect(await page.content()).not.toContain(secret)

    await page.getByRole('link', { name: `${receiver.url}/console-hook` }).click()
    await page.getByText('No deliveries yet: send a test event').waitFor()
    await page.getByRole('button', { name: 'Send test event' }).click()
    await page.getByRole('row', { name: /webhook\.test/ }).waitFor()
    const status = () =>
      page
        .getByRole('row', { name: /webhook\.test/ })
        .getByRole('cell')
        .nth(1)
        .textContent()
    await until(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      return status()
    }, 'succeeded')
    await until(() => receiver.to('/console-hook').length, 1)
    expect(JSON.parse(receiver.to('/console-hook')[0]!.body).type).toBe('webhook.test')

    // Subscribe it to one more event.
    await page.getByRole('button', { name: 'Edit endpoint' }).click()
    const settings = page.getByRole('form', { name: 'Endpoint settings' })
    expect(await settings.getByRole('checkbox', { name: 'customer.created' }).isChecked()).toBe(true)
    await settings.getByRole('checkbox', { name: 'customer.deleted' }).check()
    await settings.getByRole('button', { name: 'Save endpoint' }).click()
    await page.getByRole('definition').filter({ hasText: 'customer.created, customer.deleted' }).waitFor()

    await page.getByRole('button', { name: /^Retry delivery of webhook\.test/ }).click()
    await page.getByRole('status').filter({ hasText: 'queued again' }).waitFor()
    await until(() => receiver.to('/console-hook').length, 2)
    await until(async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      return status()
    }, 'succeeded')
    expect(await page.getByRole('row', { name: /webhook\.test/ }).count()).toBe(1)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-webhook.png'), fullPage: true })
    expect(elsewhere).toEqual([])
    await page.close()
  }, 60_000)

  test('community: a customer’s thread is locked and pinned in the console; the leaderboard is a table by period', async () => {
    const thread = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Analytical engines', body: 'Can they weave algebra?' } })
    expect(thread.status).toBe(201)
    const { page, elsewhere } = await openSignedIn()
    await tab(page, 'Community').click()
    await page
      .getByRole('row', { name: /Analytical engines/ })
      .getByRole('link', { name: 'Ada Lovelace' })
      .waitFor()
    await page.getByRole('button', { name: 'Lock Analytical engines' }).click()
    await page.getByRole('button', { name: 'Unlock Analytical engines' }).waitFor()
    await page.getByRole('button', { name: 'Pin Analytical engines' }).click()
    await page.getByRole('button', { name: 'Unpin Analytical engines' }).waitFor()
    const read = await h.call('GET', `/community/threads/${thread.body.id}`, org.as(owner))
    expect(read.body).toMatchObject({ locked: true, pinned: true })
    // Locked: the customer can no longer reply.
    expect((await h.call('POST', '/community/replies', { token: ada.token, body: { threadId: thread.body.id, body: 'late' } })).status).toBe(409)

    const board = page.getByRole('table', { name: 'Leaderboard, all time' })
    await board.getByRole('cell', { name: 'Ada Lovelace' }).waitFor()
    expect(await board.getByRole('row').nth(1).textContent()).toMatch(/^1Ada Lovelace5/)
    await page.getByLabel('Period').selectOption({ label: 'Today' })
    await page.getByRole('table', { name: 'Leaderboard, today' }).getByRole('cell', { name: 'Ada Lovelace' }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-community.png'), fullPage: true })

    await page.getByRole('button', { name: 'Delete Analytical engines' }).click()
    await confirmDialog(page, 'Delete thread', 'Analytical engines')
    await page.getByText('No threads yet.').waitFor()
    await page.getByLabel('Show deleted threads').check()
    await page
      .getByRole('row', { name: /Analytical engines/ })
      .getByText('deleted')
      .first()
      .waitFor()
    expect((await h.call('GET', `/community/threads/${thread.body.id}`, { token: ada.token })).status).toBe(404)
    expect(elsewhere).toEqual([])
    await page.close()
  }, 60_000)

  test('notifications and messaging: send an announcement, set a preference, write and edit a template, see the send log', async () => {
    // Ada wants announcements by e-mail (they are in-app only by default).
    expect((await h.call('PUT', '/notifications/preferences/admin_announcement', { token: ada.token, body: { email: true, sms: false } })).status).toBe(200)
    const { page, elsewhere } = await openSignedIn()
    await tab(page, 'Notifications').click()
    await page.getByLabel('Subject').fill('Maintenance tonight')
    await page.getByLabel('Message').fill('The engine rests from 22:00 to 23:00.')
    await page.getByRole('button', { name: 'Send announcement' }).click()
    await confirmDialog(page, 'Send to everyone', 'Maintenance tonight')
    await page
      .getByRole('status')
      .filter({ hasText: /Announcement “Maintenance tonight” sent to \d+ customers?\./ })
      .waitFor()
    // The announcement reaches customers through a queued fan-out: Ada's notification comes soon after the answer.
    const subjects = async () => (await h.call('GET', '/notifications', { token: ada.token })).body.items.map((n: { subject: string }) => n.subject) as string[]
    await until(subjects, (seen) => seen.includes('Maintenance tonight'))

    const sms = page.getByRole('checkbox', { name: 'Announcements by SMS' })
    expect(await sms.isChecked()).toBe(false)
    await sms.check()
    await page
      .getByRole('status')
      .filter({ hasText: /^Announcements: e-mail o(n|ff), SMS on\.$/ })
      .waitFor()
    const prefs = await h.call('GET', '/notifications/preferences', org.as(owner))
    expect(prefs.body.find((p: { category: string }) => p.category === 'admin_announcement')).toMatchObject({ sms: true })
    await page.screenshot({ path: join(SCREENSHOTS, 'console-notifications.png'), fullPage: true })

    await tab(page, 'Messaging').click()
    await page.getByText('No templates yet.').waitFor()
    await page.getByLabel('Template name').fill('welcome')
    await page.getByLabel('Category').selectOption('account')
    await page.getByLabel('Subject').fill('Welcome, {{customer.name}}')
    await page.getByLabel('Text body').fill('Hello {{customer.name}}!')
    await page.getByLabel('HTML body').fill('<p>Hello {{customer.name}}!</p>')
    await page.getByRole('button', { name: 'Create template' }).click()
    await page.getByRole('cell', { name: 'welcome', exact: true }).waitFor()
    await page.getByRole('button', { name: 'Edit welcome' }).click()
    // Edit moves the focus to the form (wait for it, or typing elsewhere would land there).
    await page.waitForFunction(() => document.activeElement?.id === 'template-name')
    expect(await page.getByLabel('Template name').inputValue()).toBe('welcome')
    await page.getByLabel('Subject').fill('A warm welcome, {{customer.name}}')
    await page.getByRole('button', { name: 'Save template' }).click()
    await page.getByRole('cell', { name: 'A warm welcome, {{customer.name}}', exact: true }).waitFor()
    const templates = await h.call('GET', '/messaging/templates', org.as(owner))
    expect(templates.body.items).toMatchObject([{ name: 'welcome', subject: 'A warm welcome, {{customer.name}}' }])

    // The announcement's e-mail to Ada is in the send log (the harness keeps it in the local outbox).
    const logRow = page.getByRole('row', { name: /ada@example\.test/ })
    await until(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click()
        return logRow.count()
      },
      (n) => n >= 1,
    )
    expect(await logRow.first().textContent()).toContain('Maintenance tonight')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-messaging.png'), fullPage: true })
    expect(elsewhere).toEqual([])
    await page.close()
  }, 60_000)

  test('site services: save an SMTP setting (its values never shown), see it listed, delete it', async () => {
    const { page, elsewhere } = await openSignedIn()
    await tab(page, 'Site services').click()
    await page.getByText(/No services/).waitFor()
    await page.getByLabel('Service name').fill('mail')
    await page.getByLabel('Kind').selectOption({ label: 'E-mail (SMTP)' })
    await page.getByLabel('Host').fill('127.0.0.1')
    await page.getByLabel('Port', { exact: true }).fill('2525')
    await page.getByLabel('Password', { exact: true }).fill('hunter2-secret')
    await page.getByLabel('Sender').fill('Shop <shop@example.test>')
    await page.getByRole('button', { name: 'Save service' }).click()
    await page.getByRole('status').filter({ hasText: 'Service “mail” saved.' }).waitFor()
    const keys = (await page.getByRole('row', { name: /mail/ }).getByRole('cell').nth(4).textContent())!.split(', ').sort()
    expect(keys).toEqual(['from', 'host', 'pass', 'port'])
    expect(await page.content()).not.toContain('hunter2-secret')
    const stored = (await h.call('GET', '/site/services/mail', org.as(owner))).body
    expect(stored).toMatchObject({ kind: 'smtp', enabled: true })
    // A bad setting shows the API's message.
    await page.getByLabel('Service name').fill('sms')
    await page.getByLabel('Kind').selectOption({ label: 'SMS (Twilio)' })
    await page.getByLabel('Account SID').fill('nope')
    await page.getByRole('button', { name: 'Save service' }).click()
    expect(await page.getByRole('alert').textContent()).toContain('validation_failed')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-site-services.png'), fullPage: true })

    await page.getByRole('button', { name: 'Delete mail' }).click()
    await confirmDialog(page, 'Delete service', 'mail')
    await page.getByText(/No services/).waitFor()
    expect((await h.call('GET', '/site/services', org.as(owner))).body).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  }, 60_000)

  test('at phone width the pages keep their actions and the chart', async () => {
    const { page, elsewhere } = await openSignedIn(PHONE)
    await tab(page, 'Monitored sites').click()
    // The list keeps the state, uptime and p95 latency; the page does not scroll sideways.
    await until(
      () => page.getByRole('row', { name: /Flaky shop/ }).textContent(),
      (t) => /down0\.00\s%\d+\sms/.test(t ?? ''),
    )
    expect(await page.getByRole('columnheader', { name: 'p95 latency' }).isVisible()).toBe(true)
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-monitored-sites-phone.png'), fullPage: true })
    await page.getByRole('link', { name: 'Ecobase itself' }).click()
    const chart = page.getByRole('img', { name: /Uptime and latency of the last/ })
    await chart.waitFor()
    expect((await chart.boundingBox())!.width).toBeLessThanOrEqual(390)
    await page.getByRole('button', { name: 'Check now' }).waitFor({ state: 'visible' })
    await page.screenshot({ path: join(SCREENSHOTS, 'console-monitored-site-phone.png'), fullPage: true })

    await tab(page, 'Webhooks').click()
    await page.getByRole('link', { name: `${receiver.url}/console-hook` }).click()
    await page.getByRole('button', { name: /^Retry delivery of webhook\.test/ }).waitFor({ state: 'visible' })
    await page.screenshot({ path: join(SCREENSHOTS, 'console-webhook-phone.png'), fullPage: true })
    // The page itself does not scroll sideways.
    const width = () => page.evaluate(() => document.documentElement.scrollWidth)
    expect(await width()).toBeLessThanOrEqual(390)

    await tab(page, 'Community').click()
    await page.getByRole('table', { name: 'Leaderboard, all time' }).getByRole('cell', { name: '5' }).waitFor({ state: 'visible' })
    expect(await width()).toBeLessThanOrEqual(390)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-community-phone.png'), fullPage: true })
    await tab(page, 'Messaging').click()
    await page.getByRole('button', { name: 'Edit welcome' }).waitFor({ state: 'visible' })
    await page
      .getByRole('row', { name: /ada@example\.test/ })
      .getByText('sent')
      .waitFor({ state: 'visible' })
    expect(await width()).toBeLessThanOrEqual(390)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-messaging-phone.png'), fullPage: true })
    await tab(page, 'Notifications').click()
    await page.getByRole('checkbox', { name: 'Announcements by SMS' }).waitFor({ state: 'visible' })
    expect(await width()).toBeLessThanOrEqual(390)
    expect(elsewhere).toEqual([])
    await page.close()
  }, 60_000)
})
