import { Elysia } from 'elysia'
import type { Deps } from '../../deps'
import type { PrincipalSource } from '../../platform/auth'
import { ResourceService } from '../../platform/crud/resource'
import { resourceRoutes } from '../../platform/crud/routes'
import type { TenancySource } from '../../platform/tenancy'
import { documentBlocksResource, documentsResource } from './resources'

/** Derived resources of the `data` schema, in the order their examples depend on each other. */
export const DATA_RESOURCES = [documentsResource, documentBlocksResource] as const

export function dataRoutes(deps: Deps, users: PrincipalSource, tenancy: TenancySource) {
  const guard = { tokens: deps.tokens, users, tenancy }
  return new Elysia({ name: 'data' })
    .use(resourceRoutes(documentsResource, new ResourceService(deps, documentsResource), guard))
    .use(resourceRoutes(documentBlocksResource, new ResourceService(deps, documentBlocksResource), guard))
}
