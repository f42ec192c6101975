import type { ErrorBody } from './schema'

/**
 * The documented error codes (`error.code` of the server's `{ error: { code, message } }`), plus
 * the client's own: `network_error` (the request never reached the server), `aborted` (the
 * caller's AbortSignal fired), `upload_failed` (the object store refused an upload without a code)
 * and `unexpected_response`.
 */
export type ErrorCode = ErrorBody['error']['code'] | 'network_error' | 'aborted' | 'upload_failed' | 'unexpected_response'

/** Every failure the client reports, in one shape: the HTTP status (0 when none), the code and the message. */
export class EcobaseError extends Error {
  override readonly name = 'EcobaseError'
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message || code)
  }

  /** A plain `{ status, code, message }`, e.g. for logging or a UI state. */
  toJSON(): { status: number; code: ErrorCode; message: string } {
    return { status: this.status, code: this.code, message: this.message }
  }
}

/**
 * The error of a `client.api` response as an EcobaseError, or null on success. A request that
 * never reached the server is status 0, code `network_error` (or `aborted` when its signal fired).
 */
export function apiError(res: { error: { status: unknown; value: unknown } | null }): EcobaseError | null {
  if (!res.error) return null
  const status = typeof res.error.status === 'number' ? res.error.status : 0
  const value = res.error.value as { error?: { code?: unknown; message?: unknown } } | Error | null | undefined
  if (value instanceof Error) return thrown(value)
  const body = value?.error
  if (body && typeof body.code === 'string') {
    return new EcobaseError(status, body.code as ErrorCode, typeof body.message === 'string' ? body.message : '')
  }
  return new EcobaseError(status, 'unexpected_response', typeof value === 'string' ? value : `HTTP ${status}`)
}

/** An exception from fetch (or a stream) as an EcobaseError: `aborted` for an abort, else `network_error`. */
export function thrown(err: unknown): EcobaseError {
  if (err instanceof EcobaseError) return err
  const e = err as { name?: string; message?: string } | null
  if (e?.name === 'AbortError') return new EcobaseError(0, 'aborted', 'The request was aborted')
  return new EcobaseError(0, 'network_error', e?.message ?? String(err))
}

/** The error of a plain fetch Response as an EcobaseError, read from a copy so the caller still gets the body. */
export async function responseError(res: Response, fallback: ErrorCode, message: string): Promise<EcobaseError> {
  return new EcobaseError(res.status, (await errorCode(res)) ?? fallback, message)
}

/** The `error.code` of an error response, read from a copy so the caller still gets the body. */
export async function errorCode(res: Response): Promise<ErrorCode | undefined> {
  if (!res.headers.get('content-type')?.includes('json')) return undefined
  return codeIn(await res.clone().text())
}

/** The `error.code` in a JSON error body's text, if it is one. */
export function codeIn(text: string): ErrorCode | undefined {
  try {
    const body = JSON.parse(text) as { error?: { code?: unknown } } | null
    return typeof body?.error?.code === 'string' ? (body.error.code as ErrorCode) : undefined
  } catch {
    return undefined
  }
}
