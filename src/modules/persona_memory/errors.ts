import { AppError } from '../../platform/errors'
import { isUniqueViolation } from '../../platform/db'

/** The error codes of persona memory, in one place. */
export const memoryErrors = {
  notFound: () => new AppError(404, 'not_found', 'No such memory'),
  personaNotFound: () => new AppError(404, 'persona_not_found', 'personaId names no persona of this ecosystem'),
  adminOnly: () => new AppError(403, 'forbidden', 'Only ecosystem admins write persona (global) memories'),
  notActive: () => new AppError(409, 'not_active', 'Only an active memory can be superseded or archived'),
  notArchived: () => new AppError(409, 'not_archived', 'Only an archived memory can be restored'),
  superseded: () => new AppError(409, 'superseded', 'A superseded memory is final'),
  slugTaken: () => new AppError(409, 'slug_taken', 'An active memory of this owner already has this slug; supersede it instead'),
  supersedesMismatch: () => new AppError(400, 'supersedes_mismatch', 'supersedesId must name a memory of the same persona and scope'),
  invalidValidity: () => new AppError(400, 'validation_failed', 'validTo must be after validFrom'),
  embeddingUnavailable: (reason: string) => new AppError(503, 'embedding_unavailable', `Cannot embed the query now: ${reason}`),
  queryRejected: (reason: string) => new AppError(400, 'query_rejected', `The embedding service refused the query: ${reason}`),
}

/** Maps the active-slug unique index to 409 `slug_taken`; rethrows anything else. */
export function rethrowSlugTaken(err: unknown): never {
  if (isUniqueViolation(err)) throw memoryErrors.slugTaken()
  throw err
}
