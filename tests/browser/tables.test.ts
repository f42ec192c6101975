import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { provision } from '../support/tenancy'
import { browserMissing, confirmDialog, consoleServerForFile, PHONE, SCREENSHOTS, signIn, tab, until } from './support'

// The console's contract tables in a real Chromium: define a table in the form, alter its columns,
// add, filter (in the filter grammar), edit and delete rows with inputs that fit each column type.

const app = consoleServerForFile()
const PASSWORD = 'tables-page-password'

describe.skipIf(!!browserMissing)('the console’s contract tables in a browser', () => {
  test('define a table, add and drop a column, add rows, filter them, edit one, delete one', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const as = org.as(owner)
    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Tables').click()
    await page.getByText('No tables yet: define the first one').waitFor()

    // Define: orders(item text required, total number, paid boolean).
    await page.getByLabel('Table name').fill('orders')
    await page.getByLabel('Column name').fill('item')
    await page.getByLabel('Required').check()
    await page.getByRole('button', { name: 'Another column' }).click()
    await page.getByLabel('Column name').nth(1).fill('total')
    await page.getByLabel('Column type').nth(1).selectOption('number')
    await page.getByRole('button', { name: 'Another column' }).click()
    await page.getByLabel('Column name').nth(2).fill('paid')
    await page.getByLabel('Column type').nth(2).selectOption('boolean')
    await page.getByRole('button', { name: 'Create table' }).click()
    await page.getByRole('heading', { name: 'Table orders' }).waitFor()
    const contract = async () => (await app.h.call('GET', '/contract/contracts/orders', as)).body
    expect((await contract()).columns).toEqual([
      { name: 'item', type: 'text', nullable: false },
      { name: 'total', type: 'number' },
      { name: 'paid', type: 'boolean' },
    ])

    // Alter: add a timestamp column, drop it again (the values stay until erased).
    const addColumn = page.getByRole('form', { name: 'Add a column' })
    await addColumn.getByLabel('Column name').fill('due')
    await addColumn.getByLabel('Column type').selectOption('timestamp')
    await page.getByRole('button', { name: 'Add column' }).click()
    await page.getByRole('button', { name: 'Drop column due' }).waitFor()
    await page.getByRole('button', { name: 'Drop column due' }).click()
    await confirmDialog(page, 'Drop column', 'due')
    await page.getByText('Dropped, values kept: due.').waitFor()
    expect((await contract()).droppedColumns).toEqual(['due'])

    // Rows: three added in the form, each input fitting its type.
    const addRow = async (item: string, total: string, paid: 'true' | 'false') => {
      await page.getByRole('button', { name: 'Add row' }).click()
      const form = page.getByRole('form', { name: 'New row' })
      await form.getByLabel('item (required)').fill(item)
      expect(await form.getByLabel('total').getAttribute('type')).toBe('number')
      await form.getByLabel('total').fill(total)
      await form.getByLabel('paid').selectOption(paid)
      await form.getByRole('button', { name: 'Create row' }).click()
      await page.getByRole('cell', { name: item, exact: true }).waitFor()
    }
    await addRow('Tea', '4.5', 'true')
    await addRow('Coffee', '120', 'false')
    await addRow('Cake', '300', 'false')
    const items = () => page.getByRole('table', { name: 'Rows of orders' }).locator('tbody tr td:nth-child(2)').allTextContents()

    // The filter grammar, built from the fields or typed.
    await page.getByLabel('Field').selectOption('total')
    await page.getByLabel('Operator').selectOption('gte')
    await page.getByLabel('Value').fill('100')
    await page.getByRole('button', { name: 'Add condition' }).click()
    await until(async () => (await items()).sort().join(), 'Cake,Coffee')
    expect(await page.getByLabel('Filter', { exact: true }).inputValue()).toBe('total=gte.100')
    await page.getByLabel('Filter', { exact: true }).fill('total=gte.100&paid=is.false&sort=-total')
    await page.getByRole('button', { name: 'Apply' }).click()
    await until(async () => (await items()).join(), 'Cake,Coffee')
    await page.getByLabel('Filter', { exact: true }).fill('nothing=eq.1')
    await page.getByRole('button', { name: 'Apply' }).click()
    await page.getByRole('alert').filter({ hasText: '(validation_failed)' }).waitFor()
    await page.getByRole('button', { name: 'Clear' }).click()
    await until(async () => (await items()).length, 3)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-table-rows.png'), fullPage: true })

    // Edit Coffee: paid now; only that field changes.
    const rows = (await app.h.call('GET', '/contract/contracts/orders/rows?item=eq.Coffee', as)).body.rows
    const coffee = rows[0]
    await page.getByRole('button', { name: `Edit row ${coffee.id}` }).click()
    const edit = page.getByRole('form', { name: `Row ${coffee.id}` })
    expect(await edit.getByLabel('item (required)').inputValue()).toBe('Coffee')
    await edit.getByLabel('paid').selectOption('true')
    await edit.getByRole('button', { name: 'Save row' }).click()
    await until(async () => (await app.h.call('GET', `/contract/contracts/orders/rows/${coffee.id}`, as)).body.paid, true)
    expect((await app.h.call('GET', `/contract/contracts/orders/rows/${coffee.id}`, as)).body).toMatchObject({ item: 'Coffee', total: 120, paid: true })

    // Delete Tea.
    const tea = (await app.h.call('GET', '/contract/contracts/orders/rows?item=eq.Tea', as)).body.rows[0]
    await page.getByRole('button', { name: `Delete row ${tea.id}` }).click()
    await confirmDialog(page, 'Delete row', tea.id)
    await until(async () => (await items()).sort().join(), 'Cake,Coffee')
    expect(elsewhere).toEqual([])
    await page.close()

    const phone = await app.open(`/console#/tables/orders`, PHONE)
    await signIn(phone.page, owner.email, PASSWORD, org.ecosystem.name)
    await phone.page.getByRole('cell', { name: 'Cake', exact: true }).waitFor()
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'console-table-phone.png'), fullPage: true })
    await phone.page.close()
  })
})
