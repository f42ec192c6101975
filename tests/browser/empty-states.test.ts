import { describe, expect, test } from 'bun:test'
import { provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, signIn, tab, until, watchProblems } from './support'

// The console's list pages in a real Chromium, on a new ecosystem: each says "Loading…" until its
// data arrives, then an empty state naming the next action; a list with items shows no empty state.

const app = consoleServerForFile()
const PASSWORD = 'empty-states-password'

/** Each list page (its link in the sections) and the empty state a new ecosystem shows there. */
const EMPTY: [string, string][] = [
  ['Documents', 'No documents yet: create one below'],
  ['Notes', 'No notes yet: press New note'],
  ['Storage', 'No files yet: upload one above.'],
  ['Webhooks', 'No endpoints yet: add the URL'],
  ['Team', 'Only you so far: add a member below'],
  ['Plans and features', 'No plans yet: every customer has the built-in features without limit.'],
  ['Tables', 'No tables yet: define the first one under New table.'],
]

describe.skipIf(!!browserMissing)('the console’s list pages in a browser', () => {
  test('Loading… while the data is held back, then the empty state with its next action, on every list page', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)

    // The documents list held back: the page says it is loading, not that there are none.
    let release = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(/\/data\/documents\?/, async (route) => {
      await held
      await route.fallback()
    })
    await tab(page, 'Documents').click()
    await page.getByRole('status').filter({ hasText: 'Loading…' }).waitFor()
    expect(await page.getByText('No documents yet').count()).toBe(0)
    release()
    await page.getByText('No documents yet').waitFor()
    await until(() => page.getByText('Loading…').count(), 0)

    for (const [section, empty] of EMPTY) {
      await tab(page, section).click()
      await page.getByRole('status').filter({ hasText: empty }).waitFor()
      await until(() => page.getByText('Loading…').count(), 0)
    }
    // A new ecosystem's audit log has its creation in it: a filter that matches nothing says what to do.
    await tab(page, 'Audit log').click()
    await page.getByRole('cell', { name: 'registry.organization.created' }).waitFor()
    await page.getByLabel('Action').fill('oauth.')
    await page.getByLabel('Action').press('Enter')
    await page.getByRole('status').filter({ hasText: 'Nothing logged that matches: widen the time range or clear the filters.' }).waitFor()
    await tab(page, 'Sign-in settings').click()
    await page.getByTestId('method-password').waitFor()
    await until(() => page.getByText('Loading…').count(), 0)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })

  test('a plan that exists is listed by name and no empty state shows; the customer’s plan is named, not keyed', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const as = org.as(owner)
    expect((await app.h.call('POST', '/billing/plans', { ...as, body: { key: 'team_plus', name: 'Team Plus', isDefault: true } })).status).toBe(201)
    const ada = (await app.h.call('POST', '/customer/register', { ...as, body: { name: 'Ada' } })).body.customerId
    const { page } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Plans and features').click()
    await page.getByRole('row').filter({ hasText: 'Team Plus' }).waitFor()
    expect(await page.getByText('No plans yet').count()).toBe(0)
    await page.goto(`${app.origin}/console#/customers/${ada}`)
    await until(
      async () => (await page.getByTestId('customer-plan').textContent()) ?? '',
      (text) => text.startsWith('Plan Team Plus'),
    )
    expect(problems).toEqual([])
    await page.close()
  })
})
