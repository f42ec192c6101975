import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm'
import type { Deps } from '../src/deps'
import { orphanedObjects } from '../src/modules/storage/schema'
import type { Job } from './types'

/** Objects per round; a run makes rounds while they come back full and progress is made. */
const BATCH = 500
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
export const deleteOrphanedObjects: Job = {
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
      const outcome = await deleteFromStore(deps, due.map((r) => r.key))
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
async function deleteFromStore(deps: Deps, keys: string[]): Promise<{ deleted: string[]; failed: string[] }> {
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
