import { describe, expect, test } from 'bun:test'
import { type ChatEvent, EcobaseError } from '../../client/index'
import { chatSuite, newConversation } from '../chat/support'
import { connect } from './connect'

const s = chatSuite()

const customerClient = () => connect(s.h, { tokens: { token: s.a.customer.token } }).client

describe('typed client: chat.send', () => {
  test('yields typed events, discriminated by name', async () => {
    const client = customerClient()
    const { data: conversation } = await client.api.chat.conversations.post({ model: 'fake-echo' })
    const events: ChatEvent[] = []
    let text = ''
    for await (const ev of client.chat.send(conversation!.id, { message: 'current_time {"timezone":"UTC"} please' })) {
      events.push(ev)
      // Narrowing by `event` types `data`: these lines would not compile otherwise.
      if (ev.event === 'token') text += ev.data.text
      if (ev.event === 'tool_call_completed') expect(typeof ev.data.ok).toBe('boolean')
      if (ev.event === 'open') expect(ev.data.conversationId).toBe(conversation!.id)
    }
    expect(events.map((e) => e.event).filter((n) => n !== 'token')).toEqual(['open', 'tool_call_started', 'tool_call_completed', 'done'])
    expect(text).toStartWith('Tool said: {"now":')
  })

  test('search finds what was said, typed', async () => {
    const client = customerClient()
    const c = await newConversation(s.h, s.a, { model: 'fake-echo', title: 'Birds' })
    for await (const _ of client.chat.send(c.id, { message: 'the kingfisher nests by the river' })) void _
    const { data, error } = await client.api.search.chat.messages.get({ query: { q: 'kingfish', pageSize: 5 } })
    expect(error).toBeNull()
    // Typed fields: these lines would not compile otherwise.
    const titles: string[] = data!.items.map((i) => i.conversationTitle)
    const roles: ('user' | 'assistant')[] = data!.items.map((i) => i.role)
    expect(titles).toContain('Birds')
    expect(roles).toContain('user')
    expect(data!.pageSize).toBe(5)
  })

  test('regenerate streams a new reply', async () => {
    const client = customerClient()
    const c = await newConversation(s.h, s.a, { model: 'fake-echo' })
    for await (const _ of client.chat.send(c.id, { message: 'hello' })) void _
    const names: string[] = []
    for await (const ev of client.chat.regenerate(c.id)) names.push(ev.event)
    expect(names[0]).toBe('open')
    expect(names.at(-1)).toBe('done')
  })

  test('done carries the id and status of the stored reply, which can be read at once', async () => {
    const client = customerClient()
    const c = await newConversation(s.h, s.a, { model: 'fake-echo' })
    for (const turn of [() => client.chat.send(c.id, { message: 'remember this' }), () => client.chat.regenerate(c.id)]) {
      let announced = ''
      let done: { messageId: string; status: 'complete' } | undefined
      let text = ''
      for await (const ev of turn()) {
        if (ev.event === 'open') announced = ev.data.assistantMessageId
        if (ev.event === 'token') text += ev.data.text
        if (ev.event === 'done') done = ev.data
      }
      expect(done).toEqual({ messageId: announced, status: 'complete' })
      const { data } = await client.api.chat.conversations({ id: c.id }).get()
      expect(data!.messages.at(-1)).toMatchObject({ id: done!.messageId, role: 'assistant', content: text })
    }
  })

  test('a refusal before the stream throws the one error class, EcobaseError, with the status and code', async () => {
    const client = customerClient()
    const error = await (async () => {
      for await (const _ of client.chat.send(crypto.randomUUID(), { message: 'hi' })) void _
    })().catch((e) => e)
    expect(error).toBeInstanceOf(EcobaseError)
    expect(error).toBeInstanceOf(Error)
    expect(error.toJSON()).toEqual({ status: 404, code: 'not_found', message: 'No such conversation' })
  })

  test('abort ends the iteration quietly; the server stops the model and keeps the partial reply', async () => {
    const client = customerClient()
    const c = await newConversation(s.h, s.a, { model: 'slow' })
    const abortsBefore = s.fake.aborted
    const controller = new AbortController()
    let tokens = 0
    let assistantId = ''
    for await (const ev of client.chat.send(c.id, { message: 'go' }, { signal: controller.signal })) {
      if (ev.event === 'open') assistantId = ev.data.assistantMessageId
      if (ev.event === 'token' && ++tokens === 3) controller.abort()
    }
    expect(tokens).toBe(3)
    await s.fake.waitForAborts(abortsBefore + 1, 2000)
    let reply: unknown
    for (let i = 0; i < 100 && !reply; i++) {
      const detail = await client.api.chat.conversations({ id: c.id }).get()
      reply = detail.data?.messages.find((m) => m.id === assistantId)
      if (!reply) await Bun.sleep(20)
    }
    expect(reply).toMatchObject({ role: 'assistant', status: 'partial' })
  })
})
