import { beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { RegisteredUser } from '../support/harness'
import { png, uploadAs } from '../support/storage'
import { provision, type Provisioned } from '../support/tenancy'
import { browserMissing, consoleServerForFile, SCREENSHOTS, signIn, tab, until, watchProblems } from './support'

// The console opened at http://127.0.0.1:PORT while PUBLIC_URL names localhost: uploads still work,
// since the local store's URLs follow the address the page reached the service by.

const PASSWORD = 'origin-password-1'
const app = consoleServerForFile((port) => ({ PUBLIC_URL: `http://localhost:${port}` }))
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  if (browserMissing) return
  owner = await app.h.register({ password: PASSWORD })
  org = await provision(app.h, owner)
})

describe.skipIf(!!browserMissing)('the console at another address than PUBLIC_URL', () => {
  test('an upload from the console at 127.0.0.1 completes, with no pending row left behind', async () => {
    expect(app.origin).toStartWith('http://127.0.0.1:')
    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Storage').click()
    await page.getByLabel('Upload a file').setInputFiles({ name: 'from-127.txt', mimeType: 'text/plain', buffer: Buffer.from('y'.repeat(1024)) })
    await until(() => page.getByTestId('usage').textContent(), '1.0 KB')
    await page.getByRole('cell', { name: 'from-127.txt' }).waitFor()
    await page.screenshot({ path: join(SCREENSHOTS, 'console-upload-other-origin.png') })
    const pending = await app.h.call('GET', '/storage/attachments?status=pending', org.as(owner))
    expect(pending.status).toBe(200)
    expect(pending.body.items).toEqual([])
    expect(elsewhere).toEqual([])
  }, 60_000)

  test("an admin's preview of a customer's image and its download link are at 127.0.0.1 too (the page's Referer stands in for Origin)", async () => {
    const as = org.as(owner)
    const ada = (await app.h.call('POST', '/customer/register', { ...as, body: { name: 'Ada at 127' } })).body.customerId
    const token = (await app.h.call('POST', '/customer/token', { ...as, body: { customerId: ada } })).body.token
    await uploadAs(app.h, token, 'photo.png', 'image/png', png(32, 32))
    const { page, elsewhere } = await app.open()
    const problems = watchProblems(page)
    await signIn(page, owner.email, PASSWORD, org.ecosystem.name)
    await tab(page, 'Storage').click()
    await page.getByLabel('Customer', { exact: true }).selectOption({ label: 'Ada at 127' })
    const image = page.getByRole('img', { name: 'Preview of photo.png' })
    await image.waitFor()
    await until(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth), 32)
    expect(await image.getAttribute('src')).toStartWith(`${app.origin}/storage/objects/`)
    expect(await page.getByRole('link', { name: 'Download' }).getAttribute('href')).toStartWith(`${app.origin}/storage/objects/`)
    expect(problems).toEqual([])
    expect(elsewhere).toEqual([])
  }, 60_000)
})
