import { errorCatalogue } from '../../platform/errors'

/** The error codes the customer area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const CUSTOMER_ERRORS = {
  customer_exists: 'a customer with this externalId already exists',
  reserved_external_id: 'external ids starting with `user:` or `alert:` are reserved for the records the service keeps (team members, alert contacts)',
} as const

/** `customerError(status, code, message)` throws only platform or customer codes; `errors(...)` lists them on routes. */
export const { error: customerError, errors } = errorCatalogue(CUSTOMER_ERRORS)
