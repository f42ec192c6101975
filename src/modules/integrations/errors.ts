import { errorCatalogue } from '../../platform/errors'

/** The error codes the integrations area answers besides the platform's: none yet (code → meaning, shown in the OpenAPI document). */
export const INTEGRATIONS_ERRORS = {} as const

/** `integrationsError(status, code, message)` throws only platform or integrations codes; `errors(...)` lists them on routes. */
export const { error: integrationsError, errors } = errorCatalogue(INTEGRATIONS_ERRORS)
