import { errorCode } from './errors'
import type { Session } from './session'

/** The part of `fetch` the client uses; pass any implementation (a test app's `handle`, a polyfill). */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** 401 codes that mean "this access token will not do" rather than "this request is wrong". */
const TOKEN_CODES = new Set(['token_expired', 'unauthorized'])

/**
 * A fetch that sends `Authorization: Bearer <access token>` and, when the server answers 401
 * `token_expired` or `unauthorized` while a refresh token is held, refreshes (single-flight) and
 * retries the request once. `isPublic` URLs (sign-in, refresh, sign-out) pass through untouched,
 * as does a request that already carries its own Authorization header.
 */
export function authorizedFetch(fetch: FetchLike, session: Session, isPublic: (url: URL) => boolean): FetchLike {
  return async (input, init = {}) => {
    const url = new URL(input instanceof Request ? input.url : input, 'http://relative.invalid')
    const headers = new Headers(init.headers ?? (input instanceof Request ? input.headers : undefined))
    if (isPublic(url) || headers.has('authorization')) return fetch(input, init)

    const send = (token: string | null) => {
      const h = new Headers(headers)
      if (token) h.set('authorization', `Bearer ${token}`)
      return fetch(input instanceof Request ? input.clone() : input, { ...init, headers: h })
    }

    await session.ready()
    const used = session.accessToken
    const res = await send(used)
    if (res.status !== 401 || !used || !replayable(input, init)) return res
    if (!TOKEN_CODES.has((await errorCode(res)) ?? '')) return res
    if (!(await session.refresh(used))) return res
    const next = session.accessToken
    if (!next || next === used) return res
    await res.body?.cancel().catch(() => {})
    return send(next)
  }
}

/** A streamed request body is consumed by the first attempt and cannot be sent again. */
function replayable(input: string | URL | Request, init: RequestInit): boolean {
  if (init.body instanceof ReadableStream) return false
  return !(input instanceof Request && input.bodyUsed)
}
