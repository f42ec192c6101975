import { asCustomer } from '../../platform/tenancy'
import type { MemoryTools } from '../chat/service'
import type { PersonaMemoryService } from './service'

/**
 * Persona memory as chat's `memory_recall` / `memory_save` tools. Saved memories are the
 * customer's own (`scope: user`, `source: tool`); recall sees what the customer may see.
 */
export function memoryToolsFor(memory: PersonaMemoryService): MemoryTools {
  return {
    async recall(tenant, personaId, query, limit) {
      const { memories } = await memory.recall(asCustomer(tenant), { personaId, query, limit })
      return memories.map((m) => ({
        id: m.id,
        slug: m.slug,
        memoryType: m.memoryType,
        description: m.description,
        body: m.body,
        similarity: m.similarity,
      }))
    },
    async save(tenant, personaId, input) {
      const created = await memory.create(asCustomer(tenant), {
        personaId,
        scope: 'user',
        source: 'tool',
        slug: input.slug ?? `chat-${crypto.randomUUID().slice(0, 8)}`,
        memoryType: input.memoryType,
        description: input.description,
        body: input.body,
      })
      return created.id
    },
  }
}
