import { AppError } from '../../platform/errors'

/** Every error code the storage area answers (besides the platform's validation/auth codes). */
export const storageErrors = {
  notFound: () => new AppError(404, 'not_found', 'No such attachment'),
  quotaExceeded: (used: number, quota: number, requested: number) =>
    new AppError(413, 'quota_exceeded', `The upload of ${requested} bytes would exceed the storage quota (${used} of ${quota} bytes used)`, {
      used,
      quota,
      requested,
    }),
  uploadIncomplete: (message: string) => new AppError(409, 'upload_incomplete', message),
  pending: () => new AppError(409, 'attachment_pending', 'The attachment has no bytes yet: upload them and complete it first'),
  fileTooLarge: (max: number) => new AppError(400, 'file_too_large', `sizeBytes exceeds the largest upload accepted (${max} bytes)`),
  noQuotaOverride: () => new AppError(404, 'not_found', 'This customer has no quota override'),
}
