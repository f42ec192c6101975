import { errorCatalogue } from '../../platform/errors'

/** The error codes the search area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const SEARCH_ERRORS = {} as const

/** `searchError(status, code, message)` throws only platform or search codes; `errors(...)` lists them on routes. */
export const { error: searchError, errors } = errorCatalogue(SEARCH_ERRORS)
