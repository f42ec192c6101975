import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import type { Harness, RegisteredUser } from '../support/harness'
import { provision, type Provisioned } from '../support/tenancy'
import { browserMissing, confirmDialog, PHONE, SCREENSHOTS, signIn as signInWith, startConsoleServer, tab, until, type ConsoleServer } from './support'

// The console's team area in a real Chromium against the service on a real port: team members and
// roles, persona services and personas, persona memories, OAuth clients and sign-in settings, by
// labels and visible text, with every request that leaves the service refused.

let app: ConsoleServer
let h: Harness
let owner: RegisteredUser // the first account: a platform admin (ADMIN_EMAILS unset)
let grace: RegisteredUser // added to the team in the browser
let lin: RegisteredUser // no team, no admin capability
let org: Provisioned
const PASSWORD = 'team-area-password-1'

beforeAll(async () => {
  if (browserMissing) return
  app = await startConsoleServer()
  h = app.h
  owner = await h.register({ password: PASSWORD, name: 'Olive Owner' })
  grace = await h.register({ password: PASSWORD, name: 'Grace Hopper' })
  lin = await h.register({ password: PASSWORD, name: 'Lin Reader' })
  org = await provision(h, owner)
}, 60_000)
afterAll(async () => {
  if (browserMissing) return
  await app.close()
})

/** Signs `who` in and picks the ecosystem; `pickEcosystem` false: one with none to pick. */
const signIn = (page: Page, who: RegisteredUser, pickEcosystem = true) => signInWith(page, who.email, PASSWORD, pickEcosystem ? org.ecosystem.name : undefined)

/** Waits for the API's refusal with this code on screen. */
const alert = (page: Page, code: string) =>
  page
    .getByRole('alert')
    .filter({ hasText: `(${code})` })
    .waitFor({ timeout: 10_000 })

/**
 * Whether the element can be brought on screen at phone width: a wide table scrolls inside its
 * section (the page itself never scrolls sideways, tests/browser/phone.test.ts), so it is scrolled there first.
 */
async function inView(locator: Locator): Promise<boolean> {
  await locator.scrollIntoViewIfNeeded()
  const box = await locator.boundingBox()
  return !!box && box.x >= 0 && box.x + box.width <= PHONE.width
}

describe.skipIf(!!browserMissing)('the console team area in a browser', () => {
  test('team, personas, memories, OAuth clients and sign-in settings: each main action shows its result', async () => {
    expect(owner.user.capabilities).toContain('admin')
    const { page, elsewhere } = await app.open()
    await signIn(page, owner)

    // Team: the owner is listed; add Grace as admin; change her role; the last owner cannot step down.
    await tab(page, 'Team').click()
    await page.getByRole('heading', { name: `Team of ${org.organization.name}` }).waitFor()
    await page.getByRole('combobox', { name: `Role of ${owner.email}` }).waitFor()
    await page.getByLabel('Member e-mail').fill('nobody@example.test')
    await page.getByRole('button', { name: 'Add member' }).click()
    await alert(page, 'user_not_found')
    // From the keyboard: Enter in the e-mail field submits.
    await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('admin')
    await page.getByLabel('Member e-mail').fill(grace.email)
    await page.getByLabel('Member e-mail').press('Enter')
    const graceRole = page.getByRole('combobox', { name: `Role of ${grace.email}` })
    await graceRole.waitFor()
    expect(await graceRole.inputValue()).toBe('admin')
    await page.getByRole('cell', { name: /Grace Hopper/ }).waitFor()
    await graceRole.selectOption('member')
    await page.getByRole('button', { name: `Save role of ${grace.email}` }).click()
    await until(async () => {
      const members = await h.call('GET', `/team/members?organizationId=${org.organization.id}`, { token: owner.token })
      return members.body.items.find((m: { email: string }) => m.email === grace.email)?.role
    }, 'member')
    await page.getByRole('combobox', { name: `Role of ${owner.email}` }).selectOption('admin')
    await page.getByRole('button', { name: `Save role of ${owner.email}` }).click()
    await alert(page, 'last_owner')
    await until(() => page.getByRole('combobox', { name: `Role of ${owner.email}` }).inputValue(), 'owner')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-team.png'), fullPage: true })

    // Personas: a service (its API key is never shown back), then a persona on it.
    await tab(page, 'Personas').click()
    await page.getByRole('heading', { name: 'Persona services' }).waitFor()
    await page.getByLabel('Template').selectOption('openai')
    await page.getByLabel('Service name').fill('Main OpenAI')
    await page.getByLabel('API key').fill('sk-test-secret-key-123')
    await page.getByRole('button', { name: 'Add service' }).click()
    const serviceRow = page.getByRole('row', { name: /Main OpenAI/ })
    await serviceRow.waitFor()
    expect(await serviceRow.getByRole('cell', { name: 'stored' }).count()).toBe(1)
    expect(await page.content()).not.toContain('sk-test-secret-key-123')
    // Rename it through the edit form.
    await page.getByRole('button', { name: 'Edit Main OpenAI' }).click()
    await page.getByLabel('Service name').first().fill('Primary OpenAI')
    await page.getByRole('button', { name: 'Save service' }).click()
    await page.getByRole('cell', { name: 'Primary OpenAI', exact: true }).waitFor()

    await page.getByRole('button', { name: 'New persona' }).click()
    await page.getByLabel('Persona name').fill('Ada Helper')
    await page.getByLabel('Slug').fill('ada-helper')
    await page.getByLabel('Visibility').selectOption('unlisted')
    await page.getByRole('combobox', { name: 'Service', exact: true }).selectOption({ label: 'Primary OpenAI' })
    await page.getByLabel('Model').fill('gpt-4o-mini')
    await page.getByLabel('System prompt').fill('You help with analytical engines.')
    await page.getByRole('button', { name: 'Create persona' }).click()
    const personaRow = page.getByRole('row', { name: /Ada Helper/ })
    await personaRow.waitFor()
    expect(await personaRow.textContent()).toContain('unlisted')
    expect(await personaRow.textContent()).toContain('Primary OpenAI')
    // A second persona with the same slug: the API's refusal is shown.
    await page.getByRole('button', { name: 'New persona' }).click()
    await page.getByLabel('Persona name').fill('Copy')
    await page.getByLabel('Slug').fill('ada-helper')
    await page.getByRole('button', { name: 'Create persona' }).click()
    await alert(page, 'slug_taken')
    await page.getByRole('button', { name: 'Cancel' }).click()
    // Update the persona: it becomes public.
    await page.getByRole('button', { name: 'Edit Ada Helper' }).click()
    await page.getByLabel('Visibility').selectOption('public')
    await page.getByRole('button', { name: 'Save persona' }).click()
    await page
      .getByRole('row', { name: /Ada Helper/ })
      .getByRole('cell', { name: 'public', exact: true })
      .waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-personas.png'), fullPage: true })
    // A second service, deleted again.
    await page.getByLabel('Base URL').fill('https://llm.example.com/v1')
    await page.getByLabel('Service name').fill('Spare')
    await page.getByRole('button', { name: 'Add service' }).click()
    await page.getByRole('row', { name: /Spare/ }).waitFor()
    await page.getByRole('button', { name: 'Delete Spare' }).click()
    await confirmDialog(page, 'Delete service', 'Spare')
    await until(() => page.getByRole('row', { name: /Spare/ }).count(), 0)

    // Memories: two made through the API; archiving one takes it out of the default (active) list.
    const personas = await h.call('GET', '/persona/personas', org.as(owner))
    const personaId = personas.body.items.find((p: { slug: string }) => p.slug === 'ada-helper').id
    for (const [slug, memoryType] of [
      ['likes-tea', 'user'],
      ['engine-specs', 'project'],
    ] as const) {
      const made = await h.call('POST', '/persona_memory/memories', {
        ...org.as(owner),
        body: { personaId, scope: 'persona', slug, memoryType, description: `About ${slug}`, body: `The body of ${slug}` },
      })
      expect(made.status).toBe(201)
    }
    await tab(page, 'Memories').click()
    await page.getByRole('button', { name: 'Archive engine-specs' }).waitFor()
    await page.getByRole('button', { name: 'Archive likes-tea' }).waitFor()
    await page.getByLabel('Type').selectOption('project')
    await until(() => page.getByRole('button', { name: /^Archive / }).count(), 1)
    await page.getByLabel('Type').selectOption('')
    await page.getByRole('button', { name: 'Archive engine-specs' }).focus()
    await page.keyboard.press('Enter')
    await until(() => page.getByRole('button', { name: 'Archive engine-specs' }).count(), 0)
    await page.getByRole('button', { name: 'Archive likes-tea' }).waitFor()
    expect(await page.getByText('engine-specs').count()).toBe(0)
    await page.getByLabel('Status').selectOption('archived')
    await page.getByRole('button', { name: 'Restore engine-specs' }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-memories.png'), fullPage: true })
    await page.getByRole('button', { name: 'Restore engine-specs' }).click()
    await until(() => page.getByRole('button', { name: 'Restore engine-specs' }).count(), 0)
    const restored = await h.call('GET', '/persona_memory/memories?status=active', org.as(owner))
    expect(restored.body.items.map((m: { slug: string }) => m.slug).sort()).toEqual(['engine-specs', 'likes-tea'])

    // OAuth clients: the secret is shown once, at create and at rotate; then delete.
    await tab(page, 'OAuth clients').click()
    await page.getByLabel('Application name').fill('Analytical App')
    await page.getByLabel('Redirect URIs (one per line)').fill('not a url')
    await page.getByRole('button', { name: 'Create client' }).click()
    await alert(page, 'invalid_redirect_uri')
    await page.getByLabel('Redirect URIs (one per line)').fill('https://app.example.com/callback\nhttp://127.0.0.1:8080/cb')
    await page.getByRole('button', { name: 'Create client' }).click()
    const secret = (await page.getByTestId('new-client-secret').textContent())!
    expect(secret.length).toBeGreaterThan(20)
    const appRow = page.getByRole('row', { name: /Analytical App/ })
    await appRow.waitFor()
    expect(await appRow.textContent()).toContain('https://app.example.com/callback')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-oauth-clients.png'), fullPage: true })
    await page.getByRole('button', { name: 'Done' }).click()
    expect(await page.content()).not.toContain(secret)
    await page.getByRole('button', { name: 'Edit Analytical App' }).click()
    await page.getByLabel('Application name').first().fill('Analytical App 2')
    await page.getByRole('button', { name: 'Save client' }).click()
    await page.getByRole('cell', { name: 'Analytical App 2', exact: true }).waitFor()
    await page.getByRole('button', { name: 'Rotate the secret of Analytical App 2' }).click()
    await confirmDialog(page, 'Rotate secret', 'Analytical App 2')
    const rotated = (await page.getByTestId('new-client-secret').textContent())!
    expect(rotated).not.toBe(secret)
    await page.reload()
    await page.getByRole('row', { name: /Analytical App/ }).waitFor()
    expect(await page.content()).not.toContain(rotated)
    await page.getByRole('button', { name: 'Delete Analytical App 2' }).click()
    await confirmDialog(page, 'Delete client', 'Analytical App 2')
    await page.getByText('No OAuth clients yet.').waitFor()

    // Sign-in settings: the first account (a platform admin) turns password sign-in off and on.
    await tab(page, 'Sign-in settings').click()
    await until(() => page.getByTestId('method-password').textContent(), 'enabled')
    await page.getByRole('button', { name: 'Disable password sign-in' }).click()
    await until(() => page.getByTestId('method-password').textContent(), 'disabled')
    expect((await h.call('POST', '/auth/register', { body: { email: 'late@example.test', password: 'late-password-1', name: 'Late' } })).status).toBe(403)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-sign-in-settings.png'), fullPage: true })
    await page.getByRole('button', { name: 'Enable password sign-in' }).click()
    await until(() => page.getByTestId('method-password').textContent(), 'enabled')

    expect(elsewhere).toEqual([])
    await page.close()
  }, 180_000)

  test('at phone width: the team page keeps its actions (remove a member), and a non-admin sees the refusal of sign-in settings', async () => {
    const { page, elsewhere } = await app.open('/console', PHONE)
    await signIn(page, owner)
    await tab(page, 'Team').click()
    const remove = page.getByRole('button', { name: `Remove ${grace.email}` })
    await remove.waitFor()
    expect(await inView(remove)).toBe(true)
    expect(await inView(page.getByRole('combobox', { name: `Role of ${grace.email}` }))).toBe(true)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-team-phone.png'), fullPage: true })
    await remove.click()
    await confirmDialog(page, 'Remove', grace.email)
    await until(() => page.getByRole('button', { name: `Remove ${grace.email}` }).count(), 0)
    // Removing the only owner is refused.
    await page.getByRole('button', { name: `Remove ${owner.email}` }).click()
    await confirmDialog(page, 'Remove', owner.email)
    await alert(page, 'last_owner')

    await tab(page, 'Memories').click()
    await page.getByRole('button', { name: 'Archive likes-tea' }).waitFor()
    expect(await inView(page.getByRole('button', { name: 'Archive likes-tea' }))).toBe(true)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-memories-phone.png'), fullPage: true })
    await tab(page, 'Personas').click()
    await page.getByRole('button', { name: 'Delete Ada Helper' }).waitFor()
    expect(await inView(page.getByRole('button', { name: 'Delete Ada Helper' }))).toBe(true)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-personas-phone.png'), fullPage: true })
    await page.getByRole('button', { name: 'Delete Ada Helper' }).click()
    await confirmDialog(page, 'Delete persona', 'Ada Helper')
    await page.getByText('No personas yet.').waitFor()

    await page.getByRole('button', { name: 'Sign out' }).click()
    await signIn(page, lin, false)
    await tab(page, 'Sign-in settings').click()
    await page.getByText('Only platform administrators change these settings').waitFor()
    await page.getByRole('button', { name: 'Disable password sign-in' }).click()
    const refusal = await h.call('PUT', '/settings/auth-methods/password', { token: lin.token, body: { enabled: false } })
    expect(refusal.status).toBe(403)
    expect(await page.getByRole('alert').textContent()).toBe(`${refusal.body.error.message} (${refusal.body.error.code})`)
    await until(() => page.getByTestId('method-password').textContent(), 'enabled')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-sign-in-settings-refused.png'), fullPage: true })
    expect(elsewhere).toEqual([])
    await page.close()
  }, 120_000)
})
