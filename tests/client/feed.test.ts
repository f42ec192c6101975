import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { FeedEvent } from '../../client/index'
import { createHarness, type Harness } from '../support/harness'
import { customerOf, provision } from '../support/tenancy'
import { connect } from './connect'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
})
afterAll(() => h.close())

test('typed client: feed.stream yields items as they are written, and resumes from an id', async () => {
  const owner = await h.register()
  const org = await provision(h, owner)
  const ada = await customerOf(h, org, owner)
  const bob = await customerOf(h, org, owner)
  const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Typed' } })
  const client = connect(h, { tokens: { token: ada.token } }).client
  const controller = new AbortController()
  const seen: FeedEvent[] = []
  const reading = (async () => {
    for await (const ev of client.feed.stream({ signal: controller.signal })) {
      seen.push(ev)
      // Narrowing by `event` types `data`.
      if (ev.event === 'item' && ev.data.summary.length > 0 && seen.filter((e) => e.event === 'item').length === 2) controller.abort()
    }
  })()
  await Bun.sleep(200)
  await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'one' } })
  await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'two' } })
  await reading
  const items = seen.filter((e): e is Extract<FeedEvent, { event: 'item' }> => e.event === 'item')
  expect(seen[0]!.event).toBe('ping')
  expect(items.map((e) => e.data.summary)).toEqual(['New reply to your thread “Typed”', 'New reply to your thread “Typed”'])
  const resumeFrom = items[0]!.id
  expect(resumeFrom).toMatch(/^\d+$/)
  const again = new AbortController()
  for await (const ev of client.feed.stream({ signal: again.signal, lastEventId: resumeFrom })) {
    if (ev.event === 'item') {
      expect(ev.data.id).toBe(items[1]!.data.id)
      again.abort()
    }
  }
})
