import { Elysia } from 'elysia'
import type { Deps } from '../../../deps'
import type { PrincipalSource } from '../../../platform/auth'
import type { TenancySource } from '../../../platform/tenancy'
import type { PersonaArea } from '../service'
import { personaRoutes } from './personas'
import { publicRoutes } from './public'
import { serviceRoutes } from './services'

/** Every route of the persona area. */
export function personaAreaRoutes(deps: Deps, area: PersonaArea, users: PrincipalSource, tenancy: TenancySource) {
  return new Elysia({ name: 'persona' })
    .use(serviceRoutes(deps, area, users, tenancy))
    .use(personaRoutes(deps, area, users, tenancy))
    .use(publicRoutes(area))
}
