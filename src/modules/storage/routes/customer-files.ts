import { Elysia, t } from 'elysia'
import { sameOrigin } from '../../../platform/cors'
import type { Guards } from '../../../platform/guards'
import { PageQuery, pageParams } from '../../../platform/paging'
import { errors } from '../errors'
import { AttachmentListQuery, StorageAttachmentPage, StorageDownload } from '../model'
import type { StorageService } from '../service'

const CustomerParam = t.Object({ customerId: t.String({ format: 'uuid', description: 'The customer id' }) })
const FileParams = t.Object({ customerId: t.String({ format: 'uuid', description: 'The customer id' }), id: t.String({ format: 'uuid' }) })
const ADMIN =
  'Needs an account credential with the admin or owner role in the ecosystem (X-Ecosystem-Id); a customer token is 403, and so is a team member’s own record (`user:<id>`: no admin reads a fellow member’s files). 404 when the customer is not in the ecosystem, or the attachment is not theirs (or is deleted).'

/** Ecosystem admins browsing a customer's files (the console's Storage page): list, download, delete. */
export function customerFileRoutes(storage: StorageService, guards: Guards) {
  const { customerFiles } = storage
  return new Elysia({ name: 'storage-customer-files', prefix: '/storage/customers/:customerId', detail: { tags: ['storage'] } })
    .use(guards.tenancy)
    .get('/attachments', ({ tenant, params, query }) => customerFiles.list(tenant, params.customerId, query, pageParams(query)), {
      tenant: 'admin',
      params: CustomerParam,
      query: t.Composite([PageQuery, AttachmentListQuery]),
      response: { 200: StorageAttachmentPage },
      detail: {
        operationId: 'storageCustomerAttachmentList',
        summary: "A customer's attachments, newest first (deleted ones excluded)",
        description: `What GET /storage/attachments shows the customer, with the same filters. ${ADMIN}`,
      },
    })
    .get('/attachments/:id/download', ({ tenant, params, request }) => customerFiles.download(tenant, params.customerId, params.id, sameOrigin(request)), {
      tenant: 'admin',
      params: FileParams,
      response: { 200: StorageDownload, ...errors({ 409: ['attachment_pending'] }) },
      detail: {
        operationId: 'storageCustomerAttachmentDownload',
        summary: "A presigned download URL for a customer's attachment",
        description: `As the customer's own download: the URL serves the bytes with Content-Disposition naming the file, until \`expiresAt\` (the console also shows images and text from it). 409 \`attachment_pending\` while the upload is not complete. ${ADMIN}`,
      },
    })
    .delete(
      '/attachments/:id',
      async ({ tenant, params, status }) => {
        await customerFiles.remove(tenant, params.customerId, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: FileParams,
        response: { 204: t.Void({ description: 'Deleted' }) },
        detail: {
          operationId: 'storageCustomerAttachmentDelete',
          summary: "Delete a customer's attachment",
          description: `As the customer's own delete: it disappears and stops counting toward the customer's quota at once; the bytes are purged after STORAGE_PURGE_AFTER_SECONDS. Recorded in the audit log (\`storage.attachment.deleted\`). ${ADMIN}`,
        },
      },
    )
}
