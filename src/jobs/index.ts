import { Cron } from 'croner'
import type { Deps } from '../deps'
import { JOBS } from '../modules'
import { withAdvisoryLock, withSessionLock } from '../platform/db/locks'
import type { Job, JobReport } from '../platform/jobs'

/** Runs one job now under its advisory lock (unless it takes none); `null` when another replica is running it. */
export async function runJob(deps: Deps, job: Job<Deps>): Promise<JobReport | null> {
  if (job.lock === 'none') return job.run(deps, deps.db)
  const name = `job:${job.name}`
  const outcome =
    job.lock === 'session'
      ? await withSessionLock(deps.database, name, () => job.run(deps, deps.db))
      : await withAdvisoryLock(deps.db, name, (tx) => job.run(deps, tx))
  return outcome.skipped ? null : outcome.value
}

/** Schedules every module's jobs (unless JOBS=off); returns a function that stops them. */
export function startJobs(deps: Deps): () => void {
  if (!deps.config.jobs) return () => {}
  const scheduled = JOBS.flatMap((job) => {
    const pattern = typeof job.schedule === 'string' ? job.schedule : job.schedule(deps)
    return pattern ? [{ job, pattern }] : []
  })
  const crons = scheduled.map(
    ({ job, pattern }) =>
      new Cron(pattern, { protect: true, name: job.name }, async () => {
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
  return () => {
    for (const c of crons) c.stop()
  }
}
