import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const personaDeleted = defineEvent('persona.persona.deleted', {
  description: 'A persona was deleted (what it remembered goes with it).',
  payload: t.Object({ id: t.String() }),
})

export const PERSONA_EVENTS = [personaDeleted]
