import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { ownerAndAda, uploadAs } from '../support/storage'
import { browserMissing, consoleServerForFile, DESKTOP, signIn, tab, until, watchProblems } from './support'

// The storage browser's download URLs are presigned, and stop working after STORAGE_URL_TTL_SECONDS
// (2 s here, 15 minutes by default). A page left open longer than that still shows a file's text
// and downloads it: each of those asks for a new URL, in a real Chromium.

const app = consoleServerForFile({ STORAGE_URL_TTL_SECONDS: '2' })
const PASSWORD = 'storage-links-password'
const TEXT = Buffer.from('Notes of Ada, read after the list’s links expired.\n')

describe.skipIf(!!browserMissing)('the console’s storage browser, left open', () => {
  test('after the URLs the list loaded expire, Show text and Download still work', async () => {
    const { owner, org, token } = await ownerAndAda(app.h, PASSWORD)
    await uploadAs(app.h, token, 'notes.txt', 'text/plain', TEXT)

    const { page, elsewhere } = await app.open('/console', DESKTOP)
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Storage').click()
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Ada Lovelace' })
    const row = page.getByRole('table', { name: 'Customer’s files' }).getByRole('row').filter({ hasText: 'notes.txt' })
    const link = row.getByRole('link', { name: 'Download' })
    await link.waitFor()
    const loaded = (await link.getAttribute('href'))!
    await until(async () => (await fetch(loaded)).status, 403, 10_000)

    await row.getByRole('button', { name: 'Show text' }).click()
    await until(() => page.locator('figure.text-preview pre').textContent(), TEXT.toString())
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()])
    expect(download.suggestedFilename()).toBe('notes.txt')
    expect(readFileSync((await download.path())!).equals(TEXT)).toBe(true)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
    await page.close()
  }, 90_000)
})
