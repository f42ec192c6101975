import { lt } from 'drizzle-orm'
import { CHECK_RETENTION_DAYS, dispatchDueChecks } from './service'
import { checks } from './schema'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'

/** Every minute: queues the checks of monitored sites that are due (one per site per due time). */
export const checkSites: Job<Pick<Deps, 'queue' | 'now'>> = {
  name: 'check-sites',
  schedule: '* * * * *',
  async run(deps, tx) {
    return { queued: await dispatchDueChecks(deps, tx) }
  },
}

/** Checks older than the longest stats window (31 days) are deleted. */
export const pruneSiteChecks: Job<Pick<Deps, 'now'>> = {
  name: 'prune-site-checks',
  schedule: '17 4 * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - CHECK_RETENTION_DAYS * 24 * 3600 * 1000)
    const gone = await tx.delete(checks).where(lt(checks.checkedAt, before)).returning({ id: checks.id })
    return { checks: gone.length }
  },
}
