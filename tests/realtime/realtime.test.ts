import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { runJob } from '../../src/jobs'
import { dataRowsChanged } from '../../src/modules/data/events'
import { purgeRealtime } from '../../src/modules/realtime/jobs'
import { MAX_BUFFER } from '../../src/modules/realtime/subscription'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { realtimeStream, sseReader } from '../support/sse'
import { addMember, customerOf, provision, type Provisioned } from '../support/tenancy'

let h: Harness
let owner: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness()
  owner = await h.register()
  org = await provision(h, owner)
})
afterAll(() => h.close())

/** Opens a realtime stream on the harness's app (or `extra.app`, another replica's). */
const stream = (
  token: string,
  topics: string,
  extra: { headers?: Record<string, string>; since?: string; app?: { handle(r: Request): Promise<Response> } } = {},
) => realtimeStream(extra.app ?? h.app, token, topics, extra)

describe('realtime streams', () => {
  test('own rows: a customer sees changes to its documents only; an admin of the ecosystem sees every one', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const adaStream = await stream(ada.token, 'data/documents')
    const adminStream = await stream(owner.token, 'data/documents', { headers: { 'x-ecosystem-id': org.ecosystem.id } })
    expect(adaStream.res.status).toBe(200)
    expect(adaStream.res.headers.get('content-type')).toStartWith('text/event-stream')
    const ready = await adaStream.sse.next()
    expect(ready.event).toBe('ready')
    expect(ready.id).toMatch(/^[0-9a-f]{8}\.\d+\.\d+$/)
    expect((await adminStream.sse.next()).event).toBe('ready')

    const { body: bobs } = await h.call('POST', '/data/documents', { token: bob.token, body: { title: 'Bob’s' } })
    const { body: adas } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'Ada’s' } })
    const listed = (await h.call('GET', '/data/documents', { token: ada.token })).body.items[0]
    const insert = await adaStream.sse.next()
    expect(insert).toEqual({
      event: 'change',
      id: expect.stringMatching(/^[0-9a-f]{8}\.\d+\.\d+$/),
      data: { topic: 'data/documents', op: 'insert', id: adas.id, record: listed, at: expect.any(String) },
    })
    const seen = [await adminStream.sse.next(), await adminStream.sse.next()]
    expect(seen.map((e) => e.data.id)).toEqual([bobs.id, adas.id])

    await h.call('PATCH', `/data/documents/${adas.id}`, { token: ada.token, body: { title: 'Renamed' } })
    const update = await adaStream.sse.next()
    expect(update.data).toMatchObject({ op: 'update', id: adas.id, record: { title: 'Renamed' } })
    await h.call('DELETE', `/data/documents/${adas.id}`, { token: ada.token })
    const removed = await adaStream.sse.next()
    expect(removed.data).toEqual({ topic: 'data/documents', op: 'delete', id: adas.id, at: expect.any(String) })
    expect(await adaStream.sse.none(300)).toBe(true)
    await adaStream.sse.close()
    await adminStream.sse.close()
  })

  test('shared topics: everyone in the ecosystem sees threads and replies, never another ecosystem; a thread suffix narrows replies; deleting a thread deletes its replies', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const otherOrg = await provision(h, owner)
    const stranger = await customerOf(h, otherOrg, owner)
    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Tea' } })
    const { body: elsewhere } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Coffee' } })
    const bobs = await stream(bob.token, `community/threads,community/replies:${thread.id}`)
    const strangers = await stream(stranger.token, 'community/threads,community/replies')
    await bobs.sse.next()
    await strangers.sse.next()

    await h.call('POST', '/community/replies', { token: ada.token, body: { threadId: elsewhere.id, body: 'not this thread' } })
    const { body: reply } = await h.call('POST', '/community/replies', { token: ada.token, body: { threadId: thread.id, body: 'green' } })
    const got = await bobs.sse.next()
    expect(got.data).toMatchObject({ topic: 'community/replies', op: 'insert', id: reply.id, record: { threadId: thread.id, body: 'green' } })

    await h.call('DELETE', `/community/threads/${thread.id}`, { token: ada.token })
    const [first, second] = [await bobs.sse.next(), await bobs.sse.next()]
    expect([first.data, second.data]).toEqual([
      { topic: 'community/replies', op: 'delete', id: reply.id, at: expect.any(String) },
      { topic: 'community/threads', op: 'delete', id: thread.id, at: expect.any(String) },
    ])
    expect(await strangers.sse.none(300)).toBe(true)
    await bobs.sse.close()
    await strangers.sse.close()
  })

  test('notifications reach only their own customer, not even an admin; contract rows follow the contract’s read access', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const as = org.as(owner)
    await h.call('POST', '/contract/contracts', { ...as, body: { name: 'todos', columns: [{ name: 'title', type: 'text' }] } })
    await h.call('POST', '/contract/contracts', {
      ...as,
      body: { name: 'news', columns: [{ name: 'title', type: 'text' }], access: { read: 'all', create: false } },
    })
    await h.call('POST', '/contract/contracts', { ...as, body: { name: 'secrets', columns: [{ name: 'title', type: 'text' }], access: { read: 'none' } } })
    expect((await stream(ada.token, 'contract/secrets')).res.status).toBe(403)
    expect((await stream(ada.token, 'contract/nothing')).res.status).toBe(404)

    const adaNotes = await stream(ada.token, 'notifications,contract/todos,contract/news')
    const bobNotes = await stream(bob.token, 'notifications,contract/todos,contract/news')
    const admin = await stream(owner.token, 'notifications,contract/todos,contract/secrets', as)
    for (const s of [adaNotes, bobNotes, admin]) expect((await s.sse.next()).event).toBe('ready')

    const { body: thread } = await h.call('POST', '/community/threads', { token: ada.token, body: { title: 'Ask me' } })
    await h.call('POST', '/community/replies', { token: bob.token, body: { threadId: thread.id, body: 'hi' } })
    const note = await adaNotes.sse.next()
    expect(note.data).toMatchObject({ topic: 'notifications', op: 'insert', record: { userId: ada.customerId, type: 'community_reply' } })
    expect((await h.call('GET', '/notifications', { token: ada.token })).body.items[0]).toEqual(note.data.record)
    await h.call('POST', `/notifications/read/${note.data.id}`, { token: ada.token })
    expect((await adaNotes.sse.next()).data).toMatchObject({ op: 'update', id: note.data.id, record: { isRead: true } })

    const { body: todo } = await h.call('POST', '/contract/contracts/todos/rows', { token: bob.token, body: { title: 'Bob’s todo' } })
    const { body: news } = await h.call('POST', '/contract/contracts/news/rows', { ...as, body: { title: 'Hello all' } })
    await h.call('POST', '/contract/contracts/secrets/rows', { ...as, body: { title: 'psst' } })
    const bobSaw = [await bobNotes.sse.next(), await bobNotes.sse.next()]
    expect(bobSaw.map((e) => [e.data.topic, e.data.id])).toEqual([
      ['contract/todos', todo.id],
      ['contract/news', news.id],
    ])
    expect(bobSaw[0]!.data.record).toEqual(todo)
    expect((await adaNotes.sse.next()).data).toMatchObject({ topic: 'contract/news', id: news.id })
    const adminSaw = [await admin.sse.next(), await admin.sse.next()]
    expect(adminSaw.map((e) => e.data.topic)).toEqual(['contract/todos', 'contract/secrets'])
    await h.call('PATCH', `/contract/contracts/todos/rows/${todo.id}`, { token: bob.token, body: { title: 'done' } })
    await h.call('DELETE', `/contract/contracts/todos/rows/${todo.id}`, { token: bob.token })
    for (const s of [bobNotes, admin]) {
      expect((await s.sse.next()).data).toMatchObject({ topic: 'contract/todos', op: 'update', id: todo.id, record: { title: 'done' } })
      expect((await s.sse.next()).data).toEqual({ topic: 'contract/todos', op: 'delete', id: todo.id, at: expect.any(String) })
    }
    for (const s of [adaNotes, bobNotes, admin]) expect(await s.sse.none(300)).toBe(true)
    for (const s of [adaNotes, bobNotes, admin]) await s.sse.close()
  })

  test('who may subscribe: an account outside the organization is 403, a team member of any role may; unknown topics, cursors and too many topics are 400', async () => {
    const outsider = await h.register()
    expect((await stream(outsider.token, 'data/documents', { headers: { 'x-ecosystem-id': org.ecosystem.id } })).res.status).toBe(403)
    const member = await h.register()
    await addMember(h, org, owner, member, 'member')
    const ok = await stream(member.token, 'data/documents', org.as(member))
    expect(ok.res.status).toBe(200)
    await ok.sse.close()
    const ada = await customerOf(h, org, owner)
    const refused = async (topics: string, code: string, since?: string) => {
      const { res } = await stream(ada.token, topics, { since })
      expect(res.status).toBe(400)
      expect((await res.json()).error.code).toBe(code)
    }
    await refused('data/nothing', 'unknown_topic')
    await refused('data/documents:abc', 'unknown_topic')
    await refused('community/replies:a:b', 'unknown_topic')
    await refused('contract/', 'unknown_topic')
    await refused(Array.from({ length: 21 }, (_, i) => `contract/t${i}`).join(','), 'validation_failed')
    await refused('data/documents', 'invalid_cursor', 'yesterday')
    expect((await h.app.handle(new Request('http://localhost/realtime/stream?topics=data/documents'))).status).toBe(401)
  })

  test('resume: Last-Event-ID (or since) gets every change made while away, once, then live; a cursor older than the retention window gets reset', async () => {
    const ada = await customerOf(h, org, owner)
    const first = await stream(ada.token, 'userdata/notes')
    await first.sse.next()
    const { body: one } = await h.call('POST', '/userdata/notes', { token: ada.token, body: { title: 'one' } })
    const seen = await first.sse.next()
    expect(seen.data.id).toBe(one.id)
    await first.sse.close()

    const missed = []
    for (const title of ['two', 'three', 'four']) missed.push((await h.call('POST', '/userdata/notes', { token: ada.token, body: { title } })).body.id)
    const again = await stream(ada.token, 'userdata/notes', { headers: { 'last-event-id': seen.id! } })
    expect((await again.sse.next()).event).toBe('ready')
    const caught = [await again.sse.next(), await again.sse.next(), await again.sse.next()]
    expect(caught.map((e) => e.data.id)).toEqual(missed)
    const { body: live } = await h.call('POST', '/userdata/notes', { token: ada.token, body: { title: 'five' } })
    const next = await again.sse.next()
    expect(next.data.id).toBe(live.id)
    expect(await again.sse.none(300)).toBe(true)
    await again.sse.close()

    // The same cursor through ?since= replays the same four, each once.
    const bySince = await stream(ada.token, 'userdata/notes', { since: seen.id })
    await bySince.sse.next()
    const replay = [await bySince.sse.next(), await bySince.sse.next(), await bySince.sse.next(), await bySince.sse.next()]
    expect(replay.map((e) => e.data.id)).toEqual([...missed, live.id])
    expect(await bySince.sse.none(300)).toBe(true)
    await bySince.sse.close()

    const unused = (await h.call('POST', '/realtime/tickets', { token: ada.token })).body.ticket
    h.advanceClock(25 * 3600 * 1000)
    try {
      const purged = (await runJob(h.deps, purgeRealtime))!
      expect(purged.changes).toBeGreaterThan(0)
      expect(purged.tickets).toBeGreaterThanOrEqual(1)
    } finally {
      h.advanceClock(-25 * 3600 * 1000)
    }
    // The expired ticket is gone, not merely refused.
    expect((await h.app.handle(new Request(`http://localhost/realtime/stream?topics=userdata/notes&ticket=${unused}`))).status).toBe(401)
    const stale = await stream(ada.token, 'userdata/notes', { since: seen.id })
    expect((await stale.sse.next()).event).toBe('ready')
    const reset = await stale.sse.next()
    expect(reset).toEqual({ event: 'reset', id: expect.stringMatching(/^[0-9a-f]{8}\.\d+\.\d+$/), data: { reason: 'expired' } })
    const { body: after } = await h.call('POST', '/userdata/notes', { token: ada.token, body: { title: 'after the reset' } })
    expect((await stale.sse.next()).data.id).toBe(after.id)
    await stale.sse.close()
  })

  test('a stream that falls more than its buffer behind ends with reset instead of growing', async () => {
    const ada = await customerOf(h, org, owner)
    const slow = await stream(ada.token, 'data/documents')
    await slow.sse.next()
    const changes = Array.from({ length: MAX_BUFFER + 5 }, (_, i) => ({
      op: 'insert' as const,
      id: `row-${i}`,
      customerId: ada.customerId,
      audience: 'own' as const,
      record: { n: i },
    }))
    await h.db.transaction((tx) => h.app.bus.emit(tx, dataRowsChanged, org.ecosystem.id, { topic: 'data/documents', changes }))
    await Bun.sleep(500)
    const frames = []
    for (;;) {
      const e = await slow.sse.next()
      frames.push(e)
      if (e.event === 'reset') break
    }
    expect(frames.at(-1)!.data).toEqual({ reason: 'overflow' })
    expect(frames.length).toBeLessThanOrEqual(3)
    expect(await slow.sse.ended()).toBe(true)
  })

  test('revoking the session behind a stream ends it with error within 5 s; so does deleting the API token it was opened with', async () => {
    const ada = await customerOf(h, org, owner)
    const s = await stream(ada.token, 'data/documents')
    await s.sse.next()
    const started = Date.now()
    expect((await h.call('POST', '/customer/revoke', { body: { refreshToken: ada.refreshToken } })).status).toBe(204)
    const ended = await s.sse.next(6000)
    expect(ended).toEqual({ event: 'error', id: undefined, data: { code: 'unauthorized', message: expect.any(String) } })
    expect(Date.now() - started).toBeLessThan(5500)
    expect(await s.sse.ended()).toBe(true)

    const { body: apiToken } = await h.call('POST', '/auth/tokens', { token: owner.token, body: { name: 'stream' } })
    const byToken = await stream(apiToken.token, 'data/documents', { headers: { 'x-ecosystem-id': org.ecosystem.id } })
    await byToken.sse.next()
    expect((await h.call('DELETE', `/auth/tokens/${apiToken.id}`, { token: owner.token })).status).toBe(204)
    expect((await byToken.sse.next(6000)).data.code).toBe('unauthorized')
  })

  test('tickets: one stream each, within 60 s, bound to the caller and its ecosystem; the site feed takes them too; a ticket does not buy a ticket', async () => {
    const ada = await customerOf(h, org, owner)
    const bob = await customerOf(h, org, owner)
    const issue = async (token: string, headers?: Record<string, string>) =>
      (await h.call('POST', '/realtime/tickets', { token, headers })).body as { ticket: string; expiresAt: string }
    const open = (path: string) => h.app.handle(new Request(`http://localhost${path}`))
    const { ticket, expiresAt } = await issue(ada.token)
    expect(ticket).toStartWith('rt_')
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(55_000)
    const res = await open(`/realtime/stream?topics=data/documents&ticket=${ticket}`)
    expect(res.status).toBe(200)
    const sse = sseReader(res)
    await sse.next()
    await h.call('POST', '/data/documents', { token: bob.token, body: { title: 'Bob’s' } })
    const { body: mine } = await h.call('POST', '/data/documents', { token: ada.token, body: { title: 'Ada’s' } })
    expect((await sse.next()).data.id).toBe(mine.id)
    await sse.close()
    // Spent: a second use is refused, on this replica or any other.
    const again = await open(`/realtime/stream?topics=data/documents&ticket=${ticket}`)
    expect(again.status).toBe(401)
    expect((await open('/realtime/stream?topics=data/documents&ticket=rt_made-up')).status).toBe(401)

    const late = await issue(ada.token)
    h.advanceClock(61_000)
    try {
      expect((await open(`/realtime/stream?topics=data/documents&ticket=${late.ticket}`)).status).toBe(401)
    } finally {
      h.advanceClock(-61_000)
    }

    const admin = await issue(owner.token, { 'x-ecosystem-id': org.ecosystem.id })
    const adminFeed = await open(`/site/feed/stream?ticket=${admin.ticket}`)
    expect(adminFeed.status).toBe(200)
    expect((await sseReader(adminFeed).next()).event).toBe('ping')
    const viaTicket = await issue(ada.token)
    expect((await h.app.handle(new Request(`http://localhost/realtime/tickets?ticket=${viaTicket.ticket}`, { method: 'POST' }))).status).toBe(401)
  })

  test('across replicas: a write on one replica reaches a subscriber on the other, and a stream moved to the other resumes by cursor', async () => {
    const replica = await h.replica()
    try {
      const ada = await customerOf(h, org, owner)
      const there = await stream(ada.token, 'userdata/notes', { app: replica.app })
      await there.sse.next()
      const { body: one } = await h.call('POST', '/userdata/notes', { token: ada.token, body: { title: 'written here' } })
      const got = await there.sse.next()
      expect(got.data.id).toBe(one.id)
      await there.sse.close()
      const { body: two } = await replica.call('POST', '/userdata/notes', { token: ada.token, body: { title: 'written there' } })
      const back = await stream(ada.token, 'userdata/notes', { headers: { 'last-event-id': got.id! } })
      await back.sse.next()
      expect((await back.sse.next()).data.id).toBe(two.id)
      expect(await back.sse.none(300)).toBe(true)
      await back.sse.close()
    } finally {
      await replica.close()
    }
  })

  test('a quiet stream gets a `: ping` comment within every 15 s, which EventSource ignores', async () => {
    const ada = await customerOf(h, org, owner)
    const res = await h.app.handle(new Request('http://localhost/realtime/stream?topics=userdata/notes', { headers: { authorization: `Bearer ${ada.token}` } }))
    const sse = sseReader(res, { comments: true })
    expect((await sse.next()).event).toBe('ready')
    const started = Date.now()
    expect(await sse.next(16_000)).toEqual({ event: 'comment', data: null, comment: 'ping' })
    expect(Date.now() - started).toBeGreaterThan(14_000)
    await sse.close()
  }, 30_000)
})
