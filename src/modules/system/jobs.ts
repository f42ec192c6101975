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
