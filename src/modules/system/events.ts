import { defineAuditActions } from '../../platform/events'

/** The audit actions system records (GET /audit/events). */
export const SYSTEM_AUDIT = defineAuditActions('system', {
  'system.backup.started': 'A backup started',
  'system.backup.finished': 'A backup completed',
  'system.backup.failed': 'A backup failed',
  'system.backup.deleted': 'A backup was deleted',
  'system.backup.restored': 'The instance was restored from a backup',
  'system.backup.adopted': 'A backup archive found in the backup folder was listed',
})
