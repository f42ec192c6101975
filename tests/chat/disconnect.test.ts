import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness } from '../support/harness'
import { chatActor, type ChatActor, newConversation } from './support'

let fake: FakeOpenAi
let h: Harness
let a: ChatActor
let server: ReturnType<typeof Bun.serve>
beforeAll(async () => {
  fake = startFakeOpenAi()
  h = await createHarness({ OPENAI_BASE_URL: fake.url, CHAT_TIMEOUT_SECONDS: '5' })
  a = await chatActor(h)
  // A real socket between client and server, so that closing it is what the server sees.
  server = Bun.serve({ hostname: '127.0.0.1', port: 0, idleTimeout: 0, fetch: (req) => h.app.handle(req) })
})
afterAll(async () => {
  await server.stop(true)
  await h.close()
  await fake.stop()
})

/** Reads SSE text from a live response until `enough` says so. */
async function readUntil(res: Response, enough: (text: string) => boolean): Promise<string> {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  while (!enough(text)) {
    const { value, done } = await reader.read()
    if (done) break
    // In-process, Elysia's stream hands out the strings it enqueued; over a socket, bytes.
    text += typeof value === 'string' ? value : decoder.decode(value, { stream: true })
  }
  return text
}

async function storedReply(conversationId: string, assistantId: string, ms = 5000) {
  const until = Date.now() + ms
  for (;;) {
    const detail = await h.call('GET', `/chat/conversations/${conversationId}`, a.auth)
    const reply = detail.body.messages.find((m: any) => m.id === assistantId)
    if (reply) return reply
    if (Date.now() > until) throw new Error('the partial reply was never stored')
    await Bun.sleep(20)
  }
}

describe('a client that disconnects mid-stream', () => {
  test('stops the upstream request; the text so far is stored, marked partial', async () => {
    const c = await newConversation(h, a, { model: 'slow' })
    const abortsBefore = fake.aborted
    const client = new AbortController()
    const res = await fetch(`http://127.0.0.1:${server.port}/chat/conversations/${c.id}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.auth.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'count for me' }),
      signal: client.signal,
    })
    expect(res.status).toBe(200)
    const seen = await readUntil(res, (text) => (text.match(/event: token/g) ?? []).length >= 5)
    client.abort()

    // The fake service sees its stream abandoned long before its 200 pieces (4 s) are sent.
    await fake.waitForAborts(abortsBefore + 1, 2000)
    const open = JSON.parse(/event: open\ndata: (.*)\n/.exec(seen)![1]!)
    const reply = await storedReply(c.id, open.assistantMessageId)
    expect(reply.status).toBe('partial')
    expect(reply.role).toBe('assistant')
    const received = (seen.match(/"text":"tick "/g) ?? []).length
    const stored = reply.content.split('tick ').length - 1
    expect(reply.content).toBe('tick '.repeat(stored))
    expect(stored).toBeGreaterThanOrEqual(received)
    expect(stored).toBeLessThan(100)

    // The conversation is free again.
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(detail.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant'])
    const next = await h.call('PATCH', `/chat/conversations/${c.id}`, { ...a.auth, body: { title: 'after' } })
    expect(next.status).toBe(200)
  })

  test('in-process too: aborting the request signal aborts upstream and keeps the partial reply', async () => {
    const c = await newConversation(h, a, { model: 'slow' })
    const abortsBefore = fake.aborted
    const client = new AbortController()
    const res = await h.app.handle(
      new Request(`http://localhost/chat/conversations/${c.id}/messages`, {
        method: 'POST',
        headers: { authorization: `Bearer ${a.auth.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ message: 'go' }),
        signal: client.signal,
      }),
    )
    const seen = await readUntil(res, (text) => text.includes('"text":"tick "'))
    client.abort()
    await fake.waitForAborts(abortsBefore + 1, 2000)
    const open = JSON.parse(/event: open\ndata: (.*)\n/.exec(seen)![1]!)
    const reply = await storedReply(c.id, open.assistantMessageId)
    expect(reply.status).toBe('partial')
    expect(reply.content).toStartWith('tick ')
  })
})
