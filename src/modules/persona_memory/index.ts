import { defineModule } from '../module'
import { PERSONA_MEMORY_ERRORS } from './errors'
import { PERSONA_MEMORY_EVENTS, PERSONA_MEMORY_AUDIT } from './events'
import { embedMemories } from './jobs'
import { personaMemoryRoutes } from './routes'
import { PersonaMemoryService } from './service'
import { PERSONA_MEMORY_SUBSCRIPTIONS } from './subscriptions'

declare module '../module' {
  interface Services {
    persona_memory: PersonaMemoryService
  }
}

export default defineModule({
  name: 'persona_memory',
  tags: {
    persona_memory: 'What a persona remembers about a customer: memories with embeddings, recall by similarity, archive.',
  },
  errors: PERSONA_MEMORY_ERRORS,
  events: PERSONA_MEMORY_EVENTS,
  audit: PERSONA_MEMORY_AUDIT,
  jobs: [embedMemories],
  subscriptions: PERSONA_MEMORY_SUBSCRIPTIONS,
  setup: (ctx) => {
    const memories = new PersonaMemoryService(ctx.deps, ctx.use('persona').personas, ctx.bus, ctx.use('audit'))
    return { services: memories, routes: () => [personaMemoryRoutes(memories, ctx.guards)] }
  },
})
