import { t } from 'elysia'
import { defineAuditActions, defineEvent } from '../../platform/events'

export const memoryCreated = defineEvent('persona_memory.memory.created', {
  description: 'A persona saved a memory about a customer: by an admin (`api`) or by the persona itself in a chat (`tool`).',
  payload: t.Object({ id: t.String(), personaId: t.String(), customerId: t.Union([t.String(), t.Null()]), source: t.String(), description: t.String() }),
})

export const PERSONA_MEMORY_EVENTS = [memoryCreated]

/** The audit actions persona_memory records (GET /audit/events). */
export const PERSONA_MEMORY_AUDIT = defineAuditActions('persona_memory', {
  'persona_memory.memory.deleted': 'A memory was deleted',
})
