import { and, asc, eq, inArray, isNotNull, isNull, lt, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'
import { attachments, orphanedObjects } from './schema'
import { constant } from '../../platform/db'

/** Rows handled per run (or per round); a backlog drains over the next runs. */
const BATCH = 500

/**
 * Uploads presigned but never completed within STORAGE_PENDING_TTL_SECONDS: the attachment is
 * removed, and whatever bytes arrived go with the delete-orphaned-objects job (the row delete
 * records the object for it in this transaction). A complete racing with this either commits
 * first (the row is ready and not touched here) or finds the row gone (404).
 */
export const expireUploads: Job<Pick<Deps, 'now' | 'config'>> = {
  name: 'expire-uploads',
  schedule: '*/15 * * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - deps.config.storage.pendingTtl * 1000)
    const stale = tx
      .select({ id: attachments.id })
      .from(attachments)
      .where(and(eq(attachments.status, constant('pending')), isNull(attachments.deletedAt), lt(attachments.createdAt, before)))
      .limit(BATCH)
    const expired = await tx
      .delete(attachments)
      // Re-checked on the row itself: a complete that committed meanwhile made it ready.
      .where(and(inArray(attachments.id, stale), eq(attachments.status, constant('pending'))))
      .returning({ id: attachments.id })
    return { expired: expired.length }
  },
}

/**
 * Attachments deleted more than STORAGE_PURGE_AFTER_SECONDS ago are removed. (They stopped
 * counting toward the quota when deleted.) Their bytes go with the delete-orphaned-objects job:
 * the row delete records each object for it in this transaction.
 */
export const purgeAttachments: Job<Pick<Deps, 'now' | 'config'>> = {
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

/** Objects per round of delete-orphaned-objects; a run makes rounds while they come back full and progress is made. */
const MAX_ROUNDS = 20
/** Deletes in flight at once. */
const PARALLEL = 8
/**
 * Margin past an upload URL's expiry for clocks that differ (replicas, the S3 service): until then
 * a client could still PUT the bytes and re-create an object deleted too early.
 */
const CLOCK_SKEW_MS = 5 * 60_000

/**
 * Deletes from the store the objects of attachment rows that are gone (recorded by a trigger in
 * the deleting transaction, see storage.orphaned_objects), then their records. A record stays
 * when the store fails and is retried on a later run, behind the others. Objects of another
 * store kind (STORAGE_DRIVER changed) wait for a server that has that store.
 */
export const deleteOrphanedObjects: Job<Pick<Deps, 'now' | 'config' | 'storage' | 'logger'>> = {
  name: 'delete-orphaned-objects',
  // Object deletes wait on the store: hold the lock without a transaction, so a slow store never
  // keeps a transaction — on PGlite, the whole database — open.
  lock: 'session',
  schedule: '*/5 * * * *',
  async run(deps, db) {
    // Only once no presigned PUT of the attachment can still be used.
    const createdBefore = new Date(deps.now().getTime() - deps.config.storage.urlTtl * 1000 - CLOCK_SKEW_MS)
    let deleted = 0
    let failed = 0
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const due = await db
        .select({ key: orphanedObjects.objectKey })
        .from(orphanedObjects)
        .where(and(eq(orphanedObjects.storageKind, deps.storage.kind), lt(orphanedObjects.attachmentCreatedAt, createdBefore)))
        .orderBy(asc(orphanedObjects.attempts), asc(orphanedObjects.deletedAt))
        .limit(BATCH)
      const outcome = await deleteFromStore(
        deps,
        due.map((r) => r.key),
      )
      if (outcome.deleted.length) await db.delete(orphanedObjects).where(inArray(orphanedObjects.objectKey, outcome.deleted))
      if (outcome.failed.length) {
        await db
          .update(orphanedObjects)
          .set({ attempts: sql`${orphanedObjects.attempts} + 1` })
          .where(inArray(orphanedObjects.objectKey, outcome.failed))
      }
      deleted += outcome.deleted.length
      failed += outcome.failed.length
      if (due.length < BATCH || outcome.deleted.length === 0) break
    }
    return { objectsDeleted: deleted, objectsFailed: failed }
  },
}

/** Deletes a few objects at a time; one failing key is logged and never stops the rest. */
async function deleteFromStore(deps: Pick<Deps, 'storage' | 'logger'>, keys: string[]): Promise<{ deleted: string[]; failed: string[] }> {
  const deleted: string[] = []
  const failed: string[] = []
  for (let i = 0; i < keys.length; i += PARALLEL) {
    await Promise.all(
      keys.slice(i, i + PARALLEL).map(async (key) => {
        try {
          await deps.storage.delete(key)
          deleted.push(key)
        } catch (err) {
          failed.push(key)
          deps.logger.error('storage: could not delete object', { objectKey: key, error: String(err) })
        }
      }),
    )
  }
  return { deleted, failed }
}
