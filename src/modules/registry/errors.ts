import { errorCatalogue } from '../../platform/errors'

/** The error codes the registry area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const REGISTRY_ERRORS = {
  slug_taken: 'the slug (or rdid) is already taken',
  rdid_taken: 'this rdid is already registered',
  unknown_entity_type: 'entityType is not one the registry knows',
  entity_not_found: 'no such entity belongs to the owner of this namespace',
} as const

/** `registryError(status, code, message)` throws only platform or registry codes; `errors(...)` lists them on routes. */
export const { error: registryError, errors } = errorCatalogue(REGISTRY_ERRORS)
