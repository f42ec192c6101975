import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../errors'
import { PageQuery, pageParams } from '../../../platform/paging'
import {
  AttachmentListQuery,
  AttachmentPatch,
  StorageAttachmentEnvelope,
  StorageAttachmentPage,
  StorageDeduplicated,
  StorageDownload,
  StoragePresignedUpload,
  StorageQuotaExceeded,
  UploadBody,
  metadataIsObject,
} from '../model'
import type { StorageService } from '../service'
import { IdParam } from '../../../platform/params'
import { sameOrigin } from '../../../platform/cors'

const WHO =
  'The caller is the customer of a customer token, or an account member acting with X-Ecosystem-Id (its own customer record). Attachments are private to that customer.'

export function attachmentRoutes(storage: StorageService, guards: Guards) {
  const { attachments } = storage
  return new Elysia({ name: 'storage-attachments', prefix: '/storage', detail: { tags: ['storage'] } })
    .use(guards.tenancy)
    .post(
      '/uploads',
      async ({ tenant, body, status, request }) => {
        const result = await attachments.presign(tenant, body, sameOrigin(request))
        if (result.deduplicated) return status(200, { attachment: result.attachment, deduplicated: true as const })
        const { deduplicated: _, ...upload } = result
        return status(201, upload)
      },
      {
        tenant: 'customer',
        body: UploadBody,
        transform: metadataIsObject,
        response: {
          200: StorageDeduplicated,
          201: StoragePresignedUpload,
          413: StorageQuotaExceeded,
          ...errors({ 400: ['validation_failed', 'file_too_large'], 402: ['entitlement_exceeded'] }),
        },
        detail: {
          operationId: 'storageUploadCreate',
          summary: 'Start an upload: a pending attachment and a presigned PUT URL',
          description:
            'Bytes never pass through the API. PUT exactly `sizeBytes` bytes to `uploadUrl` with `uploadHeaders` (type, length and SHA-256 are bound by the signature) before `expiresAt`, then call complete. ' +
            'With the local store, `uploadUrl` is at PUBLIC_URL, or, for a same-origin page (its Origin is the address the request reached, e.g. the console opened at 127.0.0.1), at that address. ' +
            '200 StorageDeduplicated: you already have a ready attachment with these bytes; it is returned as it is (PATCH it to rename or re-attach) and nothing is uploaded. ' +
            '413 `quota_exceeded` (StorageQuotaExceeded) when used + sizeBytes would exceed your quota; 402 `entitlement_exceeded` when it would exceed the `storage.bytes` of your billing plan (the tighter wins), counting the bytes of your uploads presigned and not yet completed, deleted or expired (the presign reserves them, so uploads started together cannot pass the plan); 400 `file_too_large` above STORAGE_MAX_UPLOAD_BYTES. ' +
            WHO,
        },
      },
    )
    .post('/attachments/:id/complete', async ({ tenant, params }) => ({ attachment: await attachments.complete(tenant, params.id) }), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: StorageAttachmentEnvelope, 413: StorageQuotaExceeded, ...errors({ 402: ['entitlement_exceeded'], 409: ['upload_incomplete'] }) },
      detail: {
        operationId: 'storageAttachmentComplete',
        summary: 'Confirm the bytes arrived: pending → ready',
        description:
          'Checks the store holds the declared size, then makes the attachment ready and counts it toward your quota and your plan’s `storage.bytes`, both re-checked under a per-customer lock so concurrent completes never pass either together. ' +
          'Idempotent for a ready attachment. 409 `upload_incomplete` when the bytes are missing or of another size; 413 `quota_exceeded` when the quota would now be exceeded, 402 `entitlement_exceeded` when the plan would (a limit lowered since the presign, or an upload completed after its reservation expired); either way the uploaded bytes are deleted and the attachment stays pending. ' +
          WHO,
      },
    })
    .get('/attachments', ({ tenant, query }) => attachments.list(tenant, query, pageParams(query)), {
      tenant: 'customer',
      query: t.Composite([PageQuery, AttachmentListQuery]),
      response: { 200: StorageAttachmentPage },
      detail: { operationId: 'storageAttachmentList', summary: 'Your attachments, newest first (deleted ones excluded)', description: WHO },
    })
    .get('/attachments/:id', async ({ tenant, params }) => ({ attachment: await attachments.get(tenant, params.id) }), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: StorageAttachmentEnvelope },
      detail: { operationId: 'storageAttachmentGet', summary: 'One attachment', description: WHO },
    })
    .patch('/attachments/:id', async ({ tenant, params, body }) => ({ attachment: await attachments.update(tenant, params.id, body) }), {
      tenant: 'customer',
      params: IdParam,
      body: AttachmentPatch,
      transform: metadataIsObject,
      response: { 200: StorageAttachmentEnvelope },
      detail: {
        operationId: 'storageAttachmentUpdate',
        summary: 'Rename, re-attach (ownerType/ownerId) or change metadata',
        description: `The bytes, type, size and hash never change. ${WHO}`,
      },
    })
    .delete(
      '/attachments/:id',
      async ({ tenant, params, status }) => {
        await attachments.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'customer',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }) },
        detail: {
          operationId: 'storageAttachmentDelete',
          summary: 'Delete an attachment',
          description: `Soft delete: it disappears and stops counting toward your quota at once; the bytes are purged after STORAGE_PURGE_AFTER_SECONDS. ${WHO}`,
        },
      },
    )
    .get('/attachments/:id/download', ({ tenant, params, request }) => attachments.download(tenant, params.id, sameOrigin(request)), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: StorageDownload, ...errors({ 409: ['attachment_pending'] }) },
      detail: {
        operationId: 'storageAttachmentDownload',
        summary: 'A presigned download URL',
        description: `The URL serves the bytes with Content-Disposition naming the file, until \`expiresAt\`. 409 \`attachment_pending\` while the upload is not complete. ${WHO}`,
      },
    })
}
