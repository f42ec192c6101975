import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The console's customers in a real Chromium: a customer with nothing to know them by is refused,
// with the API's reason on the form; a customer's name, e-mail, phone and external id are edited in
// place, the changes checked through the API.

const app = consoleServerForFile()
const PASSWORD = 'customers-page-password'

describe.skipIf(!!browserMissing)('the console’s customers in a browser', () => {
  test('creating one with every field empty says what is missing; a customer is then edited and a field cleared', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Customers').click()
    await page.getByText('No customers yet').waitFor()
    const create = page.getByRole('form', { name: 'New customer' })
    await create.getByRole('button', { name: 'Create customer' }).click()
    await page.getByRole('alert').filter({ hasText: 'A customer needs a name, an e-mail or an external id' }).waitFor()
    expect((await app.h.call('GET', '/customer/customers', org.as(owner))).body.total).toBe(0)

    await create.getByLabel('Name').fill('Grace Hopper')
    await create.getByRole('button', { name: 'Create customer' }).click()
    await page.getByRole('link', { name: 'Grace Hopper' }).click()
    const edit = page.getByRole('form', { name: 'Edit customer' })
    await edit.getByLabel('E-mail').fill('grace@example.test')
    await edit.getByLabel('Phone').fill('+1 555 0100')
    await edit.getByLabel('External id').fill('crm-grace')
    await edit.getByRole('button', { name: 'Save customer' }).click()
    await edit.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
    const [grace] = (await app.h.call('GET', '/customer/customers', org.as(owner))).body.items
    expect(grace).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.test', phone: '+1 555 0100', externalId: 'crm-grace' })

    await edit.getByLabel('Phone').fill('')
    await edit.getByRole('button', { name: 'Save customer' }).click()
    await edit.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
    await until(() => edit.getByRole('button', { name: 'Save customer' }).isDisabled(), true)
    expect((await app.h.call('GET', `/customer/customers/${grace.id}`, org.as(owner))).body.phone).toBeNull()
    for (const field of ['Name', 'E-mail', 'External id']) await edit.getByLabel(field).fill('')
    await edit.getByRole('button', { name: 'Save customer' }).click()
    await edit.getByRole('alert').filter({ hasText: 'A customer needs a name, an e-mail or an external id' }).waitFor()
    expect((await app.h.call('GET', `/customer/customers/${grace.id}`, org.as(owner))).body.name).toBe('Grace Hopper')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-customer-edit.png'), fullPage: true })
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  })
})
