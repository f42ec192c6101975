import { Type } from '@sinclair/typebox'
import { t } from 'elysia'
import { AppError, ErrorBody } from '../../platform/errors'
import { paged } from '../../platform/paging'

/**
 * A plain JSON integer. Elysia's `t.Integer` also accepts numeric strings (for query strings) and
 * documents itself as `anyOf: [string, integer]`; bodies and responses here are JSON numbers.
 */
const Int = Type.Integer

const Filename = t.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^[^\\u0000-\\u001f\\u007f]+$',
  description: 'File name shown on download (no control characters)',
})
const ContentType = t.String({
  maxLength: 255,
  pattern:
    '^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\\s*;\\s*[A-Za-z0-9!#$&^_.+-]+=("[^"\\u0000-\\u001f]*"|[A-Za-z0-9!#$&^_.+-]+))*$',
  description: 'MIME type, e.g. `image/png`; the upload must send exactly this Content-Type',
})
const OwnerType = t.String({ pattern: '^[a-z][a-z0-9_]{0,49}$', description: 'What the file is attached to, e.g. `standalone`, `chat_message`, `document`' })
const OwnerId = t.String({ minLength: 1, maxLength: 255, description: "Id of the owning record (your own or Ecobase's)" })
const Metadata = t.Record(t.String(), t.Unknown(), { description: 'Caller-supplied JSON, stored as given' })
const Dimension = Int({ minimum: 0, maximum: 2147483647 })
const attachmentExample = {
  id: '3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a',
  ecosystemId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
  ownerType: 'standalone',
  ownerId: null,
  objectKey: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d/5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170/3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a',
  storageKind: 'local',
  filename: 'boarding-pass.pdf',
  contentType: 'application/pdf',
  sizeBytes: 48213,
  contentHash: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  width: null,
  height: null,
  durationMs: null,
  status: 'ready',
  metadata: null,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
  deletedAt: null,
}

const Status = t.Union([t.Literal('pending'), t.Literal('ready')], { title: 'StorageStatus' })

export const StorageAttachment = t.Object(
  {
    id: t.String(),
    ecosystemId: t.String(),
    customerId: t.String(),
    ownerType: t.String({ description: 'For example standalone, chat_message, document' }),
    ownerId: t.Optional(t.Nullable(t.String())),
    objectKey: t.String({ description: 'Key in the object store that the presigned URLs address' }),
    storageKind: t.String({ description: 'Backing store kind: `local` or `s3`' }),
    filename: t.String(),
    contentType: t.String(),
    sizeBytes: Int(),
    contentHash: t.String({ description: 'SHA-256 of the bytes, lowercase hex' }),
    width: t.Optional(t.Nullable(Int())),
    height: t.Optional(t.Nullable(Int())),
    durationMs: t.Optional(t.Nullable(Int())),
    status: t.String({ description: '`pending` (bytes awaited) or `ready` (counts toward the quota)' }),
    metadata: t.Optional(t.Nullable(t.Record(t.String(), t.Unknown()))),
    createdAt: t.String(),
    updatedAt: t.String(),
    deletedAt: t.Optional(t.Nullable(t.String())),
  },
  { title: 'StorageAttachment', examples: [attachmentExample] },
)

/** A page of attachments: the customer's own list and an admin's list of a customer's. */
export const StorageAttachmentPage = paged(StorageAttachment, 'StorageAttachmentPage')

export const StoragePresignedUpload = t.Object(
  {
    attachment: StorageAttachment,
    uploadUrl: t.String({ format: 'uri', description: 'Presigned PUT URL: send the bytes here, directly' }),
    uploadMethod: t.Literal('PUT'),
    uploadHeaders: t.Record(t.String(), t.String(), {
      description: 'Headers the PUT must carry exactly (they are signed); Content-Length follows from the body',
    }),
    expiresAt: t.String({ description: 'When uploadUrl stops working' }),
  },
  {
    title: 'StoragePresignedUpload',
    examples: [
      {
        attachment: { ...attachmentExample, status: 'pending' },
        uploadUrl:
          'https://api.example.com/storage/objects/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d/5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170/3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a?expires=1795684500&length=48213&sha256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08&type=application%2Fpdf&signature=example-signature',
        uploadMethod: 'PUT',
        uploadHeaders: { 'content-type': 'application/pdf' },
        expiresAt: '2026-11-26T09:15:00.000Z',
      },
    ],
  },
)

export const StorageDeduplicated = t.Object(
  { attachment: StorageAttachment, deduplicated: t.Literal(true) },
  {
    title: 'StorageDeduplicated',
    examples: [{ attachment: attachmentExample, deduplicated: true }],
    description: 'The caller already has these bytes (ready); nothing to upload',
  },
)

export const StorageQuotaExceeded = t.Object(
  {
    error: ErrorBody.properties.error,
    used: Int({ description: 'Bytes used by ready attachments' }),
    quota: Int({ description: "The caller's total quota in bytes" }),
    requested: Int({ description: 'Declared size of the rejected upload' }),
  },
  { title: 'StorageQuotaExceeded' },
)

export const StorageAttachmentEnvelope = t.Object(
  { attachment: StorageAttachment },
  { title: 'StorageAttachmentEnvelope', examples: [{ attachment: attachmentExample }] },
)

export const StorageDownload = t.Object(
  {
    url: t.String({ format: 'uri', description: 'Presigned GET URL; the response names the file (Content-Disposition)' }),
    expiresAt: t.String({ description: 'When url stops working' }),
  },
  {
    title: 'StorageDownload',
    examples: [
      {
        url: 'https://api.example.com/storage/objects/9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d/5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170/3c2b1a09-8f7e-4d6c-9b5a-4f3e2d1c0b9a?expires=1795684800&filename=boarding-pass.pdf&type=application%2Fpdf&signature=example-signature',
        expiresAt: '2026-11-26T09:20:00.000Z',
      },
    ],
  },
)

export const UsageStorageQuota = t.Object(
  {
    quotaBytes: Int({ description: 'Per-user quota: the override, else the default (5 GiB unless configured)' }),
    usageBytes: Int({ description: 'Bytes of ready, non-deleted attachments' }),
    availableBytes: Int({ description: 'max(0, quotaBytes - usageBytes)' }),
  },
  { title: 'UsageStorageQuota', examples: [{ quotaBytes: 5368709120, usageBytes: 48213, availableBytes: 5368660907 }] },
)

export const UsageStorageQuotaRow = t.Object(
  {
    userId: t.String({ description: 'The customer id' }),
    ownerId: t.String({ description: 'The ecosystem id the override is scoped to' }),
    quotaBytes: Int(),
    updatedAt: t.String(),
  },
  {
    title: 'UsageStorageQuotaRow',
    examples: [
      {
        userId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        quotaBytes: 10737418240,
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)

export const UploadBody = t.Object(
  {
    filename: Filename,
    contentType: ContentType,
    sizeBytes: Int({ minimum: 0, description: 'Exact size of the bytes to upload' }),
    contentHash: t.String({ pattern: '^[0-9a-fA-F]{64}$', description: 'SHA-256 of the bytes, hex' }),
    ownerType: t.Optional(OwnerType),
    ownerId: t.Optional(t.Nullable(OwnerId)),
    metadata: t.Optional(t.Nullable(Metadata)),
    width: t.Optional(t.Nullable(Dimension)),
    height: t.Optional(t.Nullable(Dimension)),
    durationMs: t.Optional(t.Nullable(Dimension)),
  },
  {
    title: 'StorageUpload',
    examples: [
      {
        filename: 'boarding-pass.pdf',
        contentType: 'application/pdf',
        sizeBytes: 48213,
        contentHash: '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      },
    ],
  },
)

export const AttachmentPatch = t.Object(
  {
    filename: t.Optional(Filename),
    metadata: t.Optional(t.Nullable(Metadata)),
    ownerType: t.Optional(OwnerType),
    ownerId: t.Optional(t.Nullable(OwnerId)),
    width: t.Optional(t.Nullable(Dimension)),
    height: t.Optional(t.Nullable(Dimension)),
    durationMs: t.Optional(t.Nullable(Dimension)),
  },
  { title: 'StorageAttachmentPatch', examples: [{ filename: 'boarding-pass-lisbon.pdf', metadata: { trip: 'lisbon-2027' } }], minProperties: 1 },
)

/**
 * A route `transform`: `metadata` must be a JSON object (or null). The schema says so, but Elysia
 * reshapes a body to its schema before it validates it (exact mirror), turning `5` into `{}` and
 * `"ab"` or `[1]` into `{"0": …}`, so the check has to see the body as it was sent.
 */
export function metadataIsObject({ body }: { body: unknown }): void {
  const metadata = body !== null && typeof body === 'object' && Object.hasOwn(body, 'metadata') ? (body as { metadata: unknown }).metadata : undefined
  if (metadata === undefined || metadata === null) return
  if (typeof metadata !== 'object' || Array.isArray(metadata)) throw new AppError(400, 'validation_failed', 'body.metadata: must be a JSON object (or null)')
}

export const AttachmentListQuery = t.Object({
  ownerType: t.Optional(OwnerType),
  ownerId: t.Optional(OwnerId),
  status: t.Optional(Status),
})

export const QuotaBody = t.Object(
  { quotaBytes: Int({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description: 'Total bytes this customer may keep (at most 2^53 − 1)' }) },
  { title: 'StorageQuota', examples: [{ quotaBytes: 10737418240 }] },
)
