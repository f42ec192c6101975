import { errorCatalogue } from '../../platform/errors'

/** The error codes the monitored sites area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const MONITORED_SITES_ERRORS = {} as const

/** `monitoredSitesError(status, code, message)` throws only platform or monitored sites codes; `errors(...)` lists them on routes. */
export const { error: monitoredSitesError, errors } = errorCatalogue(MONITORED_SITES_ERRORS)
