import { Elysia } from 'elysia'
import { resourceRoutes } from '../../platform/crud/routes'
import type { Guards } from '../../platform/guards'
import { documentBlocksResource, documentsResource } from './model'
import type { DataService } from './service'

export function dataRoutes(data: DataService, guards: Guards) {
  return new Elysia({ name: 'data' })
    .use(resourceRoutes(documentsResource, data.documents, guards))
    .use(resourceRoutes(documentBlocksResource, data.blocks, guards))
}
