import { errorCatalogue } from '../../platform/errors'

/** The error codes the console area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const CONSOLE_ERRORS = {} as const

/** `consoleError(status, code, message)` throws only platform or console codes; `errors(...)` lists them on routes. */
export const { error: consoleError, errors } = errorCatalogue(CONSOLE_ERRORS)
