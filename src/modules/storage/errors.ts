import { errorCatalogue } from '../../platform/errors'

/** The error codes the storage area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const STORAGE_ERRORS = {
  quota_exceeded: 'the upload would take the customer past their storage quota (the body says used, quota, requested)',
  upload_incomplete: 'the bytes have not arrived at the store yet, or do not match the declared size and SHA-256',
  attachment_pending: 'the attachment has no bytes yet: upload them and complete it first',
  file_too_large: 'sizeBytes exceeds the largest upload accepted',
} as const

/** `storageError(status, code, message)` throws only platform or storage codes; `errors(...)` lists them on routes. */
export const { error: storageError, errors } = errorCatalogue(STORAGE_ERRORS)

/** The errors the storage area throws, made in one place. */
export const storageErrors = {
  notFound: () => storageError(404, 'not_found', 'No such attachment'),
  quotaExceeded: (used: number, quota: number, requested: number) =>
    storageError(413, 'quota_exceeded', `The upload of ${requested} bytes would exceed the storage quota (${used} of ${quota} bytes used)`, {
      used,
      quota,
      requested,
    }),
  uploadIncomplete: (message: string) => storageError(409, 'upload_incomplete', message),
  pending: () => storageError(409, 'attachment_pending', 'The attachment has no bytes yet: upload them and complete it first'),
  fileTooLarge: (max: number) => storageError(400, 'file_too_large', `sizeBytes exceeds the largest upload accepted (${max} bytes)`),
  noQuotaOverride: () => storageError(404, 'not_found', 'This customer has no quota override'),
}
