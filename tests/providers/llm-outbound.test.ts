import { afterAll, describe, expect, test } from 'bun:test'
import { loadConfig } from '../../src/config'
import { createLlmProviders, LlmError } from '../../src/providers/llm'
import type { Resolver } from '../../src/platform/outbound'
import { startFakeOpenAi } from '../support/fake-openai'

// The fake listens on 127.0.0.1 only: a connection to 127.0.0.2 finds nobody.
const fake = startFakeOpenAi()
afterAll(() => fake.stop())
const port = new URL(fake.url).port

/** A DNS stub answering the first lookup with `first` and every later one with `then`; it counts the lookups. */
function rebinding(first: string[], then: string[]): Resolver & { calls: number } {
  const resolve = Object.assign(async () => (resolve.calls++ === 0 ? first : then), { calls: 0 })
  return resolve
}

describe('persona services go through the outbound gate', () => {
  test('a request resolves the host once and connects to the address checked, even when the name answers otherwise afterwards', async () => {
    const resolve = rebinding(['127.0.0.1'], ['127.0.0.2'])
    const llm = createLlmProviders(loadConfig({ PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow' }), { resolve })
    const before = fake.requests.length
    const models = await llm.forService({ baseUrl: `http://llm.example.test:${port}/v1`, apiKey: null }).listModels()
    expect(models.length).toBeGreaterThan(0)
    expect(resolve.calls).toBe(1)
    expect(fake.requests.slice(before).map((r) => r.path)).toEqual(['/v1/models'])
  })

  test('under deny, a name answering a private address is refused before any request, without saying which address', async () => {
    const resolve = rebinding(['10.1.1.1'], ['127.0.0.1'])
    const llm = createLlmProviders(loadConfig({}), { resolve })
    const before = fake.requests.length
    const err = await llm
      .forService({ baseUrl: `http://llm.example.test:${port}/v1`, apiKey: null })
      .listModels()
      .catch((e: LlmError) => e)
    expect(err).toBeInstanceOf(LlmError)
    expect((err as LlmError).message).toBe(
      'Refused to connect to llm.example.test: it has a private address (loopback, private network, carrier-grade NAT or unique-local)',
    )
    expect(resolve.calls).toBe(1)
    expect(fake.requests.length).toBe(before)
  })
})
