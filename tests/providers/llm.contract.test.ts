import { afterAll, describe, expect, test } from 'bun:test'
import { type ChatModel, type LlmEvent, type LlmRequest, LlmError } from '../../src/providers/llm'
import { DevChatModel } from '../../src/providers/llm/dev'
import { OpenAiChatModel } from '../../src/providers/llm/openai'
import { startFakeOpenAi } from '../support/fake-openai'

/** One contract for every ChatModel adapter: what the chat area relies on. */
interface Subject {
  name: string
  model: ChatModel
  /** A model name the adapter answers with its ordinary behaviour. */
  modelName: string
}

const fake = startFakeOpenAi()
afterAll(() => fake.stop())

const subjects: Subject[] = [
  { name: 'built-in dev model', model: new DevChatModel(), modelName: 'dev' },
  {
    name: 'OpenAI SDK adapter against a local OpenAI-compatible server',
    model: new OpenAiChatModel({ baseUrl: fake.url, apiKey: 'sk-test', idleTimeoutMs: 2000 }),
    modelName: 'fake-echo',
  },
]

const clock = {
  name: 'current_time',
  description: 'The current time',
  parameters: { type: 'object', properties: { timezone: { type: 'string' } } },
}

async function collect(model: ChatModel, request: LlmRequest): Promise<LlmEvent[]> {
  const events: LlmEvent[] = []
  for await (const event of model.stream(request)) events.push(event)
  return events
}

const text = (events: LlmEvent[]) => events.map((e) => (e.type === 'text' ? e.text : '')).join('')

for (const s of subjects) {
  describe(`LLM contract: ${s.name}`, () => {
    test('streams the reply in several text pieces, then exactly one finish (stop; with the usage where the service reports it)', async () => {
      const events = await collect(s.model, { model: s.modelName, messages: [{ role: 'user', content: 'hello there, model' }] })
      expect(events.filter((e) => e.type === 'text').length).toBeGreaterThan(1)
      expect(text(events)).toContain('hello there, model')
      expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' })
      expect(events.filter((e) => e.type === 'finish')).toHaveLength(1)
    })

    test('calls an offered tool that the message asks for, with complete JSON arguments', async () => {
      const events = await collect(s.model, {
        model: s.modelName,
        messages: [{ role: 'user', content: 'please call current_time {"timezone":"Europe/Paris"}' }],
        tools: [clock],
      })
      const calls = events.flatMap((e) => (e.type === 'tool_call' ? [e.call] : []))
      expect(calls).toHaveLength(1)
      expect(calls[0]!.name).toBe('current_time')
      expect(calls[0]!.id).toBeString()
      expect(JSON.parse(calls[0]!.arguments)).toEqual({ timezone: 'Europe/Paris' })
      expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'tool_calls' })
    })

    test('answers from the tool result it is given back', async () => {
      const call = { id: 'call_1', name: 'current_time', arguments: '{}' }
      const events = await collect(s.model, {
        model: s.modelName,
        messages: [
          { role: 'user', content: 'what time is it? current_time' },
          { role: 'assistant', content: '', toolCalls: [call] },
          { role: 'tool', toolCallId: 'call_1', content: '{"now":"2030-01-01T00:00:00.000Z"}' },
        ],
        tools: [clock],
      })
      expect(text(events)).toContain('2030-01-01T00:00:00.000Z')
      expect(events.some((e) => e.type === 'tool_call')).toBe(false)
    })

    test('lists its models as descriptors with a string id', async () => {
      const models = await s.model.listModels()
      expect(models.length).toBeGreaterThan(0)
      for (const m of models) expect(m.id).toBeString()
    })

    test('an abort mid-stream rejects with LlmError "aborted"', async () => {
      const controller = new AbortController()
      const seen: LlmEvent[] = []
      let error: unknown
      try {
        for await (const event of s.model.stream({ model: s.modelName, messages: [{ role: 'user', content: 'a b c d e f g h' }], signal: controller.signal })) {
          seen.push(event)
          controller.abort()
        }
      } catch (err) {
        error = err
      }
      expect(seen).toHaveLength(1)
      expect(error).toBeInstanceOf(LlmError)
      expect((error as LlmError).kind).toBe('aborted')
    })

    test('an already aborted signal rejects before anything is streamed', async () => {
      const signal = AbortSignal.abort()
      const error = await collect(s.model, { model: s.modelName, messages: [{ role: 'user', content: 'hi' }], signal }).catch((e) => e)
      expect(error).toBeInstanceOf(LlmError)
      expect(error.kind).toBe('aborted')
    })
  })
}
