import { errorCatalogue } from '../../platform/errors'

/** The error codes the contract area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const CONTRACT_ERRORS = {
  limit_reached: 'the ecosystem has as many contracts as it may have',
} as const

/** `contractError(status, code, message)` throws only platform or contract codes; `errors(...)` lists them on routes. */
export const { error: contractError, errors } = errorCatalogue(CONTRACT_ERRORS)
