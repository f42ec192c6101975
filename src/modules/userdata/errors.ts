import { errorCatalogue } from '../../platform/errors'

/** The error codes the userdata area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const USERDATA_ERRORS = {} as const

/** `userdataError(status, code, message)` throws only platform or userdata codes; `errors(...)` lists them on routes. */
export const { error: userdataError, errors } = errorCatalogue(USERDATA_ERRORS)
