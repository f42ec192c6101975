import { and, inArray, isNotNull, lt } from 'drizzle-orm'
import { attachments } from '../src/modules/storage/schema'
import type { Job } from './types'
import { deleteObjects } from './storage-objects'

const BATCH = 500

/**
 * Bytes of attachments deleted more than STORAGE_PURGE_AFTER_SECONDS ago are deleted from the
 * store, and the rows with them. (They stopped counting toward the quota when deleted.)
 */
export const purgeAttachments: Job = {
  name: 'purge-attachments',
  // Object deletes wait on the store: hold the lock without a transaction (the row delete is one
  // statement), so a slow store never keeps a transaction — on PGlite, the whole database — open.
  lock: 'session',
  schedule: '37 * * * *',
  async run(deps, db) {
    const before = new Date(deps.now().getTime() - deps.config.storage.purgeAfter * 1000)
    const due = db
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(isNotNull(attachments.deletedAt), lt(attachments.deletedAt, before)))
      .limit(BATCH)
    const purged = await db.delete(attachments).where(inArray(attachments.id, due)).returning({ objectKey: attachments.objectKey })
    const { deleted, failed } = await deleteObjects(deps, purged.map((r) => r.objectKey))
    return { purged: purged.length, objectsDeleted: deleted, objectsFailed: failed }
  },
}
