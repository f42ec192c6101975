import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { png, ownerAndAda, uploadAs } from '../support/storage'
import { browserMissing, confirmDialog, consoleServerForFile, DESKTOP, PHONE, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The Storage page as an ecosystem admin's browser of a customer's files, in a real Chromium: the
// customer uploads through the API; the admin picks them, sees the image drawn and the text's start,
// downloads, and deletes after the in-page question (Cancel keeps the file); the usage then drops.

const app = consoleServerForFile()
const PASSWORD = 'storage-browser-password'
const PNG = png(64, 48)
const TEXT = Buffer.from('Dear admin,\nthese are the notes of Ada.\n{"json": "stays as written"}\n')

const fileRow = (page: Page, filename: string) => page.getByRole('table', { name: 'Customer’s files' }).getByRole('row').filter({ hasText: filename })

/** Signs in at `viewport`, opens Storage and picks Ada; waits until her image is drawn. */
async function openAdasFiles(email: string, ecosystem: string, viewport: typeof DESKTOP) {
  const { page, elsewhere } = await app.open('/console', viewport)
  const problems = watchProblems(page)
  await signIn(page, email, PASSWORD, ecosystem)
  await tab(page, 'Storage').click()
  await page.getByRole('status').filter({ hasText: 'Pick a customer to see their files' }).waitFor()
  await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Ada Lovelace' })
  const image = page.getByRole('img', { name: 'Preview of photo.png' })
  await image.waitFor()
  await until(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 64)
  return { page, elsewhere, problems }
}

describe.skipIf(!!browserMissing)('the console’s storage browser', () => {
  test('an admin picks a customer, previews an image and a text, downloads, and deletes after the in-page question', async () => {
    const { owner, org, as, ada, token } = await ownerAndAda(app.h, PASSWORD)
    for (const name of ['Bob Nofiles', 'Cy Other']) await app.h.call('POST', '/customer/register', { ...as, body: { name } })
    const photo = await uploadAs(app.h, token, 'photo.png', 'image/png', PNG)
    const notes = await uploadAs(app.h, token, 'notes.txt', 'text/plain', TEXT)
    const usage = async () => (await app.h.call('GET', `/usage/storage/customers/${ada}`, as)).body.usageBytes
    expect(await usage()).toBe(PNG.byteLength + TEXT.byteLength)

    const { page, elsewhere, problems } = await openAdasFiles(owner.email, org.ecosystem.name, DESKTOP)
    await until(() => page.getByTestId('customer-usage').textContent(), `${((PNG.byteLength + TEXT.byteLength) / 1024).toFixed(1)} KB`)
    await fileRow(page, 'notes.txt').getByRole('button', { name: 'Show text' }).click()
    const preview = page.locator('figure.text-preview pre')
    await until(() => preview.textContent(), TEXT.toString())
    for (const [filename, bytes] of [
      ['photo.png', PNG],
      ['notes.txt', TEXT],
    ] as const) {
      const href = await fileRow(page, filename).getByRole('link', { name: 'Download' }).getAttribute('href')
      expect(href).toStartWith(`${app.origin}/storage/objects/`)
      const res = await fetch(href!)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-disposition')).toContain(filename)
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
      // The console's own origin may fetch it too (its CSP allows the address the URL names).
      expect(await page.evaluate(async (url) => (await fetch(url)).status, href!)).toBe(200)
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'console-storage-browser.png'), fullPage: true })

    // Cancel keeps the file.
    await fileRow(page, 'photo.png').getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('photo.png')
    expect(await dialog.textContent()).toContain('Ada Lovelace')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(await fileRow(page, 'photo.png').count()).toBe(1)
    expect((await app.h.call('GET', `/storage/customers/${ada}/attachments`, as)).body.total).toBe(2)
    expect(await usage()).toBe(PNG.byteLength + TEXT.byteLength)

    // Delete removes it, and the usage drops on the page and in the API.
    await fileRow(page, 'photo.png').getByRole('button', { name: 'Delete' }).click()
    await confirmDialog(page, 'Delete file', 'photo.png')
    await until(() => fileRow(page, 'photo.png').count(), 0)
    await until(() => page.getByTestId('customer-usage').textContent(), `${TEXT.byteLength} B`)
    expect(await usage()).toBe(notes.sizeBytes)
    const left = (await app.h.call('GET', `/storage/customers/${ada}/attachments`, as)).body.items
    expect(left.map((a: { id: string }) => a.id)).toEqual([notes.id])
    const log = (await app.h.call('GET', '/audit/events?action=storage.attachment.deleted', as)).body.items
    expect(log.map((e: { target: { id: string } }) => e.target.id)).toEqual([photo.id])

    // A search that leaves the picked customer out keeps them picked; a customer with no files says so.
    await page.getByLabel('Find a customer').fill('Bob')
    const options = () => page.getByLabel('Customer', { exact: true }).locator('option').allTextContents()
    await until(options, (names) => names.join() === ['Pick a customer…', 'Ada Lovelace', 'Bob Nofiles'].join())
    expect(await page.getByLabel('Customer', { exact: true }).inputValue()).toBe(ada)
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Bob Nofiles' })
    await page.getByRole('status').filter({ hasText: 'This customer has no files.' }).waitFor()
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  }, 90_000)

  test('at 390 px the browser, its previews and the text fit the screen', async () => {
    const { owner, org, token } = await ownerAndAda(app.h, PASSWORD)
    await uploadAs(app.h, token, 'photo.png', 'image/png', PNG)
    const long = Buffer.from(`${'a-very-long-line-without-any-space-'.repeat(40)}\n${'more text '.repeat(800)}`)
    await uploadAs(app.h, token, 'long-notes-with-a-rather-long-name.json', 'application/json', long)

    const { page, elsewhere, problems } = await openAdasFiles(owner.email, org.ecosystem.name, PHONE)
    await fileRow(page, 'long-notes-with-a-rather-long-name.json').getByRole('button', { name: 'Show text' }).click()
    const preview = page.locator('figure.text-preview pre')
    // Only the start of a long text is read and shown.
    await until(
      async () => (await preview.textContent()) ?? '',
      (text) => text.endsWith('…') && text.length === 4096 + 2,
    )
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width)
    await page.screenshot({ path: join(SCREENSHOTS, 'console-storage-browser-phone.png'), fullPage: true })
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  }, 90_000)
})
