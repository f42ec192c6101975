import { errorCatalogue } from '../../platform/errors'

/** The error codes the messaging area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const MESSAGING_ERRORS = {
  template_name_taken: 'another template of this ecosystem has this name',
  no_recipient: 'the customer has no e-mail address or phone number to send to',
  missing_variable: 'the template uses a variable the request gives no value for',
  unsubscribed: 'the customer turned off this channel for the message’s category (notification preferences)',
} as const

/** `messagingError(status, code, message)` throws only platform or messaging codes; `errors(...)` lists them on routes. */
export const { error: messagingError, errors } = errorCatalogue(MESSAGING_ERRORS)
