import { and, inArray, isNotNull, lt } from 'drizzle-orm'
import { attachments } from '../src/modules/storage/schema'
import type { Job } from './types'

const BATCH = 500

/**
 * Attachments deleted more than STORAGE_PURGE_AFTER_SECONDS ago are removed. (They stopped
 * counting toward the quota when deleted.) Their bytes go with the delete-orphaned-objects job:
 * the row delete records each object for it in this transaction.
 */
export const purgeAttachments: Job = {
  name: 'purge-attachments',
  schedule: '37 * * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - deps.config.storage.purgeAfter * 1000)
    const due = tx
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(isNotNull(attachments.deletedAt), lt(attachments.deletedAt, before)))
      .limit(BATCH)
    const purged = await tx.delete(attachments).where(inArray(attachments.id, due)).returning({ id: attachments.id })
    return { purged: purged.length }
  },
}
