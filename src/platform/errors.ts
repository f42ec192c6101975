import { t } from 'elysia'

/**
 * Every `error.code` the API answers, closed: AppError takes only these, and the OpenAPI document
 * lists them on the Error schema, so the typed client's ErrorCode is this union. A new code is
 * added here first (an additive change for clients).
 */
export const ERROR_CODES = [
  'already_member', 'ambiguous_slug', 'attachment_pending', 'base_url_not_allowed',
  'base_url_required', 'category_not_empty', 'category_not_found', 'client_message_id_reused', 'conflict',
  'customer_exists', 'default_category', 'document_not_found', 'ecosystem_required', 'email_taken',
  'embedding_unavailable', 'entity_not_found', 'file_too_large', 'forbidden', 'in_progress',
  'insufficient_scope', 'internal_error', 'invalid_base_url', 'invalid_client', 'invalid_cookie',
  'invalid_credentials', 'invalid_json', 'invalid_redirect_uri', 'invalid_refresh_token', 'invalid_request',
  'invalid_scope', 'invalid_token', 'last_owner', 'length_required', 'limit_reached', 'missing_variable',
  'no_recipient', 'not_active', 'not_archived', 'not_editable', 'not_found', 'nothing_to_regenerate',
  'origin_not_allowed', 'payload_too_large', 'persona_not_found', 'persona_unavailable', 'query_rejected',
  'quota_exceeded', 'rate_limited', 'rdid_taken', 'registration_disabled', 'reserved_external_id',
  'service_not_found', 'slug_taken', 'superseded', 'supersedes_mismatch', 'template_name_taken',
  'thread_locked', 'thread_not_found', 'token_expired', 'unauthorized', 'unknown_entity_type',
  'unknown_template', 'unsupported_media_type', 'unsupported_response_type', 'upload_incomplete',
  'user_not_found', 'validation_failed',
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

/** The one error type services throw; `onError` in app.ts renders it as ErrorBody. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
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
      code: t.Union([t.UnionEnum(ERROR_CODES), t.String()], {
        description: 'Stable snake_case error code: one of the listed ones (the operation says which it answers); more may be added, so treat an unknown one like its status',
      }),
    }),
  },
  { title: 'Error' },
)

export function errorBody(code: ErrorCode, message: string) {
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
