import { Elysia } from 'elysia'
import type { Deps } from '../deps'
import { AppError } from './errors'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Request id (echoed as X-Request-Id), the body-size limit, and one JSON log line per request.
 * The path is logged without its query string, which may carry credentials.
 * `rawBodyPaths` (path prefixes) take raw uploads that check their own (signed) length; Bun's
 * maxRequestBodySize is raised for them, so elsewhere a body without Content-Length is refused
 * (411) rather than read up to that larger limit.
 */
export function requestContext(deps: Pick<Deps, 'config' | 'logger'>, options: { rawBodyPaths?: string[] } = {}) {
  const rawBodyPaths = options.rawBodyPaths ?? []
  const isRawBody = (url: string) => {
    const path = url.indexOf('/', url.indexOf('//') + 2)
    return path >= 0 && rawBodyPaths.some((p) => url.startsWith(p, path))
  }
  const started = new WeakMap<Request, { at: number; id: string }>()
  return new Elysia({ name: 'request-context' })
    .onRequest(({ request, set }) => {
      const incoming = request.headers.get('x-request-id')
      const id = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
      started.set(request, { at: performance.now(), id })
      set.headers['x-request-id'] = id
      const chunked = request.headers.has('transfer-encoding')
      const length = Number(request.headers.get('content-length') ?? 0)
      if ((chunked || length > deps.config.maxBodyBytes) && !isRawBody(request.url)) {
        if (chunked) throw new AppError(411, 'length_required', 'Send the request body with a Content-Length header')
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
