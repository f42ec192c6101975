import { rmSync } from 'node:fs'
import { join } from 'node:path'
import { desc, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import { writeBackup } from '../../platform/backup/archive'
import type { Db } from '../../platform/db'
import { describeError } from '../../platform/errors'
import { listPage, type PageParams } from '../../platform/paging'
import { defineQueueHandler, type QueueHandler } from '../../platform/queue'
import { type AuditBy, AuditLog, systemActor } from '../audit/service'
import { systemError } from './errors'
import { backups } from './schema'

const JOB = 'system-backup'
/** The scheduled job's name (src/modules/system/jobs.ts), the actor of what the schedule does. */
export const SCHEDULED_JOB = 'scheduled-backup'

type BackupRow = typeof backups.$inferSelect

const backupView = (b: BackupRow) => ({
  id: b.id,
  status: b.status,
  sizeBytes: b.sizeBytes,
  error: b.error,
  createdBy: b.createdBy,
  createdAt: b.createdAt.toISOString(),
  completedAt: b.completedAt?.toISOString() ?? null,
})

const notFound = () => systemError(404, 'not_found', 'No such backup')

/**
 * Backups of a running embedded instance, made by a queued job: the same archive as `npx ecobase
 * backup` (platform/backup), under DATA_DIR/backups. With DATABASE_URL the database is backed up
 * with PostgreSQL's tools, so there is nothing for the service to do.
 */
export class Backups {
  private readonly audit: AuditLog

  constructor(private readonly deps: Pick<Deps, 'config' | 'database' | 'db' | 'logger' | 'now' | 'queue' | 'storage'>) {
    this.audit = new AuditLog(deps)
  }

  queueHandlers(): QueueHandler[] {
    // One attempt: a backup that failed is started again by an admin, not retried behind their back.
    return [defineQueueHandler<{ id: string }>({ name: JOB, handle: (job) => this.make(job.id), options: { retryLimit: 0, expireInSeconds: 3600 } })]
  }

  /** How this instance backs up: whether the service can (embedded), the schedule, how many are kept, where they go. */
  settings() {
    const { schedule, keep, target } = this.deps.config.backups
    return { available: this.deps.database.kind === 'pglite', schedule, keep, target }
  }

  /** Queues a backup: asked by a platform admin, or by the schedule (BACKUP_SCHEDULE) with no principal. */
  async start(principal: Principal | null) {
    if (this.deps.database.kind !== 'pglite') {
      throw systemError(409, 'backup_unavailable', 'The database is PostgreSQL (DATABASE_URL): back it up with pg_dump or your provider’s snapshots, and DATA_DIR/objects with your file backups')
    }
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx.insert(backups).values({ createdBy: principal?.userId ?? null, createdAt: this.deps.now() }).returning()
      await this.deps.queue.send(tx, JOB, { id: row!.id })
      await this.audit.record(tx, principal ?? systemActor(SCHEDULED_JOB), { action: 'settings.backup.started', target: { type: 'backup', id: row!.id } })
      return backupView(row!)
    })
  }

  /** Deletes the rows of the complete backups beyond the newest `keep`, in `tx`; answers their ids (the archives go after commit). */
  private async prune(tx: Db, keep: number): Promise<string[]> {
    const old = await tx.select({ id: backups.id }).from(backups).where(eq(backups.status, 'complete')).orderBy(desc(backups.createdAt), desc(backups.id)).offset(keep)
    for (const { id } of old) {
      await tx.delete(backups).where(eq(backups.id, id))
      await this.audit.record(tx, systemActor(SCHEDULED_JOB), { action: 'settings.backup.deleted', target: { type: 'backup', id } })
    }
    return old.map((o) => o.id)
  }

  async list(page: PageParams) {
    return listPage(this.deps.db, backups, undefined, [desc(backups.createdAt), desc(backups.id)], page, backupView)
  }

  /** A complete backup's archive: the file (local target), or a short-lived download URL of the bucket (s3). */
  async archive(id: string): Promise<{ file: ReturnType<typeof Bun.file> } | { url: string }> {
    const [row] = await this.deps.db.select().from(backups).where(eq(backups.id, id))
    if (!row) throw notFound()
    if (row.status !== 'complete') throw systemError(409, 'backup_not_ready', `The backup is ${row.status}`)
    if (this.deps.config.backups.target === 'local') return { file: Bun.file(this.path(id)) }
    const signed = await this.deps.storage.presignGet({ key: this.key(id), filename: `ecobase-backup-${id}.tar.gz`, contentType: 'application/gzip', expiresIn: 300 })
    return { url: signed.url }
  }

  async remove(by: AuditBy, id: string) {
    await this.deps.db.transaction(async (tx) => {
      const [gone] = await tx.delete(backups).where(eq(backups.id, id)).returning({ id: backups.id })
      if (!gone) throw notFound()
      await this.audit.record(tx, by, { action: 'settings.backup.deleted', target: { type: 'backup', id } })
    })
    await this.removeArchive(id)
  }

  private async removeArchive(id: string): Promise<void> {
    rmSync(this.path(id), { force: true })
    rmSync(`${this.path(id)}.partial`, { force: true })
    if (this.deps.config.backups.target === 's3') await this.deps.storage.delete(this.key(id))
  }

  /** Where an archive lives in the bucket (BACKUP_TARGET=s3), beside the attachments. */
  private key(id: string): string {
    return `backups/${id}.tar.gz`
  }

  /** The job: writes the archive, then records how it went. */
  private async make(id: string): Promise<void> {
    const [row] = await this.deps.db.select().from(backups).where(eq(backups.id, id))
    if (!row || row.status !== 'running') return
    try {
      await writeBackup(this.deps.database, this.deps.config.dataDir, this.path(id), () => {})
      const size = Bun.file(this.path(id)).size
      if (this.deps.config.backups.target === 's3') {
        await this.deps.storage.putFile!(this.key(id), this.path(id), size, 'application/gzip')
        rmSync(this.path(id), { force: true })
      }
      // Complete, and with a schedule the oldest beyond BACKUP_KEEP gone (manual ones count too), in one transaction.
      const pruned = await this.deps.db.transaction(async (tx) => {
        await tx.update(backups).set({ status: 'complete', sizeBytes: size, completedAt: this.deps.now() }).where(eq(backups.id, id))
        return this.deps.config.backups.schedule ? this.prune(tx, this.deps.config.backups.keep) : []
      })
      for (const old of pruned) await this.removeArchive(old)
    } catch (err) {
      rmSync(`${this.path(id)}.partial`, { force: true })
      const reason = describeError(err)
      this.deps.logger.error('backup failed', { backupId: id, ...reason })
      await this.deps.db.update(backups).set({ status: 'failed', error: reason.message, completedAt: this.deps.now() }).where(eq(backups.id, id))
    }
    await this.deps.db.transaction((tx) => this.audit.record(tx, systemActor(JOB), { action: 'settings.backup.finished', target: { type: 'backup', id } }))
  }

  private path(id: string): string {
    return join(this.deps.config.dataDir, 'backups', `${id}.tar.gz`)
  }
}
