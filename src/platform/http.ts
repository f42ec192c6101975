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
 * Bodies are JSON: any other Content-Type is refused (415) before parsing, except on raw paths and
 * `formBodyPaths` (exact paths whose routes parse forms themselves). So no HTML form on another
 * site can post to the API (a `text/plain` form body shaped like JSON included).
 */
export function requestContext(deps: Pick<Deps, 'config' | 'logger'>, options: { rawBodyPaths?: string[]; formBodyPaths?: string[] } = {}) {
  const rawBodyPaths = options.rawBodyPaths ?? []
  const formBodyPaths = new Set(options.formBodyPaths ?? [])
  const pathStart = (url: string) => url.indexOf('/', url.indexOf('//') + 2)
  const isRawBody = (url: string) => {
    const path = pathStart(url)
    return path >= 0 && rawBodyPaths.some((p) => url.startsWith(p, path))
  }
  const takesForm = (url: string) => {
    const path = pathStart(url)
    const query = url.indexOf('?', path)
    return path >= 0 && formBodyPaths.has(url.slice(path, query < 0 ? undefined : query))
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
      if (length > 0 && !isJson(request.headers.get('content-type')) && !isRawBody(request.url) && !takesForm(request.url)) {
        throw new AppError(415, 'unsupported_media_type', 'Send the request body as JSON (Content-Type: application/json)')
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

/** `application/json`, with or without parameters such as charset; in lower case, as Elysia's parser matches it. */
function isJson(contentType: string | null): boolean {
  if (!contentType) return false
  const semicolon = contentType.indexOf(';')
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim() === 'application/json'
}
