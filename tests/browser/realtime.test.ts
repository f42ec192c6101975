import { describe, expect, test } from 'bun:test'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { customerOf, provision } from '../support/tenancy'
import { browserMissing, consoleServerForFile, SCREENSHOTS, signIn, tab, until } from './support'

// The browser example of docs/api/streams.md, run as written in a real Chromium: a ticket, then EventSource.

const app = consoleServerForFile()

describe.skipIf(!!browserMissing)('realtime in a browser', () => {
  test('the documented example: a ticket from POST /realtime/tickets opens an EventSource that receives changes', async () => {
    const owner = await app.h.register()
    const org = await provision(app.h, owner)
    const ada = await customerOf(app.h, org, owner)
    // The lines run below are the page's, word for word.
    const readme = readFileSync(join(import.meta.dir, '..', '..', 'docs', 'api', 'streams.md'), 'utf8')
    for (const line of [
      // biome-ignore lint/suspicious/noTemplateCurlyInString: quoted lines of the page's code, run as they are written
      "const { ticket } = await (await fetch('/realtime/tickets', { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json()",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: quoted lines of the page's code, run as they are written
      'const events = new EventSource(`/realtime/stream?topics=data/documents,notifications&ticket=${ticket}`)',
      "events.addEventListener('change', (e) => apply(JSON.parse(e.data)))",
      "events.addEventListener('reset', () => reloadLists())",
    ])
      expect(readme).toContain(line)
    const { page } = await app.open('/health')
    await page.evaluate(async (token) => {
      const w = window as unknown as { changes: unknown[]; resets: number; opened: Promise<void> }
      w.changes = []
      w.resets = 0
      const apply = (change: unknown) => w.changes.push(change)
      const reloadLists = () => w.resets++
      // From docs/api/streams.md, "Realtime":
      const { ticket } = await (await fetch('/realtime/tickets', { method: 'POST', headers: { authorization: `Bearer ${token}` } })).json()
      const events = new EventSource(`/realtime/stream?topics=data/documents,notifications&ticket=${ticket}`)
      events.addEventListener('change', (e) => apply(JSON.parse(e.data)))
      events.addEventListener('reset', () => reloadLists())
      await new Promise<void>((resolve) => events.addEventListener('ready', () => resolve()))
    }, ada.token)
    const { body: doc } = await app.h.call('POST', '/data/documents', { token: ada.token, body: { title: 'Seen in the browser' } })
    await page.waitForFunction(() => (window as unknown as { changes: unknown[] }).changes.length === 1, null, { timeout: 10_000 })
    const changes = await page.evaluate(() => (window as unknown as { changes: unknown[] }).changes)
    expect(changes).toEqual([{ topic: 'data/documents', op: 'insert', id: doc.id, record: doc, at: expect.any(String) }])
    await page.close()
  })

  test('the console’s Realtime page shows a thread a customer starts, as it happens, until stopped', async () => {
    const owner = await app.h.register({ password: 'realtime-password-1' })
    const org = await provision(app.h, owner)
    const ada = await customerOf(app.h, org, owner, 'ada-live')
    const { page, elsewhere } = await app.open()
    await signIn(page, owner.email, 'realtime-password-1', org.ecosystem.name)
    await tab(page, 'Realtime').click()
    expect(await page.getByLabel('community/threads').isChecked()).toBe(true)
    await page.getByRole('button', { name: 'Watch' }).click()
    await page.getByRole('status').filter({ hasText: 'Watching community/threads' }).waitFor()
    // Subscribed before the write: give the stream its moment to open, then write until it is seen.
    let thread: { id: string } | undefined
    await until(async () => {
      thread ??= (await app.h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Live tea' } })).body
      return page.getByRole('cell', { name: thread!.id }).count()
    }, 1)
    const row = page.getByRole('row').filter({ hasText: thread!.id })
    expect(await row.getByRole('cell').allTextContents()).toEqual(['community/threads', 'insert', thread!.id, expect.any(String)])
    await page.screenshot({ path: join(SCREENSHOTS, 'console-realtime.png') })
    await page.getByRole('button', { name: 'Stop' }).click()
    await page.getByRole('button', { name: 'Watch' }).waitFor()
    expect(elsewhere).toEqual([])
  }, 60_000)
})
