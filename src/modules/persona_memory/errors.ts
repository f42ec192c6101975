import { isUniqueViolation } from '../../platform/db'
import { errorCatalogue } from '../../platform/errors'

/** The error codes the persona memory area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const PERSONA_MEMORY_ERRORS = {
  persona_not_found: 'personaId names no persona of this ecosystem',
  not_active: 'only an active memory can be superseded or archived',
  not_archived: 'only an archived memory can be restored',
  superseded: 'a superseded memory is final',
  slug_taken: 'an active memory of this owner already has this slug: supersede it instead',
  supersedes_mismatch: 'supersedesId must name a memory of the same persona and scope',
  embedding_unavailable: 'the embedding service cannot embed the query now',
  query_rejected: 'the embedding service refused the query',
} as const

/** `memoryError(status, code, message)` throws only platform or persona memory codes; `errors(...)` lists them on routes. */
export const { error: memoryError, errors } = errorCatalogue(PERSONA_MEMORY_ERRORS)

/** The errors of persona memory, made in one place. */
export const memoryErrors = {
  notFound: () => memoryError(404, 'not_found', 'No such memory'),
  personaNotFound: () => memoryError(404, 'persona_not_found', 'personaId names no persona of this ecosystem'),
  adminOnly: () => memoryError(403, 'forbidden', 'Only ecosystem admins write persona (global) memories'),
  notActive: () => memoryError(409, 'not_active', 'Only an active memory can be superseded or archived'),
  notArchived: () => memoryError(409, 'not_archived', 'Only an archived memory can be restored'),
  superseded: () => memoryError(409, 'superseded', 'A superseded memory is final'),
  slugTaken: () => memoryError(409, 'slug_taken', 'An active memory of this owner already has this slug; supersede it instead'),
  supersedesMismatch: () => memoryError(400, 'supersedes_mismatch', 'supersedesId must name a memory of the same persona and scope'),
  invalidValidity: () => memoryError(400, 'validation_failed', 'validTo must be after validFrom'),
  embeddingUnavailable: (reason: string) => memoryError(503, 'embedding_unavailable', `Cannot embed the query now: ${reason}`),
  queryRejected: (reason: string) => memoryError(400, 'query_rejected', `The embedding service refused the query: ${reason}`),
}

/** Maps the active-slug unique index to 409 `slug_taken`; rethrows anything else. */
export function rethrowSlugTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw memoryErrors.slugTaken()
  throw err
}
