import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { chatActor, type ChatActor, newConversation, send } from './support'

/** Chat's `search` tool over the ecosystem's community threads, through the API on the dev model. */
let h: Harness
let a: ChatActor
beforeAll(async () => {
  h = await createHarness()
  a = await chatActor(h)
  const admin = a.org.as(a.owner)
  await h.call('POST', '/persona/personas', { ...admin, body: { slug: 'guide', name: 'Guide', searchCommunity: true } })
  await h.call('POST', '/persona/personas', { ...admin, body: { slug: 'private', name: 'Private' } })
  const other = await chatActor(h, { org: a.org, owner: a.owner })
  await h.call('POST', '/community/threads', { token: other.customer.token, body: { title: 'Trail shoes', body: 'Which trail shoes for mud?' } })
  const stranger = await chatActor(h)
  await h.call('POST', '/community/threads', { token: stranger.customer.token, body: { title: 'Trail elsewhere', body: 'another ecosystem' } })
})
afterAll(() => h.close())

const toolResult = async (personaSlug: string | undefined, message: string) => {
  const conversation = await newConversation(h, a, personaSlug ? { personaSlug } : {})
  const { events } = await send(h, a, conversation.id, { message })
  return events.find((e) => e.event === 'tool_call_completed')?.data as { name: string; ok: boolean; result: string }
}

describe('chat search tool over community threads', () => {
  test('a persona with searchCommunity finds the ecosystem’s threads, not another ecosystem’s', async () => {
    const done = await toolResult('guide', 'search {"query":"trail","in":"community"}')
    expect(done.ok).toBe(true)
    const { results } = JSON.parse(done.result)
    expect(results).toEqual([{ threadId: expect.any(String), title: 'Trail shoes', snippet: 'Which trail shoes for mud?', createdAt: expect.any(String) }])
  })

  test('a persona without it, or no persona, is refused; conversations stay searchable', async () => {
    expect(await toolResult('private', 'search {"query":"trail","in":"community"}')).toEqual({
      name: 'search',
      ok: false,
      result: JSON.stringify({ error: 'The tool failed: this persona may not search the community' }),
    })
    expect((await toolResult(undefined, 'search {"query":"trail","in":"community"}')).ok).toBe(false)
    expect((await toolResult('private', 'search {"query":"trail"}')).ok).toBe(true)
  })

  test('searchCommunity is part of the persona, false by default', async () => {
    const list = (await h.call('GET', '/persona/personas', a.org.as(a.owner))).body.items
    expect(Object.fromEntries(list.map((p: { slug: string; searchCommunity: boolean }) => [p.slug, p.searchCommunity]))).toEqual({
      guide: true,
      private: false,
    })
  })
})
