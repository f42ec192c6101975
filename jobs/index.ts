import { Cron } from 'croner'
import type { Deps } from '../src/deps'
import { withAdvisoryLock } from '../src/platform/db/locks'
import { purgeOAuth } from './purge-oauth'
import { purgeSessions } from './purge-sessions'
import type { Job, JobReport } from './types'

/** Every job Ecobase runs; this is the one place that schedules them. */
export const JOBS: Job[] = [purgeSessions, purgeOAuth]

/** Runs one job now under its advisory lock; `null` when another replica is running it. */
export async function runJob(deps: Deps, job: Job): Promise<JobReport | null> {
  const outcome = await withAdvisoryLock(deps.db, `job:${job.name}`, (tx) => job.run(deps, tx))
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
          if (report) deps.logger.info('job finished', { job: job.name, ...report })
        } catch (err) {
          deps.logger.error('job failed', { job: job.name, error: String(err) })
        }
      }),
  )
  return () => crons.forEach((c) => c.stop())
}
