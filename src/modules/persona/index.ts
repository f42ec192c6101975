import { defineModule } from '../module'
import { PERSONA_ERRORS } from './errors'
import { PERSONA_EVENTS } from './events'
import { personaAreaRoutes } from './routes'
import { PersonaArea } from './service'

declare module '../module' {
  interface Services {
    persona: PersonaArea
  }
}

export default defineModule({
  name: 'persona',
  tags: {
    persona:
      'Persona services (a model and its settings) and personas (name, prompt, tools), with public profiles.',
  },
  errors: PERSONA_ERRORS,
  events: PERSONA_EVENTS,
  setup: (ctx) => {
    const { registry, identifiers } = ctx.use('registry')
    const accounts = ctx.use('auth').accounts
    const persona = new PersonaArea(ctx.deps, { publicProfiles: (where) => accounts.publicProfiles(where), findEcosystem: (idOrRdid) => registry.findEcosystem(idOrRdid) }, ctx.bus)
    identifiers.acceptEntityType('persona', async (id) => {
      const ecosystemId = await persona.personas.ecosystemOf(id)
      return ecosystemId ? { ecosystemId } : null
    })
    return { services: persona, routes: () => [personaAreaRoutes(persona, ctx.guards)] }
  },
})
