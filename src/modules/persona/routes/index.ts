import { Elysia } from 'elysia'
import type { Guards } from '../../../platform/guards'
import type { PersonaService } from '../service'
import { personaRoutes } from './personas'
import { publicRoutes } from './public'
import { serviceRoutes } from './services'

/** Every route of the persona area. */
export function personaAreaRoutes(area: PersonaService, guards: Guards) {
  return new Elysia({ name: 'persona' }).use(serviceRoutes(area, guards)).use(personaRoutes(area, guards)).use(publicRoutes(area))
}
