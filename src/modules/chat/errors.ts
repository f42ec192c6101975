import { errorCatalogue } from '../../platform/errors'

/** The error codes the chat area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const CHAT_ERRORS = {
  in_progress: 'a reply is being streamed for this conversation',
  persona_not_found: 'no persona with this slug in the ecosystem',
  persona_unavailable: 'the persona of this conversation no longer exists',
  not_editable: 'only user messages can be edited',
  nothing_to_regenerate: 'the conversation has no user message to answer',
  client_message_id_reused: 'this clientMessageId was already used for a different message',
} as const

/** `chatError(status, code, message)` throws only platform or chat codes; `errors(...)` lists them on routes. */
export const { error: chatError, errors } = errorCatalogue(CHAT_ERRORS)
