import { errorCatalogue } from '../../platform/errors'

/** The error codes the system area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const SYSTEM_ERRORS = {} as const

/** `systemError(status, code, message)` throws only platform or system codes; `errors(...)` lists them on routes. */
export const { error: systemError, errors } = errorCatalogue(SYSTEM_ERRORS)
