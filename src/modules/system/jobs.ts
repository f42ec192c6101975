import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'
import { Backups, SCHEDULED_JOB } from './backups'

/**
 * BACKUP_SCHEDULE (embedded mode only; none by default): queues a backup; when it completes, the
 * newest BACKUP_KEEP complete backups are kept (Backups.make).
 */
export const scheduledBackup: Job<Deps> = {
  name: SCHEDULED_JOB,
  schedule: (deps) => (deps.database.kind === 'pglite' ? deps.config.backups.schedule : null),
  lock: 'session',
  async run(deps) {
    await new Backups(deps).start(null)
    return { started: 1 }
  },
}
