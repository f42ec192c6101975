import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFakeOpenAi, type FakeOpenAi } from '../support/fake-openai'
import { createHarness, type Harness } from '../support/harness'
import { chatActor, type ChatActor, eventNames, newConversation, replyText, send } from './support'

let fake: FakeOpenAi
let h: Harness
let a: ChatActor
beforeAll(async () => {
  fake = startFakeOpenAi({ apiKey: 'sk-from-env' })
  h = await createHarness({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: 'sk-from-env', CHAT_TIMEOUT_SECONDS: '1' })
  a = await chatActor(h)
})
afterAll(async () => {
  await h.close()
  await fake.stop()
})

async function turn(model: string | undefined, message: string) {
  const c = await newConversation(h, a, model ? { model } : {})
  const before = fake.requests.length
  const result = await send(h, a, c.id, { message })
  const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
  return { ...result, conversation: c, upstream: fake.requests.slice(before), stored: detail.body.messages as any[] }
}

describe('chat against an OpenAI-compatible service (OPENAI_BASE_URL)', () => {
  test('conversations default to CHAT_MODEL’s default (gpt-4o-mini) and stream the service’s reply', async () => {
    const { conversation, events, upstream, stored } = await turn(undefined, 'Bonjour')
    expect(conversation.model).toBe('gpt-4o-mini')
    expect(eventNames(events)[0]).toBe('open')
    expect(eventNames(events).at(-1)).toBe('done')
    expect(replyText(events)).toBe('You said: Bonjour')
    expect(upstream).toHaveLength(1)
    expect(upstream[0]!.authorization).toBe('Bearer sk-from-env')
    expect(upstream[0]!.body).toMatchObject({ model: 'gpt-4o-mini', stream: true, messages: [{ role: 'user', content: 'Bonjour' }] })
    expect(upstream[0]!.body.tools.map((t: any) => t.function.name)).toEqual(['current_time', 'search'])
    expect(upstream[0]!.body.tools[1].function.parameters).toMatchObject({
      type: 'object',
      required: ['query'],
      properties: { query: { type: 'string', maxLength: 200 } },
    })
    expect(stored.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'Bonjour', 'complete'],
      ['assistant', 'You said: Bonjour', 'complete'],
    ])
  })

  test('a tool call split across chunks runs, and its result goes back upstream in a second request', async () => {
    const { events, upstream, stored } = await turn('fake-echo', 'current_time {"timezone":"UTC"}')
    expect(eventNames(events).filter((n) => n !== 'token')).toEqual(['open', 'tool_call_started', 'tool_call_completed', 'done'])
    expect(events[1]!.data).toEqual({ name: 'current_time', arguments: '{"timezone":"UTC"}' })
    expect(upstream).toHaveLength(2)
    const second = upstream[1]!.body.messages
    expect(second.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_fake_1', type: 'function', function: { name: 'current_time', arguments: '{"timezone":"UTC"}' } }],
      },
      { role: 'tool', tool_call_id: 'call_fake_1', content: expect.stringContaining('"timezone":"UTC"') },
    ])
    expect(replyText(events)).toStartWith('Tool said: {"now":')
    expect(stored.map((m) => m.role)).toEqual(['user', 'tool', 'assistant'])
  })

  test('the next turn sends the stored history, tool calls included', async () => {
    const c = await newConversation(h, a, { model: 'fake-echo' })
    await send(h, a, c.id, { message: 'current_time {}' })
    const before = fake.requests.length
    await send(h, a, c.id, { message: 'thanks' })
    const sent = fake.requests[before]!.body.messages
    expect(sent.map((m: any) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'user'])
    expect(sent[1].tool_calls[0].function.name).toBe('current_time')
    expect(sent[4].content).toBe('thanks')
  })

  const failures = [
    ['a connection that breaks mid-stream', 'drop', 'Half a rep', /^The model service (cannot be reached|failed)/],
    ['an error object mid-stream', 'error', 'Half a rep', /The upstream is overloaded/],
    ['a malformed chunk', 'malformed', 'Half', /^The model service sent a malformed chunk$/],
    ['a stream cut short without finish_reason', 'cut', 'Half a rep', /^The model service ended the reply before finishing$/],
    ['a stall (CHAT_TIMEOUT_SECONDS=1)', 'stall', '', /^The model service sent nothing for 1 s$/],
    ['an unknown model (404 before streaming)', 'missing', '', /^The model service answered 404: The model `missing` does not exist$/],
  ] as const
  for (const [what, model, partial, message] of failures) {
    test(`${what}: 200 with the text so far then an error event; the reply is stored as failed`, async () => {
      const { status, events, stored } = await turn(model, 'hello')
      expect(status).toBe(200)
      expect(eventNames(events)[0]).toBe('open')
      expect(eventNames(events).at(-1)).toBe('error')
      expect(eventNames(events)).not.toContain('done')
      expect(replyText(events)).toBe(partial)
      const error = events.at(-1)!
      if (error.event !== 'error') throw new Error('unreachable')
      expect(error.data.message).toMatch(message)
      expect(error.data.message).not.toContain('sk-from-env')
      expect(stored.map((m) => [m.role, m.status, m.content])).toEqual([
        ['user', 'complete', 'hello'],
        ['assistant', 'failed', partial],
      ])
    })
  }

  test('after all those failures the server still answers', async () => {
    const { events } = await turn('fake-echo', 'still there?')
    expect(replyText(events)).toBe('You said: still there?')
  })

  test('a failed reply is left out of the next request’s history; its user message is kept', async () => {
    const c = await newConversation(h, a, { model: 'missing' })
    await send(h, a, c.id, { message: 'first' })
    const before = fake.requests.length
    await send(h, a, c.id, { message: 'second' })
    expect(fake.requests[before]!.body.messages).toEqual([
      { role: 'user', content: 'first' },
      { role: 'user', content: 'second' },
    ])
  })
})
