import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import type { Browser } from 'playwright-core'
import { createHarness, type Harness } from '../support/harness'
import { browserMissing, launch, SCREENSHOTS } from './support'

// The API reference page in a real Chromium, with every request that leaves the server refused:
// it must render the operation list from what the service itself serves.

let h: Harness
let server: ReturnType<typeof Bun.serve>
let browser: Browser
beforeAll(async () => {
  if (browserMissing) return
  h = await createHarness()
  server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: (request) => h.app.handle(request) })
  browser = await launch()
}, 60_000)
afterAll(async () => {
  if (browserMissing) return
  await browser.close()
  await server.stop(true)
  await h.close()
})

describe.skipIf(!!browserMissing)('/openapi in a browser', () => {
  test('renders the operation list with no network beyond the service', async () => {
    const origin = `http://127.0.0.1:${server.port}`
    const elsewhere: string[] = []
    const open = async (url: string) => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
      await page.route('**/*', (route) => {
        if (route.request().url().startsWith(origin)) return route.continue()
        elsewhere.push(route.request().url())
        return route.abort()
      })
      await page.goto(url)
      return page
    }
    const page = await open(`${origin}/openapi`)
    await page.locator('#operations-tag-public').waitFor({ timeout: 30_000 })
    expect(await page.title()).toBe('Ecobase API')
    expect(await page.locator('#operations-public-health').textContent()).toContain('/health')
    await page.screenshot({ path: join(SCREENSHOTS, 'api-docs.png') })
    // A deep link opens another area with its operations, e.g. chat's streamed send.
    const linked = await open(`${origin}/openapi#/chat/chatSendMessage`)
    await linked.locator('#operations-chat-chatSendMessage').waitFor({ timeout: 30_000 })
    expect(await linked.locator('#operations-chat-chatSendMessage').textContent()).toContain('/chat/conversations/{id}/messages')
    expect(elsewhere).toEqual([])
    await page.close()
    await linked.close()
  }, 60_000)
})
