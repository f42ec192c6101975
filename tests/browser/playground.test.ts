import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { createPersona } from '../support/personas'
import { provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, PHONE, SCREENSHOTS, signIn, tab, until } from './support'

// The chat playground in a real Chromium: an admin picks a persona and a customer, and talks as the
// customer to the built-in dev model over the chat stream, tool calls shown as they happen.

const app = consoleServerForFile()
const PASSWORD = 'playground-page-password'

/** Console errors, uncaught page errors and requests that failed or were answered 4xx/5xx: none is expected. */
function watchProblems(page: Page): string[] {
  const problems: string[] = []
  page.on('console', (msg) => msg.type() === 'error' && problems.push(`console: ${msg.text()}`))
  page.on('pageerror', (err) => problems.push(`page: ${err.message}`))
  page.on('requestfailed', (req) => problems.push(`failed: ${req.method()} ${req.url()} ${req.failure()?.errorText}`))
  page.on('response', (res) => res.status() >= 400 && problems.push(`${res.status()}: ${res.request().method()} ${res.url()}`))
  return problems
}

describe.skipIf(!!browserMissing)('the console’s chat playground in a browser', () => {
  test('picks a persona and a customer, streams the reply and a tool call, and the support session is audited', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const as = org.as(owner)
    const persona = await createPersona(app.h, as, { name: 'Concierge' })
    await app.h.call('POST', '/customer/register', { ...as, body: { externalId: 'crm-1', name: 'Ada Lovelace', email: 'ada@example.test' } })
    const grace = (await app.h.call('POST', '/customer/register', { ...as, body: { externalId: 'crm-2', name: 'Grace Hopper', email: 'grace@example.test' } }))
      .body.customerId

    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    // From here on: before signing in, the page's try at restoring a session answers 401 by design.
    const problems = watchProblems(page)
    await tab(page, 'Chat playground').click()
    await page.getByRole('combobox', { name: /^Persona/ }).selectOption({ label: 'Concierge' })
    await page.getByLabel('Find a customer').fill('grace@')
    await page.getByRole('button', { name: 'Search' }).click()
    await page
      .getByRole('combobox', { name: /^Customer/ })
      .getByRole('option', { name: /Ada/ })
      .waitFor({ state: 'detached' })
    expect(await page.getByRole('combobox', { name: /^Customer/ }).inputValue()).toBe(grace)
    await page.getByRole('button', { name: 'Start conversation' }).click()
    await page.getByRole('heading', { name: 'Talking as Grace Hopper' }).waitFor()
    await page.getByText(/^Persona Concierge; support session until/).waitFor()
    await page.getByText('No messages yet: say something below.').waitFor()

    const log = page.getByRole('log', { name: 'Conversation' })
    await page.getByLabel('Message').fill('Hello from support')
    await page.getByRole('button', { name: 'Send' }).click()
    await log.getByText('You said: Hello from support').waitFor()
    await page.getByLabel('Message').fill('What time is it? current_time {"timezone":"Europe/Paris"}')
    await page.getByRole('button', { name: 'Send' }).click()
    const tool = log.getByTestId('tool-call')
    await tool.getByText('tool current_time').waitFor()
    await tool.getByText(/→ .*Europe\/Paris/).waitFor()
    await log.getByText(/^The tool answered:/).waitFor()
    await page.getByText('Streaming…').waitFor({ state: 'detached' })
    await page.screenshot({ path: join(SCREENSHOTS, 'console-playground.png'), fullPage: true })

    // What the page did is on the server: the customer's conversation with the persona, and the audit row.
    const audit = (await app.h.call('GET', '/audit/events?action=customer.support_session.started', as)).body.items
    expect(audit).toMatchObject([{ actor: { id: owner.user.id }, target: { type: 'customer', id: grace } }])
    const session = await app.h.call('POST', '/customer/support-sessions', { ...as, body: { customerId: grace } })
    const conversations = (await app.h.call('GET', '/chat/conversations', { token: session.body.token })).body.items
    expect(conversations).toHaveLength(1)
    const stored = (await app.h.call('GET', `/chat/conversations/${conversations[0].id}`, { token: session.body.token })).body
    expect(stored.conversation.personaSlug).toBe(persona.slug)
    expect(stored.messages.filter((m: { role: string }) => m.role === 'user').map((m: { content: string }) => m.content)).toEqual([
      'Hello from support',
      'What time is it? current_time {"timezone":"Europe/Paris"}',
    ])

    // Ending the session early: the page says so, its token is refused, and the end is audited.
    const pageSession = audit[0].metadata.sessionId
    await page.getByRole('button', { name: 'End session' }).click()
    await page.getByRole('status').getByText('Support session ended').waitFor()
    expect(await page.getByRole('log', { name: 'Conversation' }).count()).toBe(0)
    const endedLog = () => app.h.call('GET', '/audit/events?action=customer.support_session.ended', as)
    await until(async () => (await endedLog()).body.total, 1)
    expect((await endedLog()).body.items).toMatchObject([
      { actor: { id: owner.user.id }, target: { type: 'customer', id: grace }, metadata: { sessionId: pageSession } },
    ])
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()

    const phone = await app.open('/console#/playground', PHONE)
    await signIn(phone.page, owner.email, PASSWORD, org.ecosystem.name)
    await phone.page.getByRole('button', { name: 'Start conversation' }).click()
    await phone.page.getByLabel('Message').fill('current_time {"timezone":"Asia/Kolkata"} and a long line to wrap around the narrow screen')
    await phone.page.getByRole('button', { name: 'Send' }).click()
    await phone.page.getByText(/^The tool answered:/).waitFor()
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    const overflowing = await phone.page.evaluate(() =>
      [...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > innerWidth + 0.5).map((el) => el.outerHTML.slice(0, 80)),
    )
    expect(overflowing).toEqual([])
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'console-playground-phone.png'), fullPage: true })
    await phone.page.close()
  })

  test('without customers or personas, or with none matching, the page says so; a refused start is shown in the page', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const { page } = await app.open('/console#/playground')
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await page.getByText('No customers yet').waitFor()
    await page.getByText('No personas yet').waitFor()
    expect(await page.getByRole('button', { name: 'Start conversation' }).isDisabled()).toBe(true)

    const gone = (await app.h.call('POST', '/customer/register', { ...org.as(owner), body: { name: 'Gone soon' } })).body.customerId
    await page.getByRole('button', { name: 'Search' }).click()
    await page
      .getByRole('combobox', { name: /^Customer/ })
      .getByRole('option', { name: 'Gone soon' })
      .waitFor({ state: 'attached' })
    expect((await app.h.call('DELETE', `/customer/customers/${gone}`, org.as(owner))).status).toBe(204)
    await page.getByRole('button', { name: 'Start conversation' }).click()
    await page.getByRole('alert').getByText('(not_found)').waitFor()
    expect(await page.getByRole('log', { name: 'Conversation' }).count()).toBe(0)
    await page.getByLabel('Find a customer').fill('nobody')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText('No customer matches “nobody”.').waitFor()
    expect(await page.getByRole('button', { name: 'Start conversation' }).isDisabled()).toBe(true)
    await page.close()
  })
})
