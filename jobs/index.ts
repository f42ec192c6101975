import { Cron } from 'croner'
import type { Deps } from '../src/deps'
import { withAdvisoryLock, withSessionLock } from '../src/platform/db/locks'
import { pruneAudit } from '../src/modules/audit/jobs'
import { purgeSessions } from '../src/modules/auth/jobs'
import { purgeCustomerSessions } from '../src/modules/customer/jobs'
import { pruneSendClaims } from '../src/modules/messaging/jobs'
import { checkSites, pruneSiteChecks } from '../src/modules/monitored_sites/jobs'
import { purgeOAuth } from '../src/modules/oauth/jobs'
import { embedMemories } from '../src/modules/persona_memory/jobs'
import { pruneFeed } from '../src/modules/site/jobs'
import { deleteOrphanedObjects, expireUploads, purgeAttachments } from '../src/modules/storage/jobs'
import type { Job, JobReport } from '../src/platform/jobs'

/** Every job Ecobase runs (each defined in the module whose tables it keeps); this is the one place that schedules them. */
export const JOBS: Job<Deps>[] = [purgeSessions, purgeCustomerSessions, purgeOAuth, expireUploads, purgeAttachments, deleteOrphanedObjects, embedMemories, pruneFeed, checkSites, pruneSiteChecks, pruneSendClaims, pruneAudit]

/** Runs one job now under its advisory lock; `null` when another replica is running it. */
export async function runJob(deps: Deps, job: Job<Deps>): Promise<JobReport | null> {
  const name = `job:${job.name}`
  const outcome =
    job.lock === 'session'
      ? await withSessionLock(deps.database, name, () => job.run(deps, deps.db))
      : await withAdvisoryLock(deps.db, name, (tx) => job.run(deps, tx))
  return outcome.skipped ? null : outcome.value
}

/** Schedules every job (unless JOBS=off); returns a function that stops them. */
export function startJobs(deps: Deps): () => void {
  if (!deps.config.jobs) return () => {}
  const crons = JOBS.map(
    (job) =>
      new Cron(job.schedule, { protect: true, name: job.name }, async () => {
        try {
          const report = await runJob(deps, job)
          // A run that found nothing to do (every count 0) is only worth a debug line: some jobs run every minute.
          const log = report && Object.values(report).some((n) => n !== 0) ? deps.logger.info : deps.logger.debug
          if (report) log('job finished', { job: job.name, ...report })
        } catch (err) {
          deps.logger.error('job failed', { job: job.name, error: String(err) })
        }
      }),
  )
  return () => crons.forEach((c) => c.stop())
}
