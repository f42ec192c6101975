import { defineModule } from '../module'
import { PERSONA_ERRORS } from './errors'
import { PERSONA_EVENTS } from './events'
import { personaAreaRoutes } from './routes'
import { PersonaService } from './service'

declare module '../module' {
  interface Services {
    persona: PersonaService
  }
}

export default defineModule({
  name: 'persona',
  tags: {
    persona: 'Persona services (a model and its settings) and personas (name, prompt, tools), with public profiles.',
  },
  errors: PERSONA_ERRORS,
  events: PERSONA_EVENTS,
  setup: (ctx) => {
    const registry = ctx.use('registry')
    const accounts = ctx.use('auth').accounts
    const persona = new PersonaService(
      ctx.deps,
      { publicProfiles: (where) => accounts.publicProfiles(where), findEcosystem: (idOrRdid) => registry.findEcosystem(idOrRdid) },
      ctx.bus,
    )
    const owner = async (id: string) => {
      const ecosystemId = await persona.personas.ecosystemOf(id)
      return ecosystemId ? { ecosystemId } : null
    }
    return { services: persona, extends: { entityTypes: { persona: owner } }, routes: () => [personaAreaRoutes(persona, ctx.guards)] }
  },
})
