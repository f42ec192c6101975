import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { AppError } from './errors'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Request id (echoed as X-Request-Id), the body-size limit, and one JSON log line per request.
 * The path is logged without its query string, which may carry credentials.
 */
export function requestContext(deps: Pick<Deps, 'config' | 'logger'>) {
  const started = new WeakMap<Request, { at: number; id: string }>()
  return new Elysia({ name: 'request-context' })
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get('x-request-id')
      const id = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
      started.set(request, { at: performance.now(), id })
      set.headers['x-request-id'] = id
      const length = Number(request.headers.get('content-length') ?? 0)
      if (length > deps.config.maxBodyBytes) {
        throw new AppError(413, 'payload_too_large', `The request body exceeds ${deps.config.maxBodyBytes} bytes`)
      }
    })
    .onAfterResponse({ as: 'global' }, ({ request, set }) => {
      const info = started.get(request)
      deps.logger.info('request', {
        requestId: info?.id,
        method: request.method,
        path: new URL(request.url).pathname,
        status: typeof set.status === 'number' ? set.status : 200,
        durationMs: info ? Math.round((performance.now() - info.at) * 10) / 10 : undefined,
      })
    })
}
