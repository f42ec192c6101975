import { defineModule } from '../module'
import { personaDeleted } from '../persona/events'
import type { MemoryTools } from '../chat/service'
import { memoryToolsFor } from './chat-tools'
import { PERSONA_MEMORY_ERRORS } from './errors'
import { PERSONA_MEMORY_EVENTS } from './events'
import { embedMemories } from './jobs'
import { personaMemoryRoutes } from './routes'
import { PersonaMemoryService } from './service'

declare module '../module' {
  interface Services {
    persona_memory: { memories: PersonaMemoryService; chatTools: MemoryTools }
  }
}

export default defineModule({
  name: 'persona_memory',
  tags: {
    persona_memory:
      'What a persona remembers about a customer: memories with embeddings, recall by similarity, archive.',
  },
  errors: PERSONA_MEMORY_ERRORS,
  events: PERSONA_MEMORY_EVENTS,
  jobs: [embedMemories],
  setup: (ctx) => {
    const memories = new PersonaMemoryService(ctx.deps, ctx.use('persona').personas, ctx.bus)
    ctx.bus.on(personaDeleted, (tx, { ecosystemId, payload }) => memories.forgetPersona(tx, ecosystemId, payload.id))
    return { services: { memories, chatTools: memoryToolsFor(memories) }, routes: () => [personaMemoryRoutes(memories, ctx.guards)] }
  },
})
