import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import type { ChatEvent } from '../../src/modules/chat/model'
import { ChatService } from '../../src/modules/chat/service'
import type { MemoryMatch, MemoryTools } from '../../src/modules/chat/tools/memory'
import type { Tenant } from '../../src/platform/tenancy'
import { createHarness, type Harness } from '../support/harness'
import { chatActor, type ChatActor, newConversation } from './support'

/**
 * Persona memory is another area; chat reaches it only through the MemoryTools interface. This
 * suite plugs in a small recording implementation and drives turns through ChatService, on the
 * dev model; tests/chat/memory-wired.test.ts drives the real persona memory through the API.
 */
class RecordingMemory implements MemoryTools {
  saved: { tenant: unknown; personaId: string; memory: unknown }[] = []
  recalled: { tenant: unknown; personaId: string; query: string; limit: number }[] = []
  async recall(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, personaId: string, query: string, limit: number): Promise<MemoryMatch[]> {
    this.recalled.push({ tenant, personaId, query, limit })
    return [{ id: 'm1', slug: 'tea', memoryType: 'user', description: 'Drinks', body: 'Likes green tea', similarity: 0.91 }]
  }
  async save(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, personaId: string, memory: object): Promise<string> {
    this.saved.push({ tenant, personaId, memory })
    return 'memory-1'
  }
}

let h: Harness
let a: ChatActor
let memory: RecordingMemory
let chat: ChatService
let tenant: Tenant
let personaId: string
beforeAll(async () => {
  h = await createHarness()
  a = await chatActor(h)
  memory = new RecordingMemory()
  chat = new ChatService(h.deps, h.app.services.persona, h.app.bus, { memory })
  const persona = await h.call('POST', '/persona/personas', { ...a.org.as(a.owner), body: { slug: 'keeper', name: 'Keeper' } })
  personaId = persona.body.id
  tenant = { ecosystemId: a.org.ecosystem.id, organizationId: a.org.organization.id, customerId: a.customer.customerId, actor: { kind: 'customer' } }
})
afterAll(() => h.close())

async function turn(conversationId: string, message: string): Promise<ChatEvent[]> {
  const events: ChatEvent[] = []
  for await (const ev of await chat.send(tenant, conversationId, { message }, new AbortController().signal)) events.push(ev)
  return events
}

const completed = (events: ChatEvent[]) => events.find((e) => e.event === 'tool_call_completed')?.data as { name: string; ok: boolean; result: string }

describe('memory tools (when a MemoryTools implementation is given)', () => {
  test('memory_save saves for the conversation’s customer and persona', async () => {
    const c = await newConversation(h, a, { personaSlug: 'keeper' })
    const events = await turn(c.id, 'memory_save {"description":"Drinks","body":"Likes green tea","memoryType":"user"}')
    expect(completed(events)).toEqual({ name: 'memory_save', ok: true, result: '{"id":"memory-1"}' })
    expect(memory.saved).toEqual([
      {
        tenant: { ecosystemId: a.org.ecosystem.id, customerId: a.customer.customerId },
        personaId,
        memory: { description: 'Drinks', body: 'Likes green tea', memoryType: 'user' },
      },
    ])
  })

  test('memory_recall passes the query and the default limit and returns the matches', async () => {
    const c = await newConversation(h, a, { personaSlug: 'keeper' })
    const events = await turn(c.id, 'memory_recall {"query":"drinks"}')
    const result = JSON.parse(completed(events).result)
    expect(result.memories).toEqual([{ slug: 'tea', memoryType: 'user', description: 'Drinks', body: 'Likes green tea', similarity: 0.91 }])
    expect(memory.recalled.at(-1)).toMatchObject({ personaId, query: 'drinks', limit: 5 })
  })

  test('arguments failing the schema never reach the memory area', async () => {
    const c = await newConversation(h, a, { personaSlug: 'keeper' })
    const savedBefore = memory.saved.length
    const events = await turn(c.id, 'memory_save {"description":"x","body":"y","memoryType":"gossip"}')
    expect(completed(events).ok).toBe(false)
    expect(JSON.parse(completed(events).result).error).toStartWith('Invalid arguments: /memoryType')
    const recall = await turn(c.id, 'memory_recall {"query":"x","limit":500}')
    expect(completed(recall).ok).toBe(false)
    expect(memory.saved.length).toBe(savedBefore)
  })

  test('without a persona, memory tools are not offered', async () => {
    const c = await newConversation(h, a)
    const events = await turn(c.id, 'memory_save {"description":"x","body":"y","memoryType":"user"}')
    expect(events.some((e) => e.event === 'tool_call_started')).toBe(false)
    expect(
      chat.tools
        .specs({ tenant, conversationId: crypto.randomUUID(), personaId: null, now: () => new Date(), signal: new AbortController().signal })
        .map((t) => t.name),
    ).toEqual(['current_time'])
    expect(
      chat.tools
        .specs({ tenant, conversationId: crypto.randomUUID(), personaId, now: () => new Date(), signal: new AbortController().signal })
        .map((t) => t.name),
    ).toEqual(['current_time', 'memory_recall', 'memory_save'])
  })
})
