import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness } from '../support/harness'
import { chatActor, type ChatActor, eventNames, newConversation, parseFrames, replyText, send } from './support'

let fake: FakeOpenAi
let h: Harness
let a: ChatActor
beforeAll(async () => {
  fake = startFakeOpenAi()
  h = await createHarness({ OPENAI_BASE_URL: fake.url, CHAT_TIMEOUT_SECONDS: '5' })
  a = await chatActor(h)
})
afterAll(async () => {
  await h.close()
  await fake.stop()
})

/** Starts a send on `app` and reads until the `open` event; the rest of the stream stays unread. */
async function openStream(app: { handle(r: Request): Promise<Response> }, conversationId: string, body: object, signal: AbortSignal) {
  const res = await app.handle(
    new Request(`http://localhost/chat/conversations/${conversationId}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.auth.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal,
    }),
  )
  const reader = res.body!.getReader()
  let text = ''
  while (!text.includes('\n\n')) {
    const { value, done } = await reader.read()
    if (done) throw new Error(`the stream ended before its first event: ${res.status} ${text}`)
    text += typeof value === 'string' ? value : new TextDecoder().decode(value)
  }
  return { status: res.status, open: parseFrames(text.slice(0, text.indexOf('\n\n') + 2))[0]! }
}

async function userMessages(conversationId: string): Promise<number> {
  const detail = await h.call('GET', `/chat/conversations/${conversationId}`, a.auth)
  return detail.body.messages.filter((m: any) => m.role === 'user').length
}

describe('clientMessageId makes a send idempotent', () => {
  test('the same id again stores no second message and answers the stored reply', async () => {
    const c = await newConversation(h, a, { model: 'fake-echo' })
    const first = await send(h, a, c.id, { message: 'once only', clientMessageId: 'msg-1' })
    const upstreamCalls = fake.requests.length
    const again = await send(h, a, c.id, { message: 'once only', clientMessageId: 'msg-1' })
    expect(again.status).toBe(200)
    expect(again.events[0]).toEqual(first.events[0]!)
    expect(eventNames(again.events)).toEqual(['open', 'token', 'done'])
    expect(replyText(again.events)).toBe(replyText(first.events))
    expect(fake.requests.length).toBe(upstreamCalls)
    expect(await userMessages(c.id)).toBe(1)
  })

  test('the same id with another text is refused', async () => {
    const c = await newConversation(h, a, { model: 'fake-echo' })
    await send(h, a, c.id, { message: 'original', clientMessageId: 'k' })
    const res = await send(h, a, c.id, { message: 'different', clientMessageId: 'k' })
    expect(res.status).toBe(409)
    expect(res.json.error.code).toBe('client_message_id_reused')
  })

  test('ids are per conversation', async () => {
    const one = await newConversation(h, a, { model: 'fake-echo' })
    const two = await newConversation(h, a, { model: 'fake-echo' })
    await send(h, a, one.id, { message: 'hi', clientMessageId: 'shared' })
    const other = await send(h, a, two.id, { message: 'hi', clientMessageId: 'shared' })
    expect(eventNames(other.events).at(-1)).toBe('done')
    expect(await userMessages(two.id)).toBe(1)
  })

  test('while the first is still streaming: 409 in_progress, on another replica too; afterwards the partial reply', async () => {
    const c = await newConversation(h, a, { model: 'slow' })
    const replica = await h.replica()
    const streaming = new AbortController()
    try {
      const first = await openStream(replica.app, c.id, { message: 'long one', clientMessageId: 'slow-1' }, streaming.signal)
      expect(first.status).toBe(200)
      for (const app of [h.app, replica.app]) {
        const res = await send({ ...h, app } as Harness, a, c.id, { message: 'long one', clientMessageId: 'slow-1' })
        expect(res.status).toBe(409)
        expect(res.json.error.code).toBe('in_progress')
      }
      // Any other send, edit or regenerate in the conversation waits too.
      expect((await send(h, a, c.id, { message: 'meanwhile' })).json.error.code).toBe('in_progress')
      expect((await h.call('POST', `/chat/conversations/${c.id}/regenerate`, a.auth)).status).toBe(409)
      streaming.abort()
      const open = first.open.data as { assistantMessageId: string }
      let again: Awaited<ReturnType<typeof send>> | undefined
      for (let i = 0; i < 100; i++) {
        again = await send(h, a, c.id, { message: 'long one', clientMessageId: 'slow-1' })
        if (again.status === 200) break
        await Bun.sleep(20)
      }
      expect(again!.status).toBe(200)
      expect(again!.events[0]!.data).toMatchObject({ assistantMessageId: open.assistantMessageId })
      expect(replyText(again!.events)).toMatch(/^(tick )*$/)
      const last = again!.events.at(-1)!
      expect(last.event).toBe('error')
      expect(last.data).toEqual({ message: 'The reply was cut short when the client disconnected; regenerate for a full reply' })
      expect(await userMessages(c.id)).toBe(1)
    } finally {
      streaming.abort()
      await replica.close()
    }
  })

  test('two sends with one id at the same moment: one streams, the other gets 409', async () => {
    const c = await newConversation(h, a, { model: 'slow' })
    const controllers = [new AbortController(), new AbortController()]
    const results = await Promise.allSettled(controllers.map((ctl) => openStream(h.app, c.id, { message: 'race', clientMessageId: 'race-1' }, ctl.signal)))
    for (const ctl of controllers) ctl.abort()
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.status === 200)).toHaveLength(1)
    expect(await userMessages(c.id)).toBe(1)
  })

  test('two sends without an id at the same moment: one streams, the other waits for its lock, sees it streaming and gets 409', async () => {
    // The second send's history is read after the conversation's lock is taken: a read as of before
    // it would miss the first turn, store a second message and stream a second reply.
    const c = await newConversation(h, a, { model: 'slow' })
    const controllers = [new AbortController(), new AbortController()]
    const results = await Promise.allSettled(controllers.map((ctl, i) => openStream(h.app, c.id, { message: `at once ${i}` }, ctl.signal)))
    for (const ctl of controllers) ctl.abort()
    expect(results.filter((r) => r.status === 'fulfilled' && r.value.status === 200)).toHaveLength(1)
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(String(refused.reason)).toContain('409')
    expect(String(refused.reason)).toContain('in_progress')
    expect(await userMessages(c.id)).toBe(1)
  })

  test('a streaming mark its replica stopped refreshing (it died) blocks no longer than 30 s', async () => {
    const c = await newConversation(h, a, { model: 'slow' })
    const replica = await h.replica()
    const streaming = new AbortController()
    try {
      await openStream(replica.app, c.id, { message: 'orphan', clientMessageId: 'orphan-1' }, streaming.signal)
      expect((await send(h, a, c.id, { message: 'next' })).json.error.code).toBe('in_progress')
      // Seen from a clock 31 s ahead, the replica's mark (kept fresh on its own clock) is stale.
      h.advanceClock(31_000)
      const next = await openStream(h.app, c.id, { message: 'next' }, streaming.signal)
      expect(next.status).toBe(200)
      expect(next.open.event).toBe('open')
    } finally {
      streaming.abort()
      await replica.close()
    }
  })

  test('a new streaming mark is on the server’s clock, by which it is judged: a database clock behind does not make it stale', async () => {
    // This app's clock now runs at least 40 s ahead of the database's (more after the test above).
    h.advanceClock(40_000)
    const c = await newConversation(h, a, { model: 'slow' })
    const streaming = new AbortController()
    try {
      expect((await openStream(h.app, c.id, { message: 'first' }, streaming.signal)).status).toBe(200)
      expect((await send(h, a, c.id, { message: 'second' })).json.error.code).toBe('in_progress')
    } finally {
      streaming.abort()
    }
  })
})
