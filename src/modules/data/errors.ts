import { errorCatalogue } from '../../platform/errors'

/** The error codes the data area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const DATA_ERRORS = {
  document_not_found: 'documentId names no document of yours',
} as const

/** `dataError(status, code, message)` throws only platform or data codes; `errors(...)` lists them on routes. */
export const { error: dataError, errors } = errorCatalogue(DATA_ERRORS)
