import { and, eq, inArray, isNull, lt } from 'drizzle-orm'
import { attachments } from '../src/modules/storage/schema'
import type { Job } from './types'

/** Attachments handled per run; a backlog drains over the next runs. */
const BATCH = 500

/**
 * Uploads presigned but never completed within STORAGE_PENDING_TTL_SECONDS: the attachment is
 * removed, and whatever bytes arrived go with the delete-orphaned-objects job (the row delete
 * records the object for it in this transaction). A complete racing with this either commits
 * first (the row is ready and not touched here) or finds the row gone (404).
 */
export const expireUploads: Job = {
  name: 'expire-uploads',
  schedule: '*/15 * * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - deps.config.storage.pendingTtl * 1000)
    const stale = tx
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(eq(attachments.status, 'pending'), isNull(attachments.deletedAt), lt(attachments.createdAt, before)))
      .limit(BATCH)
    const expired = await tx
      .delete(attachments)
      // Re-checked on the row itself: a complete that committed meanwhile made it ready.
      .where(and(inArray(attachments.id, stale), eq(attachments.status, 'pending')))
      .returning({ id: attachments.id })
    return { expired: expired.length }
  },
}
