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
