import { errorCatalogue } from '../../platform/errors'

/** The error codes the realtime area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const REALTIME_ERRORS = {
  unknown_topic: 'A topic names no realtime topic, or narrows one that cannot be narrowed (400)',
  invalid_cursor: 'Last-Event-ID or `since` is not a cursor this service sent (400)',
} as const

/** `realtimeError(status, code, message)` throws only platform or realtime codes; `errors(...)` lists them on routes. */
export const { error: realtimeError, errors } = errorCatalogue(REALTIME_ERRORS)
