import { lt } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Job } from '../../platform/jobs'
import { auditEvents } from './schema'

/** Audit events older than AUDIT_RETENTION_DAYS are deleted, daily. */
export const pruneAudit: Job<Pick<Deps, 'now' | 'config'>> = {
  name: 'prune-audit',
  schedule: '17 4 * * *',
  async run(deps, tx) {
    const before = new Date(deps.now().getTime() - deps.config.auditRetentionDays * 24 * 3600 * 1000)
    const gone = await tx.delete(auditEvents).where(lt(auditEvents.at, before)).returning({ id: auditEvents.id })
    return { auditEvents: gone.length }
  },
}
