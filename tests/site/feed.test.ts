import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runJob } from '../../src/jobs'
import { pruneFeed } from '../../src/modules/site/jobs'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { createPersona } from '../support/personas'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { rejection } from '../support/wait'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

const items = async (token: string, query = '') => (await h.call('GET', `/site/feed${query}`, { token })).body

/** Reads SSE frames from a stream response until `count` `item` events arrived. */
async function readItems(res: Response, count: number) {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const events: { id: string; data: { summary: string; id: string } }[] = []
  while (events.length < count) {
    const { value, done } = await reader.read()
    if (done) break
    text += typeof value === 'string' ? value : decoder.decode(value, { stream: true })
    let end: number
    while ((end = text.indexOf('\n\n')) >= 0) {
      const frame = text.slice(0, end)
      text = text.slice(end + 2)
      if (!/^event: item$/m.test(frame)) continue
      events.push({ id: /^id: (.*)$/m.exec(frame)![1]!, data: JSON.parse(/^data: (.*)$/m.exec(frame)![1]!) })
    }
  }
  await reader.cancel()
  return events
}

describe('site feed', () => {
  test('a reply to your thread becomes an item of yours; list, unread count, read, read all; others cannot see or mark it', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Tea' } })
    await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'green' } })
    await h.call('POST', '/community/replies', { token: ada.token, body: { threadId: thread.id, body: 'my own' } })
    const page = await items(ada.token)
    expect(page.total).toBe(1)
    expect(page.items[0]).toEqual({
      id: expect.any(String),
      customerId: ada.customerId,
      ownerId: org.ecosystem.id,
      source: 'community',
      entityType: 'reply',
      entityId: expect.any(String),
      action: 'created',
      summary: 'New reply to your thread “Tea”',
      actorId: bob.customerId,
      metadata: JSON.stringify({ threadId: thread.id }),
      isRead: false,
      createdAt: expect.stringMatching(/Z$/),
      deletedAt: null,
    })
    expect((await items(bob.token)).total).toBe(0)
    expect((await h.call('GET', '/site/feed/unread-count', { token: ada.token })).body).toEqual({ count: 1 })
    expect((await h.call('POST', `/site/feed/${page.items[0].id}/read`, { token: bob.token })).status).toBe(404)
    expect((await h.call('POST', `/site/feed/${page.items[0].id}/read`, { token: ada.token })).body.isRead).toBe(true)
    expect((await h.call('GET', '/site/feed/unread-count', { token: ada.token })).body).toEqual({ count: 0 })
    expect((await items(ada.token, '?unread=true')).total).toBe(0)
    await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'again' } })
    expect((await h.call('POST', '/site/feed/read-all', { token: ada.token })).body).toEqual({ updated: 1 })
  })

  test('an attachment ready, a badge earned and a memory saved by chat are items too; filter by source', async () => {
    const c = await customerOf(h, org, owner)
    const bytes = new TextEncoder().encode('hello feed')
    const contentHash = new Bun.CryptoHasher('sha256').update(bytes).digest('hex')
    const p = await h.call('POST', '/storage/uploads', {
      token: c.token,
      body: { filename: 'notes.txt', contentType: 'text/plain', sizeBytes: bytes.byteLength, contentHash },
    })
    await h.app.handle(new Request(p.body.uploadUrl, { method: 'PUT', headers: p.body.uploadHeaders, body: bytes }))
    await h.call('POST', `/storage/attachments/${p.body.attachment.id}/complete`, { token: c.token })
    await h.call('POST', '/community/badges', { ...org.as(owner), body: { name: 'Starter', criteriaType: 'threads_created', criteriaThreshold: 1 } })
    await h.call('POST', '/community/threads', { token: c.token, body: { title: 'first' } })
    const persona = await createPersona(h, org.as(owner))
    await h.app.services.persona_memory.create(
      { ecosystemId: org.ecosystem.id, customerId: c.customerId, organizationId: '', actor: { kind: 'customer' } },
      { personaId: persona.id, scope: 'user', source: 'tool', slug: 'tea', memoryType: 'user', description: 'Likes green tea', body: 'green tea' },
    )
    await h.call('POST', '/persona_memory/memories', {
      token: c.token,
      body: { personaId: persona.id, scope: 'user', slug: 'typed', memoryType: 'user', description: 'typed by the user', body: 'x' },
    })
    const all = (await items(c.token)).items.map((i: { source: string; action: string; summary: string }) => [i.source, i.action, i.summary])
    expect(all).toEqual([
      ['persona_memory', 'saved', 'Saved to memory in chat: Likes green tea'],
      ['community', 'earned', 'You earned the badge “Starter”'],
      ['storage', 'ready', 'notes.txt is uploaded and ready'],
    ])
    expect((await items(c.token, '?source=storage')).items.map((i: { entityId: string }) => i.entityId)).toEqual([p.body.attachment.id])
  })

  test('an item written in a transaction that rolls back does not exist', async () => {
    const c = await customerOf(h, org, owner)
    await rejection(
      h.db.transaction(async (tx) => {
        await h.app.services.site.feed.record(tx, {
          ecosystemId: org.ecosystem.id,
          customerId: c.customerId,
          source: 'test',
          entityType: 'x',
          action: 'y',
          summary: 'never',
        })
        throw new Error('the change failed')
      }),
      'the change failed',
    )
    expect((await items(c.token)).total).toBe(0)
  })

  test('the stream pushes new items, also written on another replica, and resumes after Last-Event-ID', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Live' } })
    const replica = await h.replica()
    try {
      const stream = await h.app.handle(new Request('http://localhost/site/feed/stream', { headers: { authorization: `Bearer ${ada.token}` } }))
      expect(stream.headers.get('content-type')).toContain('text/event-stream')
      const received = readItems(stream, 2)
      await Bun.sleep(200)
      await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'one' } })
      await replica.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'two' } })
      const events = await received
      expect(events.map((e) => e.data.summary)).toEqual(['New reply to your thread “Live”', 'New reply to your thread “Live”'])
      await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'three' } })
      const resumed = await h.app.handle(
        new Request('http://localhost/site/feed/stream', { headers: { authorization: `Bearer ${ada.token}`, 'last-event-id': events[0]!.id } }),
      )
      const again = await readItems(resumed, 2)
      expect(again.map((e) => e.id)).toEqual([events[1]!.id, expect.any(String)])
      expect(Number(again[1]!.id)).toBeGreaterThan(Number(events[1]!.id))
    } finally {
      await replica.close()
    }
  }, 20_000)

  test('an item too large for a NOTIFY payload still reaches the stream, read from the table, once', async () => {
    const ada = await customerOf(h, org, owner)
    const stream = await h.app.handle(new Request('http://localhost/site/feed/stream', { headers: { authorization: `Bearer ${ada.token}` } }))
    const received = readItems(stream, 2)
    await Bun.sleep(200)
    const entry = { ecosystemId: org.ecosystem.id, customerId: ada.customerId, source: 'bench', entityType: 'note', action: 'created' }
    await h.db.transaction((tx) => h.app.services.site.feed.record(tx, { ...entry, summary: 'large', metadata: { text: 'x'.repeat(10_000) } }))
    await h.db.transaction((tx) => h.app.services.site.feed.record(tx, { ...entry, summary: 'small' }))
    const events = await received
    expect(events.map((e) => e.data.summary)).toEqual(['large', 'small'])
    expect(new Set(events.map((e) => e.id)).size).toBe(2)
  })

  test('read items are pruned after FEED_RETENTION_DAYS; unread ones stay', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Old' } })
    await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'one' } })
    await h.call('POST', '/site/feed/read-all', { token: ada.token })
    await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'two' } })
    h.advanceClock(91 * 24 * 3600 * 1000)
    try {
      const report = await runJob(h.deps, pruneFeed)
      expect(report!.feedItems).toBeGreaterThanOrEqual(1)
    } finally {
      h.advanceClock(-91 * 24 * 3600 * 1000)
    }
    const left = await items(ada.token)
    expect(left.items.map((i: { isRead: boolean }) => i.isRead)).toEqual([false])
  })
})
