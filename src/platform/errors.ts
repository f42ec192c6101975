import { t } from 'elysia'

/** The one error type services throw; `onError` in app.ts renders it as ErrorBody. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** Extra top-level fields some responses carry beside `error` (e.g. quota figures). */
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

export const ErrorBody = t.Object(
  {
    error: t.Object({
      message: t.String({ description: 'Human-readable explanation' }),
      code: t.String({ description: 'Stable snake_case error code' }),
    }),
  },
  { title: 'Error' },
)

export function errorBody(code: string, message: string) {
  return { error: { message, code } }
}

/** Response entries for the error statuses a route can answer; spread into `response`. */
export function errors<const S extends number>(...statuses: S[]): { [K in S]: typeof ErrorBody } {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as { [K in S]: typeof ErrorBody }
}

/**
 * What a log line may say about an unexpected error: its kind, message and where it was thrown. A
 * failed query is described by the database's error and the SQL text, never its parameters (they
 * carry user input, token hashes, personal data).
 */
export function describeError(error: unknown): { error: string; message: string; sqlState?: string; query?: string; at: string[] } {
  const e = error instanceof Error ? error : new Error(typeof error === 'object' && error !== null ? JSON.stringify(error).slice(0, 500) : String(error))
  const failedQuery = 'query' in e && 'params' in e
  const cause = failedQuery && e.cause instanceof Error ? e.cause : null
  const shown = cause ?? e
  const sqlState = (shown as { code?: unknown }).code
  return {
    error: failedQuery ? `${e.name}: ${shown.name}` : e.name,
    message: failedQuery && !cause ? 'query failed' : shown.message.slice(0, 500),
    ...(typeof sqlState === 'string' ? { sqlState } : {}),
    ...(failedQuery ? { query: String((e as { query: unknown }).query).slice(0, 500) } : {}),
    at: (e.stack ?? '').split('\n').filter((line) => line.startsWith('    at ')).slice(0, 6).map((line) => line.trim()),
  }
}
