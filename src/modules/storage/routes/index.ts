import { Elysia } from 'elysia'
import type { Guards } from '../../../platform/guards'
import type { ObjectStore } from '../../../providers/storage'
import type { StorageService } from '../service'
import { attachmentRoutes } from './attachments'
import { customerFileRoutes } from './customer-files'
import { objectRoutes } from './objects'
import { usageRoutes } from './usage'

export { LOCAL_OBJECTS_PATH } from '../../../providers/storage'

export function storageRoutes(storage: StorageService, guards: Guards, objects: ObjectStore) {
  return new Elysia({ name: 'storage' })
    .use(attachmentRoutes(storage, guards))
    .use(customerFileRoutes(storage, guards))
    .use(usageRoutes(storage, guards))
    .use(objectRoutes(objects))
}
