import { Elysia } from 'elysia'
import type { Deps } from '../../deps'
import type { ChangeSink } from '../../platform/changes'
import { ResourceService } from '../../platform/crud/resource'
import { resourceRoutes } from '../../platform/crud/routes'
import type { Guards } from '../../platform/guards'
import { documentBlocksResource, documentsResource } from './resources'

/** Derived resources of the `data` schema, in the order their examples depend on each other. */
export const DATA_RESOURCES = [documentsResource, documentBlocksResource] as const

export function dataRoutes(guards: Guards, deps: Pick<Deps, 'db' | 'now'> & { changes: ChangeSink }) {
  return new Elysia({ name: 'data' })
    .use(resourceRoutes(documentsResource, new ResourceService(deps, documentsResource), guards))
    .use(resourceRoutes(documentBlocksResource, new ResourceService(deps, documentBlocksResource), guards))
}
