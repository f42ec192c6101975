import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { post } from '../chat/support'
import { customerOf, provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, PHONE, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The console's Overview in a real Chromium: the first page after signing in, its figures, the two
// daily charts and the recent activity, each from GET /usage/overview.

const app = consoleServerForFile()
const PASSWORD = 'overview-page-password'

async function chatSend(token: string, message: string) {
  const { body: conversation } = await app.h.call('POST', '/chat/conversations', { token, body: {} })
  const res = await post(app.h, `/chat/conversations/${conversation.id}/messages`, token, { message })
  await res.text()
}

describe.skipIf(!!browserMissing)('the console’s overview in a browser', () => {
  test('the first page: customers, storage, messages, failures, sites down, charts of the last 7 days, recent activity', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const as = org.as(owner)
    const ada = await customerOf(app.h, org, owner, 'ada')
    const bob = await customerOf(app.h, org, owner, 'bob')
    await chatSend(ada.token, 'one')
    await chatSend(ada.token, 'two')
    await chatSend(bob.token, 'three')
    const site = (await app.h.call('POST', '/monitored_sites/sites', { ...as, body: { name: 'Shop', url: 'https://shop.example.test', intervalMinutes: 60 } }))
      .body
    await app.h.db.execute(sql`update monitored_sites.sites set state = 'down', state_changed_at = now() where id = ${site.id}`)
    await app.h.db.execute(
      sql`insert into site.feed_items (ecosystem_id, customer_id, source, entity_type, action, summary) values (${org.ecosystem.id}, ${bob.customerId}, 'community', 'reply', 'created', 'Ada replied to your thread')`,
    )

    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await page.getByRole('region', { name: 'Figures' }).waitFor()
    expect(await page.getByTestId('overview-customers').textContent()).toBe('2')
    expect(await page.getByTestId('overview-sites-down').textContent()).toBe('1')
    // The owner is the first account, a platform admin: the instance's last good backup is there too.
    expect(await page.getByTestId('overview-last-backup').textContent()).toBe('Last complete backup of this instance: none yet')
    const today = new Date().toISOString().slice(5, 10)
    const chats = page.getByRole('img', { name: /^Chat messages per day/ })
    expect(await chats.getAttribute('aria-label')).toContain(`${today} 3`)
    expect((await chats.getAttribute('data-values'))!.split(',')).toEqual(['0', '0', '0', '0', '0', '0', '3'])
    // Two customer sessions, and the owner's two sign-ins: at registration and in this console.
    expect(await page.getByRole('img', { name: /^Sign-ins per day/ }).getAttribute('aria-label')).toContain(`${today} 4`)
    await page.getByText('Ada replied to your thread').waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-overview.png'), fullPage: true })
    await page.getByRole('link', { name: 'Shop' }).click()
    await page.getByRole('img', { name: /Uptime and latency/ }).waitFor()
    await tab(page, 'Overview').click()
    await until(async () => page.getByTestId('overview-customers').textContent(), '2')
    expect(elsewhere).toEqual([])
    await page.close()

    const phone = await app.open('/console', PHONE)
    await signIn(phone.page, owner.email, PASSWORD, org.ecosystem.name)
    await phone.page.getByText('Ada replied to your thread').waitFor()
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'console-overview-phone.png'), fullPage: true })
    await phone.page.close()
  })

  test('after an upload on the Storage page, the overview shows the same bytes, and a new sign-in adds to the chart', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await until(() => page.getByTestId('overview-storage').textContent(), '0 B')
    const signIns = page.getByRole('img', { name: /^Sign-ins per day/ })
    const lastDay = async () => Number((await signIns.getAttribute('data-values'))!.split(',').at(-1))
    expect(await lastDay()).toBe(2)
    await tab(page, 'Storage').click()
    await page.getByLabel('Upload a file').setInputFiles({ name: 'report.txt', mimeType: 'text/plain', buffer: Buffer.from('y'.repeat(83_558)) })
    await until(() => page.getByTestId('usage').textContent(), '81.6 KB')
    expect((await app.h.call('POST', '/auth/login', { body: { email: owner.email, password: PASSWORD } })).status).toBe(200)
    await tab(page, 'Overview').click()
    await until(() => page.getByTestId('overview-storage').textContent(), '81.6 KB')
    await until(lastDay, 3)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })
})
