import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { positionAfter } from '../../console/positions'
import { customerOf, provision } from '../support/tenancy'
import { browserMissing, confirmDialog, consoleServerForFile, PHONE, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The console's documents (with their blocks) and notes in a real Chromium: a customer's data
// browsed and edited by an admin, the changes checked through the API.

const app = consoleServerForFile()
const PASSWORD = 'documents-page-password'

describe('block positions the console appends with', () => {
  test('each sorts after the one before, byte-wise, and stays within the 64 characters allowed', () => {
    let last: string | undefined
    const made: string[] = []
    for (let i = 0; i < 200; i++) made.push((last = positionAfter(last)))
    expect([...made].sort((a, b) => (Buffer.from(a) < Buffer.from(b) ? -1 : 1))).toEqual(made)
    expect(made.every((p) => /^[0-9A-Za-z]{1,64}$/.test(p))).toBe(true)
    expect(positionAfter('az')).toBe('az0')
  })
})

describe.skipIf(!!browserMissing)('the console’s documents and notes in a browser', () => {
  test('a customer’s document: found by title, renamed, blocks added, edited and deleted; notes added, edited, deleted', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const as = org.as(owner)
    const ada = await customerOf(app.h, org, owner, 'ada')
    const doc = (await app.h.call('POST', '/data/documents', { token: ada.token, body: { title: 'Trip plan' } })).body
    await app.h.call('POST', '/data/document_blocks', {
      token: ada.token,
      body: { documentId: doc.id, blockType: 'heading', position: 'a0', content: 'Day one' },
    })
    await app.h.call('POST', '/data/documents', { token: ada.token, body: { title: 'Groceries' } })

    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Documents').click()
    await page.getByRole('link', { name: 'Groceries' }).waitFor()
    await page.getByLabel('Search titles').fill('trip')
    await page.getByLabel('Search titles').press('Enter')
    await until(async () => page.getByRole('link', { name: 'Groceries' }).count(), 0)
    await page.getByRole('link', { name: 'Trip plan' }).click()

    await page.getByText('Day one').waitFor()
    await page.getByLabel('Block text').fill('Fly to Lisbon')
    await page.getByRole('button', { name: 'Add block' }).click()
    await page.getByText('Fly to Lisbon').waitFor()
    await page.getByRole('listitem').filter({ hasText: 'Fly to Lisbon' }).getByRole('button', { name: 'Edit block' }).click()
    const editing = page.getByRole('form', { name: /^Block / })
    await editing.getByLabel('Block type').selectOption('quote')
    await editing.getByLabel('Block text').fill('Fly to Porto')
    await editing.getByRole('button', { name: 'Save block' }).click()
    await page.getByText('Fly to Porto').waitFor()
    await page.getByRole('listitem').filter({ hasText: 'Day one' }).getByRole('button', { name: 'Delete block' }).click()
    await confirmDialog(page, 'Delete block', 'heading')
    await until(async () => page.getByText('Day one').count(), 0)
    await page.getByLabel('Document title').fill('Porto trip')
    await page.getByRole('button', { name: 'Rename' }).click()
    await page.getByRole('heading', { name: 'Porto trip' }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-document.png'), fullPage: true })
    const blocks = (await app.h.call('GET', `/data/document_blocks?documentId=eq.${doc.id}&sort=position`, { token: ada.token })).body.items
    expect(blocks.map((b: { blockType: string; content: string }) => [b.blockType, b.content])).toEqual([['quote', 'Fly to Porto']])
    expect((await app.h.call('GET', `/data/documents/${doc.id}`, { token: ada.token })).body.title).toBe('Porto trip')

    await tab(page, 'Notes').click()
    await page.getByText('No notes yet: press New note').waitFor()
    await page.getByRole('button', { name: 'New note' }).click()
    await page.getByLabel('Note title').fill('Called Ada')
    await page.getByLabel('Note text').fill('About her trip')
    await page.getByRole('button', { name: 'Create note' }).click()
    await page.getByRole('button', { name: 'Edit note Called Ada' }).click()
    await page.getByLabel('Note title').fill('Called Ada back')
    await page.getByRole('button', { name: 'Save note' }).click()
    await page.getByRole('button', { name: 'Delete note Called Ada back' }).waitFor()
    expect((await app.h.call('GET', '/userdata/notes', as)).body.items.map((n: { title: string }) => n.title)).toEqual(['Called Ada back'])
    await page.getByRole('button', { name: 'Delete note Called Ada back' }).click()
    await confirmDialog(page, 'Delete note', 'Called Ada back')
    await page.getByText('No notes yet: press New note').waitFor()
    expect(elsewhere).toEqual([])
    await page.close()

    const phone = await app.open(`/console#/documents/${doc.id}`, PHONE)
    await signIn(phone.page, owner.email, PASSWORD, org.ecosystem.name)
    await phone.page.getByText('Fly to Porto').waitFor()
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await phone.page.screenshot({ path: join(SCREENSHOTS, 'console-document-phone.png'), fullPage: true })
    await phone.page.close()
  })

  test('a document made in the console gets blocks, which belong to the document', async () => {
    const owner = await app.h.register({ password: PASSWORD })
    const org = await provision(app.h, owner)
    const { page } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Documents').click()
    await page.getByText('No documents yet: create one').waitFor()
    await page.getByLabel('Document title').fill('Release notes')
    await page.getByRole('button', { name: 'Create document' }).click()
    await page.getByRole('heading', { name: 'Release notes' }).waitFor()
    await page.getByText('No blocks yet: write the first one below.').waitFor()
    await page.getByLabel('Block text').fill('Version one ships')
    await page.getByRole('button', { name: 'Add block' }).click()
    await page.getByRole('listitem').filter({ hasText: 'Version one ships' }).waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
    const [doc] = (await app.h.call('GET', '/data/documents', org.as(owner))).body.items
    const blocks = (await app.h.call('GET', `/data/document_blocks?documentId=eq.${doc.id}`, org.as(owner))).body.items
    expect(blocks.map((b: { content: string; customerId: string }) => [b.content, b.customerId])).toEqual([['Version one ships', doc.customerId]])
    expect(problems).toEqual([])
    await page.close()
  })
})
