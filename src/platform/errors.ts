import { t } from 'elysia'

/**
 * The codes any route can answer, thrown by the platform (request parsing, authentication,
 * tenancy, table-derived resources) or by app.ts's error handler: code → one-line meaning. Each
 * module keeps its own codes in its own catalogue (`src/modules/<area>/errors.ts`, made with
 * `errorCatalogue`); src/modules/index.ts gathers them all for the OpenAPI document, whose
 * Error schema lists every code (the typed client's ErrorCode). A new code is an additive change.
 */
export const PLATFORM_ERRORS = {
  validation_failed: 'the request is invalid (the message names the field)',
  invalid_json: 'the request body is not valid JSON',
  invalid_cookie: 'a cookie is malformed',
  length_required: 'a request with a body must say its length',
  payload_too_large: 'the request body is larger than this route accepts',
  unsupported_media_type: 'the request body is not of a media type this route accepts',
  unauthorized: 'no credentials, or credentials that are not valid',
  token_expired: 'the access token has expired: refresh it',
  invalid_refresh_token: 'the refresh token is unknown, used, revoked or expired',
  insufficient_scope: 'the token lacks a scope this operation needs',
  forbidden: 'the caller may not do this',
  mfa_required:
    'the account has a second factor and this needs it: verify one first (POST /auth/mfa/verify), or, for an organization that requires it, enroll one (403)',
  ecosystem_required: 'account credentials must name the ecosystem (X-Ecosystem-Id)',
  not_found: 'no such resource (or not visible to the caller)',
  conflict: 'the change conflicts with existing data',
  rate_limited: 'too many requests: retry after the seconds in Retry-After (API rate limits per principal and class of route, sign-in and e-mail throttles)',
  entitlement_exceeded: 'the customer’s billing plan does not allow this (402; the message names the feature, its limit and the use)',
  internal_error: 'an unexpected server error',
} as const satisfies ErrorCatalogue
export type PlatformErrorCode = keyof typeof PLATFORM_ERRORS

/** Error codes of one area, each with a one-line meaning (shown in the OpenAPI document). */
export type ErrorCatalogue = Readonly<Record<string, string>>

/**
 * The one error type services throw; `onError` in app.ts renders it as ErrorBody. `new AppError`
 * takes platform codes only (NoInfer: the code does not widen the type); a module throws its own
 * codes through its catalogue's `error(...)`, typed to platform codes ∪ that catalogue.
 */
export class AppError<Code extends string = PlatformErrorCode> extends Error {
  constructor(
    readonly status: number,
    readonly code: NoInfer<Code>,
    message: string,
    /** Extra top-level fields some responses carry beside `error` (e.g. quota figures). */
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message)
  }
}

/**
 * Put on an error response schema by `errors(...)`: the response description (the codes a status
 * answers and their meanings). The OpenAPI tidy step moves it to the response and drops it.
 */
export const ERROR_DESCRIPTION = 'x-error-description'

/** Marks the schema of `error.code`: the OpenAPI tidy step lists every code of every catalogue there. */
export const ERROR_CODE_SCHEMA = 'x-error-code'

export const ErrorBody = t.Object(
  {
    error: t.Object({
      message: t.String({ description: 'Human-readable explanation' }),
      code: t.String({
        description:
          'Stable snake_case error code: one of the listed ones (the operation says which it answers); more may be added, so treat an unknown one like its status',
        [ERROR_CODE_SCHEMA]: true,
      }),
    }),
  },
  { title: 'Error' },
)

export function errorBody(code: string, message: string) {
  return { error: { message, code } }
}

/** Status → the codes a route answers with it, e.g. `{ 409: ['in_progress'] }`. */
type CodeMap<Code extends string> = { readonly [status: number]: readonly Code[] }
type StatusOf<A> = A extends number ? A : keyof A & number
type ErrorResponses<A extends readonly unknown[]> = { [K in StatusOf<A[number]>]: typeof ErrorBody }

/** An error response's description: each code with its meaning (one line, or a list). */
export function codesDescription(meanings: ErrorCatalogue, codes: readonly string[]): string {
  const lines = codes.map((code) => `\`${code}\`: ${meanings[code]}`)
  return lines.length === 1 ? lines[0]! : lines.map((line) => `- ${line}`).join('\n')
}

function errorResponses(meanings: ErrorCatalogue, args: readonly (number | CodeMap<string>)[]): Record<number, typeof ErrorBody> {
  const responses: Record<number, typeof ErrorBody> = {}
  for (const arg of args) {
    if (typeof arg === 'number') responses[arg] = ErrorBody
    else
      for (const [status, codes] of Object.entries(arg))
        responses[Number(status)] = { ...ErrorBody, [ERROR_DESCRIPTION]: codesDescription(meanings, codes) } as typeof ErrorBody
  }
  return responses
}

/**
 * A module's error codes: `catalogue` (its own codes and meanings), `error(status, code, message)`
 * making an AppError whose code must be a platform code or one of the catalogue's (a typo or
 * another area's code does not compile), and `errors(...)` for its routes' responses, listing
 * those codes with their meanings.
 */
export function errorCatalogue<const C extends ErrorCatalogue>(catalogue: C) {
  type Code = PlatformErrorCode | (keyof C & string)
  const meanings: ErrorCatalogue = { ...PLATFORM_ERRORS, ...catalogue }
  return {
    catalogue,
    error: (status: number, code: Code, message: string, extra?: Record<string, unknown>, headers?: Record<string, string>) =>
      new AppError<Code>(status, code, message, extra, headers),
    errors: <const A extends readonly (number | CodeMap<Code>)[]>(...args: A): ErrorResponses<A> => errorResponses(meanings, args) as ErrorResponses<A>,
  }
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
    at: (e.stack ?? '')
      .split('\n')
      .filter((line) => line.startsWith('    at '))
      .slice(0, 6)
      .map((line) => line.trim()),
  }
}

/**
 * Response entries for the error statuses a route can answer; spread into `response`. A status
 * given as a number gets the generic description; one in a map lists its codes and their
 * meanings: `errors(400, 401, { 404: ['not_found'] })`. Only platform codes: a module's routes
 * use its catalogue's `errors`.
 */
export const { errors } = errorCatalogue({})
