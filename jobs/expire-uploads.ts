import { and, eq, inArray, isNull, lt } from 'drizzle-orm'
import { attachments } from '../src/modules/storage/schema'
import type { Job } from './types'
import { deleteObjects } from './storage-objects'

/** Attachments handled per run; a backlog drains over the next runs. */
const BATCH = 500

/**
 * Uploads presigned but never completed within STORAGE_PENDING_TTL_SECONDS: the attachment is
 * removed and whatever bytes arrived are deleted. A complete racing with this either commits first
 * (the row is ready and not touched here) or finds the row gone (404).
 */
export const expireUploads: Job = {
  name: 'expire-uploads',
  // Object deletes wait on the store: hold the lock without a transaction (the row delete is one
  // statement), so a slow store never keeps a transaction — on PGlite, the whole database — open.
  lock: 'session',
  schedule: '*/15 * * * *',
  async run(deps, db) {
    const before = new Date(deps.now().getTime() - deps.config.storage.pendingTtl * 1000)
    const stale = db
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(eq(attachments.status, 'pending'), isNull(attachments.deletedAt), lt(attachments.createdAt, before)))
      .limit(BATCH)
    const expired = await db
      .delete(attachments)
      // Re-checked on the row itself: a complete that committed meanwhile made it ready.
      .where(and(inArray(attachments.id, stale), eq(attachments.status, 'pending')))
      .returning({ objectKey: attachments.objectKey })
    const { deleted, failed } = await deleteObjects(deps, expired.map((r) => r.objectKey))
    return { expired: expired.length, objectsDeleted: deleted, objectsFailed: failed }
  },
}
