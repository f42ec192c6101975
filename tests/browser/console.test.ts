import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { newConversation, send, type ChatActor } from '../chat/support'
import type { Harness, RegisteredUser } from '../support/harness'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { browserMissing, confirmDialog, PHONE, SCREENSHOTS, signIn, startConsoleServer, tab, until, type ConsoleServer } from './support'

// The console in a real Chromium against the service on a real port: what an operator does,
// by labels and visible text, with every request that leaves the service refused.

const PASSWORD = 'console-password-1'
let app: ConsoleServer
let h: Harness
let owner: RegisteredUser
let org: Provisioned
let ada: { customerId: string }
beforeAll(async () => {
  if (browserMissing) return
  app = await startConsoleServer()
  h = app.h
  owner = await h.register({ password: PASSWORD })
  org = await provision(h, owner)
  // A customer with a conversation, for the support view.
  const tokens = await customerOf(h, org, owner, 'ada')
  await h.call('PATCH', `/customer/customers/${tokens.customerId}`, { ...org.as(owner), body: { name: 'Ada Lovelace' } })
  const actor = { org, owner, customer: tokens, auth: { token: tokens.token } } as ChatActor
  const conversation = await newConversation(h, actor, { title: 'Engines' })
  await send(h, actor, conversation.id, { message: 'Can the engine compose music?' })
  ada = tokens
}, 60_000)
afterAll(async () => {
  if (browserMissing) return
  await app.close()
})

const signInOwner = (page: Page) => signIn(page, owner.email, PASSWORD, org.ecosystem.name)

describe.skipIf(!!browserMissing)('the console in a browser', () => {
  test('sign in, pick the ecosystem, create a customer, read a conversation, upload, create an API token, sign out', async () => {
    const { page, elsewhere } = await app.open()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-sign-in.png') })

    // A wrong password shows the API's message.
    await page.getByLabel('E-mail').fill(owner.email)
    await page.getByLabel('Password').fill('not-the-password')
    await page.getByRole('button', { name: 'Sign in', exact: true }).click()
    expect(await page.getByRole('alert').textContent()).toContain('invalid_credentials')

    await signInOwner(page)
    // The refresh token stays in the httpOnly cookie: nothing of the session is in page storage.
    const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }))
    expect(stored).not.toContain('eyJ')
    expect(await page.evaluate(() => document.cookie)).toBe('')

    // The overview comes first; then customers: create one and see it listed; search narrows the list.
    await page.getByRole('region', { name: 'Figures' }).waitFor()
    await tab(page, 'Customers').click()
    await page.getByRole('cell', { name: 'Ada Lovelace' }).waitFor()
    await page.getByLabel('External id').fill('grace')
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper')
    await page.getByRole('button', { name: 'Create customer' }).click()
    await page.getByRole('cell', { name: 'Grace Hopper' }).waitFor()
    await page.getByLabel('Search').fill('grace')
    await until(() => page.getByRole('row').count(), 2)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-customers.png') })
    await page.getByLabel('Search').fill('')
    // The owner's own record (made when it acts in the ecosystem) shows only when asked for.
    const own = (await h.call('GET', '/customer/me', org.as(owner))).body
    expect(own.externalId).toBe(`user:${owner.user.id}`)
    await until(() => page.getByRole('row').count(), 3)
    await page.getByLabel('Show the team’s and alert contacts’ own records').check()
    await page.getByRole('cell', { name: `user:${owner.user.id}` }).waitFor()
    await page.getByLabel('Show the team’s and alert contacts’ own records').uncheck()
    await until(() => page.getByRole('cell', { name: `user:${owner.user.id}` }).count(), 0)

    // Support: read Ada's conversation.
    await page.getByRole('link', { name: 'Ada Lovelace' }).click()
    await page.getByRole('button', { name: /Read conversations/ }).click()
    await page.getByRole('button', { name: 'Engines' }).click()
    expect(await page.getByLabel('Messages of Engines').textContent()).toContain('Can the engine compose music?')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-customer.png') })
    // That was a support session (audited, not refreshable), and leaving the page ends it.
    const supportLog = (action: string) => h.call('GET', `/audit/events?action=customer.support_session.${action}`, org.as(owner))
    const [started] = (await supportLog('started')).body.items
    expect(started.target).toMatchObject({ type: 'customer', id: ada.customerId })

    // Storage: an upload moves the usage bar.
    await page.getByRole('link', { name: 'Storage' }).first().click()
    await until(
      async () => (await supportLog('ended')).body.items.map((e: { metadata: { sessionId: string } }) => e.metadata.sessionId).join(),
      started.metadata.sessionId,
    )
    expect(await page.getByTestId('usage').textContent()).toBe('0 B')
    await page.getByLabel('Upload a file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x'.repeat(2048)) })
    await until(() => page.getByTestId('usage').textContent(), '2.0 KB')
    await page.getByRole('cell', { name: 'notes.txt' }).waitFor()
    expect(await page.getByRole('meter', { name: 'Storage used' }).getAttribute('aria-valuenow')).toBe('2048')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-storage.png') })

    // API tokens: the secret is shown once.
    await page.getByRole('link', { name: 'API tokens' }).click()
    await page.getByLabel('Name', { exact: true }).fill('deploy bot')
    await page.getByRole('button', { name: 'Create token' }).click()
    const secret = (await page.getByTestId('new-token').textContent())!
    expect(secret).toStartWith('eco_')
    const me = await h.call('GET', '/auth/me', { token: secret })
    expect(me.body.email).toBe(owner.email)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-tokens.png') })
    await page.reload()
    await page.getByRole('cell', { name: 'deploy bot', exact: true }).waitFor()
    expect(await page.content()).not.toContain(secret)

    // Sign out ends the session: a reload stays signed out.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    await page.reload()
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor()
    expect(elsewhere).toEqual([])
    await page.close()
  }, 120_000)

  test('a reload keeps the session (from the cookie), the customer can be deleted, and a phone width works', async () => {
    const { page } = await app.open('/console', PHONE)
    await signInOwner(page)
    await tab(page, 'Customers').click()
    await page.reload()
    await page.getByRole('cell', { name: 'Ada Lovelace' }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-phone.png') })
    // Her storage against her quota, as the API has it (an admin set 1 KB).
    await h.call('PUT', `/usage/storage/quotas/${ada.customerId}`, { ...org.as(owner), body: { quotaBytes: 1024 } })
    await page.getByRole('link', { name: 'Ada Lovelace' }).click()
    expect(await page.getByTestId('customer-usage').textContent()).toBe('0 B of 1.0 KB used')
    expect(await page.getByRole('meter', { name: 'Storage used by this customer' }).getAttribute('aria-valuemax')).toBe('1024')
    await page.getByRole('button', { name: 'Delete customer' }).click()
    // Asked in the page, naming the customer; Cancel keeps it.
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    expect((await h.call('GET', `/customer/customers/${ada.customerId}`, org.as(owner))).status).toBe(200)
    await page.getByRole('button', { name: 'Delete customer' }).click()
    await confirmDialog(page, 'Delete customer', 'Ada Lovelace')
    await page.getByRole('button', { name: 'Create customer' }).waitFor()
    expect((await h.call('GET', `/customer/customers/${ada.customerId}`, org.as(owner))).status).toBe(404)
    await page.close()
  }, 120_000)
})
