import { errorCatalogue } from '../../platform/errors'

/** The error codes the settings area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const SETTINGS_ERRORS = {} as const

/** `settingsError(status, code, message)` throws only platform or settings codes; `errors(...)` lists them on routes. */
export const { error: settingsError, errors } = errorCatalogue(SETTINGS_ERRORS)
