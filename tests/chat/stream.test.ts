import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { chatActor, type ChatActor, eventNames, newConversation, parseFrames, post, replyText, send } from './support'

let h: Harness
let a: ChatActor
beforeAll(async () => {
  h = await createHarness()
  a = await chatActor(h)
})
afterAll(() => h.close())

describe('a chat turn on the built-in dev model (nothing configured)', () => {
  test('the raw bytes: exact event:/data: framing, open first, done last', async () => {
    const c = await newConversation(h, a)
    const res = await post(h, `/chat/conversations/${c.id}/messages`, a.auth.token, { message: 'Hi there' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toStartWith('text/event-stream')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(res.headers.get('x-accel-buffering')).toBe('no')
    const bytes = new Uint8Array(await res.arrayBuffer())
    const body = new TextDecoder().decode(bytes)
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    const [user, assistant] = detail.body.messages
    const expected =
      `event: open\ndata: {"conversationId":"${c.id}","userMessageId":"${user.id}","assistantMessageId":"${assistant.id}"}\n\n` +
      ['This ', 'is ', 'the ', 'development ', 'model ', '(no ', 'AI ', 'configured). ', 'You ', 'said: ', 'Hi ', 'there']
        .map((text) => `event: token\ndata: {"text":"${text}"}\n\n`)
        .join('') +
      'event: done\ndata: {}\n\n'
    expect(body).toBe(expected)
    expect(assistant.content).toBe('This is the development model (no AI configured). You said: Hi there')
    expect(assistant.status).toBe('complete')
  })

  test('done comes once the reply is stored: the id open announced can be fetched, complete, as soon as done arrives', async () => {
    for (let i = 0; i < 5; i++) {
      const c = await newConversation(h, a)
      const res = await post(h, `/chat/conversations/${c.id}/messages`, a.auth.token, { message: `turn ${i}` })
      const reader = res.body!.getReader()
      let text = ''
      while (!/event: done\ndata: [^\n]*\n\n/.test(text)) {
        const { value, done } = await reader.read()
        if (done) throw new Error(`the stream ended without done: ${text}`)
        text += typeof value === 'string' ? value : new TextDecoder().decode(value)
      }
      // Fetched before reading on: nothing is waited for beyond the done event itself.
      const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
      await reader.cancel()
      const events = parseFrames(text)
      const open = events[0]!
      const done = events.at(-1)!
      if (open.event !== 'open' || done.event !== 'done') throw new Error(`unexpected events: ${eventNames(events)}`)
      expect(done.data).toEqual({})
      const stored = detail.body.messages.find((m: any) => m.id === open.data.assistantMessageId)
      expect(stored).toMatchObject({ id: open.data.assistantMessageId, role: 'assistant', status: 'complete', content: replyText(events) })
    }
  })

  test('text with quotes and newlines stays one data line per event, JSON-escaped', async () => {
    const c = await newConversation(h, a)
    const res = await post(h, `/chat/conversations/${c.id}/messages`, a.auth.token, { message: 'line one\nline "two"\r\n\nthree' })
    const body = await res.text()
    for (const frame of body.split('\n\n').filter(Boolean)) expect(frame).toMatch(/^event: [a-z_]+\ndata: [^\n]*$/)
    expect(body).toContain('event: token\ndata: {"text":"one\\n"}')
    expect(body).toContain('data: {"text":"\\"two\\"\\r\\n\\n"}')
  })

  test('a tool call: started and completed around it, the result fed back, all stored', async () => {
    const c = await newConversation(h, a)
    const { events } = await send(h, a, c.id, { message: 'What time is it? current_time {"timezone":"Asia/Tokyo"}' })
    expect(eventNames(events).filter((n) => n !== 'token')).toEqual(['open', 'tool_call_started', 'tool_call_completed', 'done'])
    const { assistantMessageId } = events[0]!.data as { assistantMessageId: string }
    const started = events.find((e) => e.event === 'tool_call_started')!
    expect(started.data).toEqual({ name: 'current_time', arguments: '{"timezone":"Asia/Tokyo"}' })
    const completed = events.find((e) => e.event === 'tool_call_completed')!
    if (completed.event !== 'tool_call_completed') throw new Error('unreachable')
    expect(completed.data.ok).toBe(true)
    const result = JSON.parse(completed.data.result)
    expect(result).toMatchObject({ timezone: 'Asia/Tokyo', now: expect.any(String), local: expect.stringContaining('GMT+9') })
    expect(replyText(events)).toBe(`The tool answered: ${completed.data.result}`)
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(detail.body.messages.map((m: any) => [m.role, m.toolName])).toEqual([
      ['user', null],
      ['tool', 'current_time'],
      ['assistant', null],
    ])
    expect(detail.body.messages[1].content).toBe(completed.data.result)
    expect(detail.body.messages[2]).toMatchObject({ id: assistantMessageId, status: 'complete' })
  })

  test('tool arguments are validated against the tool schema before it runs', async () => {
    const c = await newConversation(h, a)
    for (const [args, expected] of [
      ['{"timezone":42}', /^Invalid arguments: \/timezone/],
      ['{"timezone":""}', /^Invalid arguments: \/timezone/],
      ['{"timezone":"Mars/Olympus"}', /Unknown time zone "Mars\/Olympus"/],
    ] as const) {
      const { events } = await send(h, a, c.id, { message: `current_time ${args}` })
      const completed = events.find((e) => e.event === 'tool_call_completed')
      expect(completed?.data).toMatchObject({ name: 'current_time', ok: false })
      expect(JSON.parse((completed!.data as { result: string }).result).error).toMatch(expected)
      expect(events.at(-1)!.event).toBe('done')
    }
  })

  test('refusals before the stream starts are ordinary JSON errors', async () => {
    const c = await newConversation(h, a)
    const other = await chatActor(h, a)
    const cases = [
      { token: a.auth.token, path: `/chat/conversations/${crypto.randomUUID()}/messages`, status: 404, code: 'not_found' },
      { token: other.auth.token, path: `/chat/conversations/${c.id}/messages`, status: 404, code: 'not_found' },
      { token: 'not-a-token', path: `/chat/conversations/${c.id}/messages`, status: 401, code: 'unauthorized' },
    ]
    for (const { token, path, status, code } of cases) {
      const res = await post(h, path, token, { message: 'hi' })
      expect(res.status).toBe(status)
      expect(res.headers.get('content-type')).toStartWith('application/json')
      expect((await res.json()).error.code).toBe(code)
    }
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(detail.body.messages).toEqual([])
  })
})

describe('regenerate and edit', () => {
  test('regenerate replaces the last reply with a new one for the same user message', async () => {
    const c = await newConversation(h, a)
    const first = await send(h, a, c.id, { message: 'first' })
    const open1 = first.events[0]!.data as { userMessageId: string; assistantMessageId: string }
    const res = await post(h, `/chat/conversations/${c.id}/regenerate`, a.auth.token)
    const events = parseFrames(await res.text())
    expect(res.status).toBe(200)
    const open2 = events[0]!.data as { userMessageId: string; assistantMessageId: string }
    expect(open2.userMessageId).toBe(open1.userMessageId)
    expect(open2.assistantMessageId).not.toBe(open1.assistantMessageId)
    expect(first.events.at(-1)).toEqual({ event: 'done', data: {} })
    expect(events.at(-1)).toEqual({ event: 'done', data: {} })
    const detail = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(detail.body.messages.map((m: any) => m.id)).toEqual([open1.userMessageId, open2.assistantMessageId])
    expect(detail.body.messages[1]).toMatchObject({ role: 'assistant', status: 'complete', content: replyText(events) })
  })

  test('editing a user message drops what followed; regenerate then answers the new text', async () => {
    const c = await newConversation(h, a)
    const first = await send(h, a, c.id, { message: 'my name is Ana' })
    await send(h, a, c.id, { message: 'what is my name? current_time' })
    const userId = (first.events[0]!.data as { userMessageId: string }).userMessageId
    const edited = await h.call('PATCH', `/chat/conversations/${c.id}/messages/${userId}`, { ...a.auth, body: { content: 'my name is Bea' } })
    expect(edited.status).toBe(200)
    expect(edited.body).toMatchObject({ id: userId, role: 'user', content: 'my name is Bea', toolName: null })
    const afterEdit = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(afterEdit.body.messages.map((m: any) => m.content)).toEqual(['my name is Bea'])
    const res = await post(h, `/chat/conversations/${c.id}/regenerate`, a.auth.token)
    expect(await res.text()).toContain('"text":"Bea"')
    const final = await h.call('GET', `/chat/conversations/${c.id}`, a.auth)
    expect(final.body.messages.map((m: any) => m.role)).toEqual(['user', 'assistant'])
  })

  test('only user messages can be edited; unknown ids are 404; nothing to regenerate is 409', async () => {
    const c = await newConversation(h, a)
    const regen = await h.call('POST', `/chat/conversations/${c.id}/regenerate`, a.auth)
    expect(regen.status).toBe(409)
    expect(regen.body.error.code).toBe('nothing_to_regenerate')
    const { events } = await send(h, a, c.id, { message: 'hi' })
    const { assistantMessageId } = events[0]!.data as { assistantMessageId: string }
    const edit = await h.call('PATCH', `/chat/conversations/${c.id}/messages/${assistantMessageId}`, { ...a.auth, body: { content: 'x' } })
    expect(edit.status).toBe(409)
    expect(edit.body.error.code).toBe('not_editable')
    const unknown = await h.call('PATCH', `/chat/conversations/${c.id}/messages/${crypto.randomUUID()}`, { ...a.auth, body: { content: 'x' } })
    expect(unknown.status).toBe(404)
    const empty = await h.call('PATCH', `/chat/conversations/${c.id}/messages/${assistantMessageId}`, { ...a.auth, body: { content: '' } })
    expect(empty.status).toBe(400)
  })
})
