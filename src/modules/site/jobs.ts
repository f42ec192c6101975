import { and, eq, lt } from 'drizzle-orm'
import { feedItems } from './schema'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'
import { constant } from '../../platform/db'

/** Site feed items read more than FEED_RETENTION_DAYS ago are deleted; unread ones stay. */
export const pruneFeed: Job<Pick<Deps, 'now' | 'config'>> = {
  name: 'prune-feed',
  schedule: '41 3 * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - deps.config.feedRetentionDays * 24 * 3600 * 1000)
    const gone = await tx
      .delete(feedItems)
      .where(and(eq(feedItems.isRead, constant(true)), lt(feedItems.readAt, before)))
      .returning({ id: feedItems.id })
    return { feedItems: gone.length }
  },
}
