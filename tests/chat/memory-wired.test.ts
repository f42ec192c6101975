import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createHarness, type Harness } from '../support/harness'
import { chatActor, type ChatActor, newConversation, parseFrames, post } from './support'

/** The app as createApp wires it: chat's memory tools reach the persona memory area. */
let h: Harness
let a: ChatActor
let personaId: string
beforeAll(async () => {
  h = await createHarness()
  a = await chatActor(h)
  const persona = await h.call('POST', '/persona/personas', { ...a.org.as(a.owner), body: { slug: 'librarian', name: 'Librarian' } })
  personaId = persona.body.id
})
afterAll(() => h.close())

async function turn(conversationId: string, message: string) {
  const res = await post(h, `/chat/conversations/${conversationId}/messages`, a.customer.token, { message })
  expect(res.status).toBe(200)
  return parseFrames(await res.text())
}

test('a persona conversation saves a memory with memory_save and finds it again with memory_recall', async () => {
  const c = await newConversation(h, a, { personaSlug: 'librarian' })
  const saved = await turn(c.id, 'memory_save {"description":"Favourite drink","body":"The customer likes green tea in the morning","memoryType":"user"}')
  const savedResult = saved.find((e) => e.event === 'tool_call_completed')!.data as { name: string; ok: boolean; result: string }
  expect(savedResult).toMatchObject({ name: 'memory_save', ok: true })
  const { id } = JSON.parse(savedResult.result) as { id: string }

  const stored = await h.call('GET', `/persona_memory/memories/${id}`, { token: a.customer.token })
  expect(stored.status).toBe(200)
  expect(stored.body).toMatchObject({ personaId, scope: 'user', source: 'tool', customerId: a.customer.customerId, ownerId: a.org.ecosystem.id })

  const recalled = await turn(c.id, 'memory_recall {"query":"what does the customer like to drink"}')
  const recallResult = recalled.find((e) => e.event === 'tool_call_completed')!.data as { name: string; ok: boolean; result: string }
  expect(recallResult.ok).toBe(true)
  expect(recallResult.result).toContain('green tea')
  expect(recalled.at(-1)!.event).toBe('done')
})

test('another customer of the ecosystem recalls nothing of it', async () => {
  const other = await chatActor(h, a)
  const c = await newConversation(h, other, { personaSlug: 'librarian' })
  const res = await post(h, `/chat/conversations/${c.id}/messages`, other.customer.token, { message: 'memory_recall {"query":"green tea"}' })
  const events = parseFrames(await res.text())
  const result = events.find((e) => e.event === 'tool_call_completed')!.data as { result: string }
  expect(result.result).not.toContain('green tea')
})
