import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { provision } from '../support/tenancy'
import type { Page } from 'playwright-core'
import { browserMissing, confirmDialog, consoleServerForFile, PHONE, reloadConsole, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The console's contract tables in a real Chromium: define a table in the form, alter its columns
// on the Schema tab, add, filter (in the filter grammar) and delete rows on the Rows tab, and edit
// values in the grid's cells with editors that fit each column type.

const app = consoleServerForFile()
const PASSWORD = 'tables-page-password'

/** The cell of a row (found by its id's first 8 characters) in the grid of `table`, by its position: 0 is the id, then the columns in order. */
const cellOf = (page: Page, table: string, id: string, position: number) =>
  page
    .getByRole('table', { name: `Rows of ${table}` })
    .getByRole('row')
    .filter({ hasText: id.slice(0, 8) })
    .getByRole('cell')
    .nth(position)

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
    await page.getByText('No rows yet.').waitFor()
    await page.getByRole('tab', { name: 'Schema' }).click()
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
    await page.getByRole('tab', { name: 'Rows' }).click()
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

    // Edit Coffee in its cell: paid now; only that field changes.
    const coffee = (await app.h.call('GET', '/contract/contracts/orders/rows?item=eq.Coffee', as)).body.rows[0]
    await cellOf(page, 'orders', coffee.id, 3).getByRole('button', { name: 'false' }).click()
    await cellOf(page, 'orders', coffee.id, 3).getByLabel('paid', { exact: true }).selectOption('true')
    await page.keyboard.press('Enter')
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

  test('rows first, the schema behind its tab; a cell edits in place, sending only its field: Enter saves, Escape cancels, errors stay at the cell', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const as = org.as(owner)
    const columns = [
      { name: 'title', type: 'text', nullable: false },
      { name: 'qty', type: 'integer' },
      { name: 'done', type: 'boolean' },
      { name: 'due', type: 'timestamp' },
      { name: 'tags', type: 'json' },
    ]
    expect((await app.h.call('POST', '/contract/contracts', { ...as, body: { name: 'tasks', columns } })).status).toBe(201)
    const add = async (body: Record<string, unknown>) => (await app.h.call('POST', '/contract/contracts/tasks/rows', { ...as, body })).body
    const alpha = await add({ title: 'Alpha', qty: 3, done: false, due: '2026-11-20T08:00:00.000Z' })
    const beta = await add({ title: 'Beta', qty: 5 })
    const stored = async (id: string) => (await app.h.call('GET', `/contract/contracts/tasks/rows/${id}`, as)).body

    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    const patches: unknown[] = []
    page.on('request', (request) => {
      if (request.method() === 'PATCH' && request.url().includes('/contract/contracts/tasks/rows/')) patches.push(request.postDataJSON())
    })
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Tables').click()
    await page.getByRole('link', { name: 'tasks', exact: true }).click()

    // The rows come first; the schema waits behind its tab (ARIA tabs), and the address remembers the tab picked.
    const grid = page.getByRole('table', { name: 'Rows of tasks' })
    await grid.waitFor()
    const rowsTab = page.getByRole('tab', { name: 'Rows' })
    const schemaTab = page.getByRole('tab', { name: 'Schema' })
    expect(await page.getByRole('tablist', { name: 'Table tasks' }).isVisible()).toBe(true)
    expect([await rowsTab.getAttribute('aria-selected'), await schemaTab.getAttribute('aria-selected')]).toEqual(['true', 'false'])
    expect(await page.getByRole('tabpanel', { name: 'Rows' }).getByRole('table', { name: 'Rows of tasks' }).isVisible()).toBe(true)
    expect(await page.getByRole('table', { name: 'Columns' }).count()).toBe(0)
    await rowsTab.focus()
    await page.keyboard.press('ArrowRight')
    await page.getByRole('tabpanel', { name: 'Schema' }).getByRole('table', { name: 'Columns' }).waitFor()
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Schema')
    expect(await grid.count()).toBe(0)
    expect(page.url()).toEndWith('#/tables/tasks/schema')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-table-schema.png'), fullPage: true })
    await reloadConsole(page)
    await page.getByRole('table', { name: 'Columns' }).waitFor()
    expect(await page.getByRole('tab', { name: 'Schema' }).getAttribute('aria-selected')).toBe('true')
    await rowsTab.click()
    await grid.waitFor()

    // The integer: a number input stepping by 1; Enter sends a PATCH of that one field, and the grid shows what was stored.
    const cell = (id: string, position: number) => cellOf(page, 'tasks', id, position)
    await cell(alpha.id, 2).getByRole('button', { name: '3', exact: true }).click()
    const qty = cell(alpha.id, 2).getByLabel('qty', { exact: true })
    expect([await qty.getAttribute('type'), await qty.getAttribute('step')]).toEqual(['number', '1'])
    await qty.fill('7')
    const sent = page.waitForRequest((r) => r.method() === 'PATCH')
    await qty.press('Enter')
    expect((await sent).postDataJSON()).toEqual({ qty: 7 })
    await cell(alpha.id, 2).getByRole('button', { name: '7', exact: true }).waitFor()
    expect(await stored(alpha.id)).toMatchObject({ title: 'Alpha', qty: 7, done: false })
    // Focus is back on the cell; arrows move between cells, F2 opens the one focused.
    await until(() => page.evaluate(() => document.activeElement?.getAttribute('title')), 'Edit qty')
    await page.keyboard.press('ArrowRight')
    await until(() => page.evaluate(() => document.activeElement?.getAttribute('title')), 'Edit done')
    await page.keyboard.press('F2')
    await until(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')), 'done')
    await page.keyboard.press('Escape')
    await cell(alpha.id, 3).getByRole('button', { name: 'false', exact: true }).waitFor()

    // Escape: no request, the old value back.
    await cell(alpha.id, 1).getByRole('button', { name: 'Alpha', exact: true }).click()
    await cell(alpha.id, 1).getByLabel('title', { exact: true }).fill('Changed')
    await page.keyboard.press('Escape')
    await cell(alpha.id, 1).getByRole('button', { name: 'Alpha', exact: true }).waitFor()
    expect(patches).toEqual([{ qty: 7 }])
    expect((await stored(alpha.id)).title).toBe('Alpha')

    // A value the API refuses (an integer out of range): its message, naming the field, at the cell, the editor still open;
    // the other rows stay; Escape then puts the stored value back.
    await cell(beta.id, 2).getByRole('button', { name: '5', exact: true }).click()
    await cell(beta.id, 2).getByLabel('qty', { exact: true }).fill('12345678901234567890')
    await page.keyboard.press('Enter')
    const error = cell(beta.id, 2).getByRole('alert')
    await error.waitFor()
    expect(await error.textContent()).toBe('body.qty: expected an integer (validation_failed)')
    expect(await cell(beta.id, 2).getByLabel('qty', { exact: true }).getAttribute('aria-invalid')).toBe('true')
    expect(await cell(beta.id, 2).getByLabel('qty', { exact: true }).inputValue()).toBe('12345678901234567890')
    expect(await cell(alpha.id, 1).textContent()).toBe('Alpha')
    expect(await grid.locator('tbody tr').count()).toBe(2)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-table-cell-error.png'), fullPage: true })
    await page.keyboard.press('Escape')
    await cell(beta.id, 2).getByRole('button', { name: '5', exact: true }).waitFor()
    expect((await stored(beta.id)).qty).toBe(5)

    // The boolean: a select.
    await cell(beta.id, 3).getByRole('button', { name: '—', exact: true }).click()
    await cell(beta.id, 3).getByLabel('done', { exact: true }).selectOption('true')
    await page.keyboard.press('Enter')
    await cell(beta.id, 3).getByRole('button', { name: 'true', exact: true }).waitFor()
    expect((await stored(beta.id)).done).toBe(true)

    // The timestamp: a datetime-local in the operator's time zone, stored as UTC.
    await cell(beta.id, 4).getByRole('button').click()
    const due = cell(beta.id, 4).getByLabel('due', { exact: true })
    expect(await due.getAttribute('type')).toBe('datetime-local')
    await due.fill('2026-12-01T09:30')
    await page.screenshot({ path: join(SCREENSHOTS, 'console-table-cell-edit.png'), fullPage: true })
    await page.keyboard.press('Enter')
    const dueIso = await page.evaluate(() => new Date('2026-12-01T09:30').toISOString())
    await until(async () => (await stored(beta.id)).due, dueIso)
    await cell(beta.id, 4)
      .getByRole('button', { name: await page.evaluate((iso) => new Date(iso).toLocaleString(), dueIso), exact: true })
      .waitFor()

    // Null, explicitly, where the column allows it; a required column offers no such control.
    await cell(alpha.id, 4).getByRole('button').click()
    await cell(alpha.id, 4).getByRole('button', { name: 'Set null' }).click()
    await cell(alpha.id, 4).getByRole('button', { name: '—', exact: true }).waitFor()
    expect((await stored(alpha.id)).due).toBeNull()
    await cell(alpha.id, 1).getByRole('button').click()
    await cell(alpha.id, 1).getByLabel('title', { exact: true }).waitFor()
    expect(await cell(alpha.id, 1).getByRole('button', { name: 'Set null' }).count()).toBe(0)
    await page.keyboard.press('Escape')

    // Json: a textarea, Shift+Enter a new line in it; what is not JSON is refused at the cell before anything is sent.
    await cell(alpha.id, 5).getByRole('button', { name: '—', exact: true }).click()
    const tags = cell(alpha.id, 5).getByLabel('tags', { exact: true })
    expect(await tags.evaluate((e) => e.tagName)).toBe('TEXTAREA')
    await tags.fill('["a",')
    await tags.press('Enter')
    expect(await cell(alpha.id, 5).getByRole('alert').textContent()).toBe('body.tags: not valid JSON (validation_failed)')
    await tags.press('Shift+Enter')
    await tags.pressSequentially(' "b"]')
    expect(await tags.inputValue()).toBe('["a",\n "b"]')
    await tags.press('Enter')
    await cell(alpha.id, 5).getByRole('button', { name: '["a","b"]', exact: true }).waitFor()
    expect((await stored(alpha.id)).tags).toEqual(['a', 'b'])
    expect(patches).toEqual([{ qty: 7 }, { qty: Number('12345678901234567890') }, { done: true }, { due: dueIso }, { due: null }, { tags: ['a', 'b'] }])

    // Read-only fields (the id, when it was created) are not editable; a row is still added in the form.
    expect(await cell(alpha.id, 0).getByRole('button').count()).toBe(0)
    await page.getByRole('button', { name: 'Add row' }).click()
    await page.getByRole('form', { name: 'New row' }).getByLabel('title (required)').fill('Gamma')
    await page.getByRole('button', { name: 'Create row' }).click()
    await grid.getByRole('button', { name: 'Gamma', exact: true }).waitFor()
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()

    // At 390 px: the grid scrolls inside its section, the id column held at its edge, nothing wider than the phone, also while editing.
    const phone = await app.open('/console#/tables/tasks', PHONE)
    const phoneProblems = watchProblems(phone.page)
    await signIn(phone.page, owner.email, PASSWORD, org.ecosystem.name)
    const phoneGrid = phone.page.getByRole('table', { name: 'Rows of tasks' })
    await phoneGrid.getByRole('button', { name: 'Alpha', exact: true }).waitFor()
    const section = phone.page.locator('section', { has: phoneGrid })
    const scrolled = await section.evaluate((s) => {
      s.scrollLeft = s.scrollWidth
      return { overflow: s.scrollWidth - s.clientWidth, left: s.scrollLeft, edge: s.getBoundingClientRect().left + s.clientLeft }
    })
    expect(scrolled.overflow).toBeGreaterThan(40)
    expect(scrolled.left).toBeGreaterThan(40)
    expect((await cellOf(phone.page, 'tasks', alpha.id, 0).boundingBox())!.x).toBeCloseTo(scrolled.edge, 0)
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await cellOf(phone.page, 'tasks', alpha.id, 2).getByRole('button').click()
    await cellOf(phone.page, 'tasks', alpha.id, 2).getByLabel('qty', { exact: true }).waitFor()
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'console-table-cell-phone.png'), fullPage: true })
    expect(phoneProblems).toEqual([])
    await phone.page.close()
  }, 60_000)
})
