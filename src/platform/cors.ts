import { Elysia } from 'elysia'

const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE'
const ALLOW_HEADERS = 'authorization, content-type, x-ecosystem-id, x-request-id, last-event-id, idempotency-key'
const EXPOSE_HEADERS = 'x-request-id, retry-after, location, ratelimit, ratelimit-policy'
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE = '600'

/**
 * CORS for the exact origins of CORS_ORIGINS, with credentials (the refresh cookie). Origins not
 * listed get no CORS headers, so their browsers keep the same-origin policy. Registered before the
 * request context, so a preflight answers 204 before any body or auth check.
 */
export function cors(origins: readonly string[]) {
  const allowed = new Set(origins)
  const plugin = new Elysia({ name: 'cors' })
  if (allowed.size === 0) return plugin
  return plugin.onRequest(({ request, set }) => {
    set.headers.vary = 'Origin'
    const origin = request.headers.get('origin')
    if (!origin || !allowed.has(origin)) return
    set.headers['access-control-allow-origin'] = origin
    set.headers['access-control-allow-credentials'] = 'true'
    set.headers['access-control-expose-headers'] = EXPOSE_HEADERS
    if (request.method === 'OPTIONS' && request.headers.has('access-control-request-method')) {
      return new Response(null, {
        status: 204,
        headers: {
          ...(set.headers as Record<string, string>),
          'access-control-allow-methods': ALLOW_METHODS,
          'access-control-allow-headers': ALLOW_HEADERS,
          'access-control-max-age': PREFLIGHT_MAX_AGE,
        },
      })
    }
  })
}

/**
 * Whether a browser request may act with the refresh cookie: no Origin (not a browser), one its
 * browser marks same-origin (`Sec-Fetch-Site`, which no page can set: this holds under any host
 * name the service is reached by, also one PUBLIC_URL does not name), the service's own origin, or
 * a CORS origin. A cross-site page can send a body-less POST without a preflight, so
 * cookie-authenticated routes check this themselves.
 */
export function originMayUseCookie(headers: Record<string, string | undefined>, publicUrl: string, corsOrigins: readonly string[]): boolean {
  const origin = headers.origin
  return origin === undefined || headers['sec-fetch-site'] === 'same-origin' || origin === new URL(publicUrl).origin || corsOrigins.includes(origin)
}

/**
 * The origin of a same-origin request (a page served by this service at the address it was
 * reached by, e.g. the console opened at 127.0.0.1 while PUBLIC_URL names localhost), else null.
 * URLs the service hands back for its own endpoints (the local store's signed URLs) can then point
 * where the page can reach them; cross-origin callers keep PUBLIC_URL's. A browser sends no Origin
 * on a same-origin GET (a download URL the console shows as an image): then the Referer's origin
 * stands in, compared the same way.
 */
export function sameOrigin(request: Request): string | null {
  const origin = request.headers.get('origin') ?? request.headers.get('referer')
  if (!origin) return null
  try {
    return new URL(request.url).origin === new URL(origin).origin ? new URL(origin).origin : null
  } catch {
    return null
  }
}
