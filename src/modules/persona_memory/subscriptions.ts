import { subscriber } from '../module'
import { personaDeleted } from '../persona/events'
import type { PersonaMemoryService } from './service'

const { on } = subscriber<PersonaMemoryService>()

export const PERSONA_MEMORY_SUBSCRIPTIONS = [
  on(
    personaDeleted,
    "deletes the persona's memories",
    (memories) =>
      (tx, { ecosystemId, payload }) =>
        memories.forgetPersona(tx, ecosystemId, payload.id),
  ),
]
