import type { Server } from 'bun'
import { Elysia } from 'elysia'
import { AppError } from './errors'
import type { Logger } from './logger'
import type { Metrics } from './metrics'
import type { Tracing } from './tracing'
import { clientIp, MAX_JSON_DEPTH, refusedJson, urlHasLoneSurrogate } from './request'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

/**
 * Polled every few seconds by load balancers, orchestrators and Prometheus: logged at debug level,
 * since at info they would drown the real traffic.
 */
const PROBE_PATHS = new Set(['/health', '/health/live', '/health/ready', '/metrics'])

/** Path prefixes of pages a browser loads many of at once: the served API documentation and the console. */
const PAGE_PREFIXES = ['/openapi', '/console', '/favicon.ico']

/** Never rate limited nor counted (platform/api-limits.ts): the probes, the metrics scrape, documentation and console pages. */
export function rateLimitExempt(path: string): boolean {
  return PROBE_PATHS.has(path) || PAGE_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`))
}

/** Who a request acted as, noted by the auth and tenancy guards for its log line. */
export interface Caller {
  principalId?: string
  ecosystemId?: string
}
const callers = new WeakMap<Request, Caller>()

/** The id each request was given (X-Request-Id), by request. */
const requestIds = new WeakMap<Request, string>()

/**
 * Where a request came from, for the audit log: the client address (as `clientIp` reads it; null
 * when unknown), its User-Agent (at most 512 characters) and its request id. The auth and tenancy
 * guards attach it to the principal and tenant they resolve, so a service that records an audit
 * event gets it with the caller it already takes; routes without credentials pass it themselves.
 */
export interface RequestInfo {
  ip: string | null
  userAgent: string | null
  requestId: string | null
}

/** Where a request came from. The address is looked up when first read (the audit log, throttles): most authenticated requests never need it, and the lookup is a tenth of a cached /auth/me. */
export function requestInfo(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): RequestInfo {
  let ip: string | null | undefined
  return {
    get ip() {
      if (ip === undefined) {
        const found = clientIp(request, server, trustProxy)
        ip = found === 'unknown' ? null : found.slice(0, 100)
      }
      return ip
    },
    userAgent: request.headers.get('user-agent')?.slice(0, 512) || null,
    requestId: requestIds.get(request) ?? null,
  }
}

/** Records the principal and ecosystem a request resolved to (request log line). */
export function noteCaller(request: Request, caller: Caller): void {
  callers.set(request, { ...callers.get(request), ...caller })
}

/**
 * Request id (echoed as X-Request-Id), the body-size limit, one JSON log line per request, its
 * count and duration in the metrics, by route template (platform/metrics.ts), and, with tracing on,
 * its span (platform/tracing.ts), in which everything the request does runs.
 * The path is logged without its query string, which may carry credentials.
 * `rawBodyPaths` (path prefixes) take raw uploads that check their own (signed) length; Bun's
 * maxRequestBodySize is raised for them, so elsewhere a body without Content-Length is refused
 * (411) rather than read up to that larger limit.
 * Bodies are JSON: any other Content-Type is refused (415) before parsing, except on raw paths and
 * `formBodyPaths` (exact paths whose routes parse forms themselves). `verbatimBodyPaths` (path
 * prefixes) take JSON like every route, checked the same way, but their routes read it as text
 * (a signature covers the exact bytes: Stripe's webhooks). So no HTML form on another
 * site can post to the API (a `text/plain` form body shaped like JSON included).
 * Parsed bodies are checked here, once for every route, before validation: invalid JSON is 400
 * `invalid_json` (also where the body is optional), anything but an object is 400
 * `validation_failed` (Elysia would turn `[{}]` or `"x"` into `{}` for an all-optional schema), and
 * so is a NUL character or a lone surrogate anywhere in a body, path or query string: PostgreSQL
 * cannot store either. A JSON body is scanned as text before it is parsed (read once, and handed
 * to the parser): nested deeper than MAX_JSON_DEPTH (64) or holding a lone surrogate is 400
 * `validation_failed` before any recursive code (validation, cleaning, the database) sees it.
 */
export function requestContext(
  deps: {
    config: { maxBodyBytes: number }
    logger: Pick<Logger, 'debug' | 'info'>
    metrics: Pick<Metrics, 'request'>
    tracing: Pick<Tracing, 'enabled' | 'request' | 'endRequest'>
  },
  options: { rawBodyPaths?: string[]; formBodyPaths?: string[]; verbatimBodyPaths?: string[] } = {},
) {
  const rawBodyPaths = options.rawBodyPaths ?? []
  const verbatimBodyPaths = options.verbatimBodyPaths ?? []
  const formBodyPaths = new Set(options.formBodyPaths ?? [])
  const pathStart = (url: string) => url.indexOf('/', url.indexOf('//') + 2)
  const isRawBody = (url: string) => {
    const path = pathStart(url)
    return path >= 0 && rawBodyPaths.some((p) => url.startsWith(p, path))
  }
  const isVerbatim = (url: string) => {
    const path = pathStart(url)
    return path >= 0 && verbatimBodyPaths.some((p) => url.startsWith(p, path))
  }
  const takesForm = (url: string) => {
    const path = pathStart(url)
    const query = url.indexOf('?', path)
    return path >= 0 && formBodyPaths.has(url.slice(path, query < 0 ? undefined : query))
  }
  const started = new WeakMap<Request, { at: number; id: string }>()
  const plugin = new Elysia({ name: 'request-context' })
  // Wrapping the whole handling (hooks, handler, a stream's generator) is what puts them in the request's span; without tracing, nothing wraps.
  // Probes are not traced: polled every few seconds, they would bury the traces that matter.
  const traced = (request: Request) => !PROBE_PATHS.has(new URL(request.url).pathname)
  if (deps.tracing.enabled) {
    plugin.wrap(
      (handle, request) => ((...args: unknown[]) => (traced(request) ? deps.tracing.request(request, () => handle(...args)) : handle(...args))) as never,
    )
  }
  return plugin
    .onRequest(async ({ request, set }) => {
      const incoming = request.headers.get('x-request-id')
      const id = incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID()
      started.set(request, { at: performance.now(), id })
      requestIds.set(request, id)
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
      if (request.url.includes('%00')) throw nulRefused('the path or query string')
      if (urlHasLoneSurrogate(request.url)) throw surrogateRefused('the path or query string')
      if (request.method !== 'GET' && request.method !== 'HEAD' && isJson(request.headers.get('content-type')) && !isRawBody(request.url)) {
        const text = await request.text()
        const refused = refusedJson(text)
        if (refused === 'too_deep') throw new AppError(400, 'validation_failed', `body: JSON nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`)
        if (refused === 'lone_surrogate') throw surrogateRefused('the request body')
        keepBodyText(request, text)
      }
    })
    .onTransform({ as: 'global' }, ({ body, request }) => {
      if (isRawBody(request.url) || isVerbatim(request.url)) return
      if (body === undefined) {
        // Elysia drops a body that fails to parse where the schema makes the body optional.
        const sent = Number(request.headers.get('content-length') ?? 0) > 0 && request.method !== 'GET' && request.method !== 'HEAD'
        if (sent && isJson(request.headers.get('content-type')) && !takesForm(request.url)) throw invalidJson()
        return
      }
      // Form-body routes hand over their own parse result (an object); JSON bodies are what the client sent.
      if (!takesForm(request.url) && (body === null || typeof body !== 'object' || Array.isArray(body))) {
        throw new AppError(400, 'validation_failed', 'body: the request body must be a JSON object')
      }
      const text = refusedText(body)
      if (text === 'nul') throw nulRefused('the request body')
      if (text === 'lone_surrogate') throw surrogateRefused('the request body')
    })
    .onAfterResponse({ as: 'global' }, ({ request, set, route }) => {
      const info = started.get(request)
      const path = new URL(request.url).pathname
      const status = typeof set.status === 'number' ? set.status : 200
      const ms = info ? performance.now() - info.at : undefined
      if (ms !== undefined) deps.metrics.request(request.method, route, status, ms / 1000)
      deps.tracing.endRequest(request, route, status)
      const log = PROBE_PATHS.has(path) ? deps.logger.debug : deps.logger.info
      log('request', {
        requestId: info?.id,
        method: request.method,
        path,
        ...callers.get(request),
        status,
        durationMs: ms === undefined ? undefined : Math.round(ms * 10) / 10,
      })
    })
}

const invalidJson = () => new AppError(400, 'invalid_json', 'The request body is not valid JSON')

/**
 * Hands the body text read for the scan to the request's later readers: Elysia's JSON parser
 * (`request.json()`) and routes that read it as text (`request.text()`: verbatim paths, the OAuth
 * token endpoints). Scanning a clone instead tees the body stream: ≈ 100 µs of server CPU per
 * JSON request, a quarter of a refresh's.
 */
function keepBodyText(request: Request, text: string): void {
  Object.defineProperties(request, {
    text: { value: async () => text },
    json: { value: async () => JSON.parse(text) },
  })
}

/**
 * Whether a NUL character or a lone surrogate stands in any string (key or value) of a parsed body.
 * Iterative: form bodies, which the JSON scan does not see, must not be able to overflow the stack.
 */
function refusedText(body: unknown): 'nul' | 'lone_surrogate' | null {
  const pending: unknown[] = [body]
  const check = (s: string) => (s.includes('\0') ? 'nul' : s.isWellFormed() ? null : 'lone_surrogate')
  while (pending.length) {
    const value = pending.pop()
    if (typeof value === 'string') {
      const refused = check(value)
      if (refused) return refused
    } else if (Array.isArray(value)) {
      for (const inner of value) pending.push(inner)
    } else if (value !== null && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        const refused = check(key)
        if (refused) return refused
        pending.push(inner)
      }
    }
  }
  return null
}

const nulRefused = (where: string) => new AppError(400, 'validation_failed', `${where} contains a NUL character (\\u0000), which is not allowed`)
const surrogateRefused = (where: string) =>
  new AppError(400, 'validation_failed', `${where} contains a lone surrogate (an unpaired \\ud800-\\udfff), which is not valid Unicode text and is not allowed`)

/** `application/json`, with or without parameters such as charset; in lower case, as Elysia's parser matches it. */
function isJson(contentType: string | null): boolean {
  if (!contentType) return false
  const semicolon = contentType.indexOf(';')
  return (semicolon < 0 ? contentType : contentType.slice(0, semicolon)).trim() === 'application/json'
}
