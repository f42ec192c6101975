import type { Deps } from '../../deps'
import type { PrincipalSource } from '../../platform/auth'
import { ResourceService } from '../../platform/crud/resource'
import { resourceRoutes } from '../../platform/crud/routes'
import type { TenancySource } from '../../platform/tenancy'
import { notesResource } from './resources'

export const USERDATA_RESOURCES = [notesResource] as const

export function userdataRoutes(deps: Deps, users: PrincipalSource, tenancy: TenancySource) {
  return resourceRoutes(notesResource, new ResourceService(deps, notesResource), { tokens: deps.tokens, users, tenancy })
}
