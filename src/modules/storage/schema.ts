import { sql } from 'drizzle-orm'
import { bigint, check, index, integer, jsonb, pgSchema, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { tenantColumns } from '../customer/schema'

export const storageSchema = pgSchema('storage')

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
// Byte counts pass 2^31 (the default quota is 5 GiB) but stay far below 2^53.
const bytes = (name: string) => bigint(name, { mode: 'number' })
const { ecosystemId, customerId } = tenantColumns

/** A file a customer attached; its bytes live in the object store under `objectKey`. */
export const attachments = storageSchema.table(
  'attachments',
  {
    id: uuid('id').primaryKey(),
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    ownerType: text('owner_type').notNull().default('standalone'),
    ownerId: text('owner_id'),
    objectKey: text('object_key').notNull(),
    storageKind: text('storage_kind').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bytes('size_bytes').notNull(),
    contentHash: text('content_hash').notNull(),
    width: integer('width'),
    height: integer('height'),
    durationMs: integer('duration_ms'),
    status: text('status', { enum: ['pending', 'ready'] })
      .notNull()
      .default('pending'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    deletedAt: ts('deleted_at'),
  },
  (t) => [
    uniqueIndex('attachments_object_key_uq').on(t.objectKey),
    index('attachments_customer_idx').on(t.ecosystemId, t.customerId, t.createdAt),
    index('attachments_owner_idx').on(t.ecosystemId, t.customerId, t.ownerType, t.ownerId),
    // Dedupe: a ready, live attachment of this customer with these bytes.
    index('attachments_hash_idx').on(t.ecosystemId, t.customerId, t.contentHash).where(sql`status = 'ready' and deleted_at is null`),
    // Jobs: uploads never completed, and deleted attachments whose bytes await purging.
    index('attachments_pending_idx').on(t.createdAt).where(sql`status = 'pending' and deleted_at is null`),
    index('attachments_deleted_idx').on(t.deletedAt).where(sql`deleted_at is not null`),
    check('attachments_status_ck', sql`${t.status} in ('pending', 'ready')`),
    check('attachments_size_ck', sql`${t.sizeBytes} >= 0`),
  ],
)

/**
 * Objects whose attachment row is gone, awaiting deletion from the store. A trigger on
 * `attachments` (migration storage_orphans) writes one row per deleted attachment in the deleting
 * transaction, whatever deleted it: a purge job, or a cascade from a customer or ecosystem. No
 * foreign keys: these rows must outlive the customer and the ecosystem.
 * The delete-orphaned-objects job (jobs.ts) deletes the objects, then the rows.
 */
export const orphanedObjects = storageSchema.table(
  'orphaned_objects',
  {
    objectKey: text('object_key').primaryKey(),
    storageKind: text('storage_kind').notNull(),
    /** The attachment's presigned PUT URLs were issued then, and can write the object for STORAGE_URL_TTL_SECONDS. */
    attachmentCreatedAt: ts('attachment_created_at').notNull(),
    deletedAt: ts('deleted_at').notNull().defaultNow(),
    /** Failed deletions so far: objects the store keeps refusing go behind the others. */
    attempts: integer('attempts').notNull().default(0),
  },
  (t) => [index('orphaned_objects_queue_idx').on(t.storageKind, t.attempts, t.deletedAt)],
)

/**
 * Bytes of ready, live attachments per customer, maintained in the same transaction as every
 * ready/delete transition so reading usage is one row, whatever the number of attachments. The
 * row is also the per-customer lock that makes the quota check hold under concurrency.
 */
export const storageUsage = storageSchema.table(
  'usage',
  {
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    usedBytes: bytes('used_bytes').notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.customerId] }), check('usage_used_ck', sql`${t.usedBytes} >= 0`)],
)

/** A quota set by an ecosystem admin for one customer; absent = STORAGE_DEFAULT_QUOTA_BYTES. */
export const storageQuotas = storageSchema.table(
  'quotas',
  {
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    quotaBytes: bytes('quota_bytes').notNull(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.customerId] }), check('quotas_bytes_ck', sql`${t.quotaBytes} >= 0`)],
)
