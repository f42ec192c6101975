import type { Deps } from '../src/deps'

/**
 * Deletes objects a few at a time. A failure is logged and counted, not thrown: the rows are gone
 * either way (an orphaned object costs bytes, never correctness), and one bad key must not keep
 * the rest of the batch from being deleted.
 */
export async function deleteObjects(deps: Deps, keys: string[]): Promise<{ deleted: number; failed: number }> {
  let deleted = 0
  let failed = 0
  for (let i = 0; i < keys.length; i += 8) {
    await Promise.all(
      keys.slice(i, i + 8).map(async (key) => {
        try {
          await deps.storage.delete(key)
          deleted++
        } catch (err) {
          failed++
          deps.logger.error('storage: could not delete object', { objectKey: key, error: String(err) })
        }
      }),
    )
  }
  return { deleted, failed }
}
