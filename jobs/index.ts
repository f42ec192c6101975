import { Cron } from 'croner'
import type { Deps } from '../src/deps'
import { withAdvisoryLock, withSessionLock } from '../src/platform/db/locks'
import { checkSites, pruneSiteChecks } from './check-sites'
import { deleteOrphanedObjects } from './delete-orphaned-objects'
import { embedMemories } from './embed-memories'
import { expireUploads } from './expire-uploads'
import { pruneFeed } from './prune-feed'
import { purgeAttachments } from './purge-attachments'
import { purgeOAuth } from './purge-oauth'
import { purgeSessions } from './purge-sessions'
import type { Job, JobReport } from './types'

/** Every job Ecobase runs; this is the one place that schedules them. */
export const JOBS: Job[] = [purgeSessions, purgeOAuth, expireUploads, purgeAttachments, deleteOrphanedObjects, embedMemories, pruneFeed, checkSites, pruneSiteChecks]

/** Runs one job now under its advisory lock; `null` when another replica is running it. */
export async function runJob(deps: Deps, job: Job): Promise<JobReport | null> {
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
