/** A failed call in one shape: the server's `{ error: { code, message } }` plus the HTTP status. */
export interface ApiError {
  status: number
  code: string
  message: string
}

/**
 * The error of an Eden response as `{ status, code, message }`, or null on success. The typed
 * `error.value` is a union per status (and Elysia also lists a 422 validation shape the server
 * never sends, because it answers 400), so reading `error.value.error.code` needs narrowing;
 * this does it once. A request that never reached the server is status 0, code `network_error`.
 */
export function apiError(res: { error: { status: unknown; value: unknown } | null }): ApiError | null {
  if (!res.error) return null
  const status = typeof res.error.status === 'number' ? res.error.status : 0
  const value = res.error.value as { error?: { code?: unknown; message?: unknown } } | Error | null | undefined
  if (value instanceof Error) return { status: 0, code: 'network_error', message: value.message }
  const body = value?.error
  if (body && typeof body.code === 'string') {
    return { status, code: body.code, message: typeof body.message === 'string' ? body.message : '' }
  }
  return { status, code: 'unknown_error', message: typeof value === 'string' ? value : `HTTP ${status}` }
}

/** The `error.code` of an error response, read from a copy so the caller still gets the body. */
export async function errorCode(res: Response): Promise<string | undefined> {
  if (!res.headers.get('content-type')?.includes('json')) return undefined
  try {
    const body = (await res.clone().json()) as { error?: { code?: unknown } } | null
    return typeof body?.error?.code === 'string' ? body.error.code : undefined
  } catch {
    return undefined
  }
}
