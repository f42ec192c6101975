import { defineModule } from '../module'
import { STORAGE_ERRORS } from './errors'
import { STORAGE_EVENTS, STORAGE_AUDIT } from './events'
import { deleteOrphanedObjects, expireUploads, purgeAttachments } from './jobs'
import { LOCAL_OBJECTS_PATH, storageRoutes } from './routes'
import { StorageService } from './service'

declare module '../module' {
  interface Services {
    storage: StorageService
  }
}

export default defineModule({
  name: 'storage',
  tags: {
    storage: 'Files: presigned uploads straight to the object store, deduplicated by SHA-256, completion, downloads, and per-customer quotas.',
    usage: 'Storage use against quota, per customer.',
  },
  errors: STORAGE_ERRORS,
  events: STORAGE_EVENTS,
  audit: STORAGE_AUDIT,
  jobs: [expireUploads, purgeAttachments, deleteOrphanedObjects],
  http: { rawBodyPaths: [`${LOCAL_OBJECTS_PATH}/`], expensiveRoutes: ['POST /storage/uploads'] },
  setup: (ctx) => {
    const storage = new StorageService(ctx.deps, ctx.use('customer'), ctx.bus, ctx.use('billing').entitlements, ctx.use('audit'))
    return { services: storage, routes: () => [storageRoutes(storage, ctx.guards, ctx.deps.storage)] }
  },
})
