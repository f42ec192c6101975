import { errorCatalogue } from '../../platform/errors'

/** The error codes the notifications area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const NOTIFICATION_ERRORS = {
  invalid_token: 'the unsubscribe link is not valid',
} as const

/** `notificationError(status, code, message)` throws only platform or notifications codes; `errors(...)` lists them on routes. */
export const { error: notificationError, errors } = errorCatalogue(NOTIFICATION_ERRORS)
