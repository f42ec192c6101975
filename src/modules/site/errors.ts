import { errorCatalogue } from '../../platform/errors'

/** The error codes the site area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const SITE_ERRORS = {} as const

/** `siteError(status, code, message)` throws only platform or site codes; `errors(...)` lists them on routes. */
export const { error: siteError, errors } = errorCatalogue(SITE_ERRORS)
