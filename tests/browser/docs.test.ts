import { describe, expect, test } from 'bun:test'
import { join } from 'node:path'
import { browserMissing, SCREENSHOTS, consoleServerForFile } from './support'

// The API reference page in a real Chromium, with every request that leaves the server refused:
// it must render the operation list from what the service itself serves.

const app = consoleServerForFile()

describe.skipIf(!!browserMissing)('/openapi in a browser', () => {
  test('renders the operation list with no network beyond the service', async () => {
    const { page, elsewhere } = await app.open('/openapi')
    await page.locator('#operations-tag-public').waitFor({ timeout: 30_000 })
    expect(await page.title()).toBe('Ecobase API')
    expect(await page.locator('#operations-public-health').textContent()).toContain('/health')
    await page.screenshot({ path: join(SCREENSHOTS, 'api-docs.png') })
    // A deep link opens another area with its operations, e.g. chat's streamed send.
    const { page: linked, elsewhere: elsewhereLinked } = await app.open('/openapi#/chat/chatSendMessage')
    await linked.locator('#operations-chat-chatSendMessage').waitFor({ timeout: 30_000 })
    expect(await linked.locator('#operations-chat-chatSendMessage').textContent()).toContain('/chat/conversations/{id}/messages')
    expect([...elsewhere, ...elsewhereLinked]).toEqual([])
    await page.close()
    await linked.close()
  }, 60_000)
})
