import { embedPending } from './embedding'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'

/** Memories per backfill call. */
const BATCH = 100
/** Calls per run at most: a large backlog drains over the next minutes. */
const MAX_ROUNDS = 20

/**
 * The persona-memory embed backfill for every ecosystem: calls again while the batch was full and
 * progress is made. It waits on the embedding service, so it holds its lock with no transaction open.
 */
export const embedMemories: Job<Deps> = {
  name: 'embed-memories',
  schedule: '* * * * *',
  lock: 'session',
  async run(deps) {
    let embedded = 0
    let failed = 0
    let rounds = 0
    for (;;) {
      const batch = await embedPending(deps, { limit: BATCH })
      rounds++
      embedded += batch.embedded
      failed += batch.failed
      if (!batch.more || batch.embedded === 0 || rounds >= MAX_ROUNDS) break
    }
    return { embedded, failed }
  },
}
