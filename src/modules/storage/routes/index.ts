import { Elysia } from 'elysia'
import type { Deps } from '../../../deps'
import type { PrincipalSource } from '../../../platform/auth'
import type { TenancySource } from '../../../platform/tenancy'
import type { StorageService } from '../service'
import { attachmentRoutes } from './attachments'
import { objectRoutes } from './objects'
import { usageRoutes } from './usage'

export { LOCAL_OBJECTS_PATH } from '../../../providers/storage'

export function storageRoutes(deps: Deps, storage: StorageService, users: PrincipalSource, tenancy: TenancySource) {
  return new Elysia({ name: 'storage' })
    .use(attachmentRoutes(deps, storage, users, tenancy))
    .use(usageRoutes(deps, storage, users, tenancy))
    .use(objectRoutes(deps))
}
