import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'
import { AuditService } from '../audit/service'
import { Backups, SCHEDULED_JOB } from './backups'

/**
 * BACKUP_SCHEDULE (none by default): queues a backup where the service can make one (embedded, or
 * PostgreSQL with pg_dump on the PATH) and none is still running (Backups.startScheduled); when it
 * completes, the newest BACKUP_KEEP complete backups are kept, and of failed ones as many
 * (Backups.make).
 */
export const scheduledBackup: Job<Deps> = {
  name: SCHEDULED_JOB,
  schedule: (deps) => (new Backups(deps, new AuditService(deps)).available() ? deps.config.backups.schedule : null),
  lock: 'session',
  run: (deps) => new Backups(deps, new AuditService(deps)).startScheduled(),
}

/** Hourly: a backup still `running` long after its job's hour is failed as abandoned (Backups.abandonStale). */
export const abandonedBackups: Job<Deps> = {
  name: 'abandoned-backups',
  schedule: '37 * * * *',
  run: async (deps, tx) => ({ abandoned: await new Backups(deps, new AuditService(deps)).abandonStale(tx) }),
}

/** Hourly, on every replica: what backups that no longer run left on its own disk (Backups.removeLeftovers). */
export const backupLeftovers: Job<Deps> = {
  name: 'backup-leftovers',
  schedule: '39 * * * *',
  lock: 'none',
  run: async (deps) => ({ removed: await new Backups(deps, new AuditService(deps)).removeLeftovers() }),
}
