import { afterAll, describe, expect, test } from 'bun:test'
import { type LlmEvent, type LlmRequest, LlmError } from '../../src/providers/llm'
import { OpenAiChatModel } from '../../src/providers/llm/openai'
import { startFakeOpenAi } from '../support/fake-openai'

const fake = startFakeOpenAi({ apiKey: 'sk-right' })
afterAll(() => fake.stop())
const model = new OpenAiChatModel({ baseUrl: fake.url, apiKey: 'sk-right', idleTimeoutMs: 300 })

async function run(request: Partial<LlmRequest> & { model: string }, using = model) {
  const events: LlmEvent[] = []
  let error: LlmError | undefined
  try {
    for await (const e of using.stream({ messages: [{ role: 'user', content: 'hi' }], ...request })) events.push(e)
  } catch (err) {
    error = err as LlmError
  }
  const text = events.map((e) => (e.type === 'text' ? e.text : '')).join('')
  return { events, text, error }
}

describe('OpenAI adapter: what goes upstream', () => {
  test('the request is a streamed chat completion in OpenAI form, with the bearer key', async () => {
    const before = fake.requests.length
    await run({
      model: 'fake-echo',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'time? current_time' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'call_9', name: 'current_time', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'call_9', content: '{"now":"x"}' },
      ],
      tools: [{ name: 'current_time', description: 'Now', parameters: { type: 'object', properties: {} } }],
    })
    const sent = fake.requests.slice(before)
    expect(sent).toHaveLength(1)
    expect(sent[0]!.path).toBe('/v1/chat/completions')
    expect(sent[0]!.authorization).toBe('Bearer sk-right')
    expect(sent[0]!.body).toMatchObject({
      model: 'fake-echo',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'time? current_time' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'current_time', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'call_9', content: '{"now":"x"}' },
      ],
      tools: [{ type: 'function', function: { name: 'current_time', description: 'Now', parameters: { type: 'object', properties: {} } } }],
    })
  })

  test('no tools offered: the request carries no tools field', async () => {
    const before = fake.requests.length
    await run({ model: 'fake-echo' })
    expect(fake.requests[before]!.body.tools).toBeUndefined()
  })
})

/** A chunk of a reply as OpenAI frames it, with its blank line. */
const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`

/** A model whose service answers every request with `reads`, each handed over as one read. */
function replying(reads: Uint8Array[]): OpenAiChatModel {
  return new OpenAiChatModel({
    baseUrl: 'http://127.0.0.1:9/v1',
    apiKey: null,
    idleTimeoutMs: 5000,
    fetch: async () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            const next = reads.shift()
            if (next) controller.enqueue(next)
            else controller.close()
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
  })
}

describe('OpenAI adapter: streamed chunks', () => {
  test('tool-call deltas split across chunks are assembled into one call', async () => {
    const args = '{"timezone":"America/Argentina/Buenos_Aires","format":"long"}'
    const { events } = await run({
      model: 'fake-echo',
      messages: [{ role: 'user', content: `current_time ${args}` }],
      tools: [{ name: 'current_time', description: 'Now', parameters: { type: 'object' } }],
    })
    expect(events).toEqual([
      { type: 'tool_call', call: { id: 'call_fake_1', name: 'current_time', arguments: args } },
      // The usage chunk the service sends last (asked for with stream_options): 1 message in, 5 chunks out.
      { type: 'finish', reason: 'tool_calls', usage: { inputTokens: 1, outputTokens: 5 } },
    ])
  })

  test('a reply whose events all come in one read is taken apart in linear work: each byte is copied a few times, not once per event', async () => {
    // openai 6.x copied the rest of a read for every event it took out: 2,000 events in one read
    // made 1,000 copies of it (95 % of a relaying server's CPU, bench/README.md, P4 session 64).
    const wire = new TextEncoder().encode(`${Array.from({ length: 2000 }, () => chunk({ content: 'tok ' })).join('')}${chunk({}, 'stop')}data: [DONE]\n\n`)
    let copied = 0
    const { slice, set } = Uint8Array.prototype
    Uint8Array.prototype.slice = function (this: Uint8Array, start?: number, end?: number) {
      const part = slice.call(this, start, end)
      copied += part.length
      return part
    }
    Uint8Array.prototype.set = function (this: Uint8Array, source: ArrayLike<number>, offset?: number) {
      copied += source.length
      set.call(this, source, offset)
    }
    let result: Awaited<ReturnType<typeof run>>
    try {
      result = await run({ model: 'm' }, replying([wire]))
    } finally {
      Uint8Array.prototype.slice = slice
      Uint8Array.prototype.set = set
    }
    expect(result.error).toBeUndefined()
    expect(result.events.filter((e) => e.type === 'text')).toHaveLength(2000)
    // The bytes are decoded once into text (sse.ts); 7.59's own reading copied them three times.
    expect(copied).toBeLessThanOrEqual(4 * wire.length)
  })

  test('a reply cut anywhere between reads, with CRLF line ends and characters of several bytes, reads as one', async () => {
    const text = 'héllo ✓ 🙂 done'
    const wire = new TextEncoder().encode(
      `${[...text].map((c) => chunk({ content: c }).replaceAll('\n', '\r\n')).join('')}: a comment\r\n\r\n${chunk({}, 'stop')}data: [DONE]\r\n\r\n`,
    )
    const oneByteEach = Array.from(wire, (byte) => Uint8Array.of(byte))
    const { text: read, events, error } = await run({ model: 'm' }, replying(oneByteEach))
    expect(error).toBeUndefined()
    expect(read).toBe(text)
    expect(events.at(-1)).toEqual({ type: 'finish', reason: 'stop', usage: undefined })
  })

  test('an `error` event, or an error object in place of a chunk, is an upstream error carrying its message; nothing after [DONE] is read', async () => {
    const failed = await run(
      { model: 'm' },
      replying([new TextEncoder().encode(`${chunk({ content: 'Hal' })}event: error\ndata: {"error":{"message":"Overloaded, key sk-abcdef123"}}\n\n`)]),
    )
    expect(failed.text).toBe('Hal')
    expect(failed.error?.kind).toBe('upstream')
    expect(failed.error?.message).toBe('The model service failed: Overloaded, key [redacted]')
    // Some services send the error object as a plain event, in place of a chunk.
    const plain = await run({ model: 'm' }, replying([new TextEncoder().encode(`${chunk({ content: 'Hal' })}data: {"error":{"message":"Rate limited"}}\n\n`)]))
    expect(plain.text).toBe('Hal')
    expect(plain.error?.kind).toBe('upstream')
    expect(plain.error?.message).toBe('The model service failed: Rate limited')
    const after = await run({ model: 'm' }, replying([new TextEncoder().encode(`${chunk({ content: 'ok' }, 'stop')}data: [DONE]\n\ndata: not json\n\n`)]))
    expect(after.error).toBeUndefined()
    expect(after.text).toBe('ok')
  })

  test('a connection that breaks mid-stream: the text so far, then an upstream error', async () => {
    const { text, error } = await run({ model: 'drop' })
    expect(text).toBe('Half a rep')
    expect(error).toBeInstanceOf(LlmError)
    expect(error!.kind).toBe('upstream')
  })

  test('a stream that ends without a finish_reason is an upstream error, not a complete reply', async () => {
    const { text, error } = await run({ model: 'cut' })
    expect(text).toBe('Half a rep')
    expect(error?.kind).toBe('upstream')
    expect(error?.message).toBe('The model service ended the reply before finishing')
  })

  test('an error object in the stream becomes an upstream error carrying its message', async () => {
    const { text, error } = await run({ model: 'error' })
    expect(text).toBe('Half a rep')
    expect(error?.kind).toBe('upstream')
    expect(error?.message).toContain('The upstream is overloaded')
  })

  test('a chunk that is not JSON is a malformed error', async () => {
    const { text, error } = await run({ model: 'malformed' })
    expect(text).toBe('Half')
    expect(error?.kind).toBe('malformed')
  })

  test('a stall times out after the idle time and aborts the upstream request', async () => {
    const aborted = fake.aborted
    const started = performance.now()
    const { error } = await run({ model: 'stall' })
    expect(error?.kind).toBe('timeout')
    expect(error?.message).toBe('The model service sent nothing for 0.3 s')
    expect(performance.now() - started).toBeGreaterThanOrEqual(290)
    await fake.waitForAborts(aborted + 1)
  })

  test('a slow stream that keeps sending is not timed out', async () => {
    const slow = new OpenAiChatModel({ baseUrl: fake.url, apiKey: 'sk-right', idleTimeoutMs: 200 })
    const events: LlmEvent[] = []
    for await (const e of slow.stream({ model: 'slow', messages: [{ role: 'user', content: 'x' }] })) {
      events.push(e)
      if (events.length === 15) break
    }
    // 15 pieces 20 ms apart took longer than the 200 ms idle timeout without failing.
    expect(events).toHaveLength(15)
  })

  test('aborting mid-stream stops the upstream request', async () => {
    const aborted = fake.aborted
    const controller = new AbortController()
    const { events, error } = await (async () => {
      const events: LlmEvent[] = []
      try {
        for await (const e of model.stream({ model: 'slow', messages: [{ role: 'user', content: 'x' }], signal: controller.signal })) {
          events.push(e)
          if (events.length === 3) controller.abort()
        }
      } catch (err) {
        return { events, error: err as LlmError }
      }
      return { events, error: undefined }
    })()
    expect(events).toHaveLength(3)
    expect(error?.kind).toBe('aborted')
    await fake.waitForAborts(aborted + 1)
  })
})

describe('OpenAI adapter: refused requests', () => {
  test('an unknown model: upstream error with the status and the service message', async () => {
    const { error } = await run({ model: 'missing' })
    expect(error?.kind).toBe('upstream')
    expect(error?.message).toBe('The model service answered 404: The model `missing` does not exist')
  })

  test('a wrong API key: 401 from the service, for streams and model lists, and the key is never in the message', async () => {
    const wrong = new OpenAiChatModel({ baseUrl: fake.url, apiKey: 'sk-wrong-secret', idleTimeoutMs: 1000 })
    const { error } = await run({ model: 'fake-echo' }, wrong)
    expect(error?.message).toStartWith('The model service answered 401')
    expect(error?.message).not.toContain('sk-wron')
    expect(error?.message).not.toContain('cret')
    const listed = await wrong.listModels().catch((e) => e)
    expect(listed).toBeInstanceOf(LlmError)
    expect(listed.message).toStartWith('The model service answered 401')
    expect(listed.message).not.toContain('sk-wron')
  })

  test('an unreachable service: upstream error', async () => {
    const nowhere = new OpenAiChatModel({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, idleTimeoutMs: 1000 })
    const { error } = await run({ model: 'fake-echo' }, nowhere)
    expect(error?.kind).toBe('upstream')
    expect(error?.message).toBe('The model service cannot be reached')
  })

  test('listModels returns the descriptors the service reports', async () => {
    expect(await model.listModels()).toEqual([
      { id: 'fake-echo', object: 'model', created: 1700000000, owned_by: 'fake' },
      { id: 'fake-large', object: 'model', created: 1700000000, owned_by: 'fake' },
    ])
  })
})
