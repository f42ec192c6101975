import { Elysia } from 'elysia'
import { AppError } from '../../../platform/errors'
import { LOCAL_OBJECTS_PATH, type ObjectStore } from '../../../providers/storage'

/**
 * The local store's signed object URLs (raw bytes, not JSON). The signature in the query is the
 * only credential. Hidden from OpenAPI: clients get these URLs from the API, opaque, like S3's.
 * The JSON body limit does not apply here (platform/http exempts this path); the signed length does.
 */
export function objectRoutes(store: ObjectStore) {
  const serve = ({ request }: { request: Request }) => {
    if (!store.serve) throw new AppError(404, 'not_found', 'Objects are served by the configured object store, not here')
    return store.serve(request)
  }
  const hook = { parse: 'none' as const, detail: { hide: true } }
  return new Elysia({ name: 'storage-objects', prefix: LOCAL_OBJECTS_PATH }).put('/*', serve, hook).get('/*', serve, hook).head('/*', serve, hook)
}
