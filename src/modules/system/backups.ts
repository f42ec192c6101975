import { existsSync, readdirSync, statSync } from 'node:fs'
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { and, desc, eq, gt, inArray, lt } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import { type BackupManifest, writeBackup } from '../../platform/backup/archive'
import { BackupError, BackupInterrupted, pgTool, snapshotDatabase } from '../../platform/backup/database'
import type { Db } from '../../platform/db'
import { lockInTransaction } from '../../platform/db/locks'
import { describeError } from '../../platform/errors'
import { listPage, type PageParams } from '../../platform/paging'
import { UUID_PATTERN } from '../../platform/params'
import { defineQueueHandler, type QueueHandler } from '../../platform/queue'
import { type AuditBy, AuditService, systemActor } from '../audit/service'
import { accountDirectory } from '../auth/directory'
import { systemError } from './errors'
import { backups } from './schema'

const JOB = 'system-backup'
/** How long a backup's job may run (its queue expiry): a `running` row older than that will not finish. */
const JOB_EXPIRE_SECONDS = 3600
/**
 * Where pg-boss moves a backup's job that ended failed: the replica running it died mid-backup
 * (kill -9, a lost machine: its heartbeat stopped), or it ran past JOB_EXPIRE_SECONDS. A backup
 * that fails on its own is recorded by `make`, whose job then completes.
 */
const ABANDONED_JOB = 'system-backup-abandoned'
/** The scheduled job's name (src/modules/system/jobs.ts), the actor of what the schedule does. */
export const SCHEDULED_JOB = 'scheduled-backup'
/** An archive of DATA_DIR/backups: `<id>.tar.gz`, or `<id>.tar.gz.enc` when encrypted. */
const ARCHIVE_FILE = new RegExp(`^(${UUID_PATTERN})\\.tar\\.gz(\\.enc)?$`)
/** What a running backup keeps in DATA_DIR/backups: its copy of the database, and its archive until it is whole. */
const LEFTOVER = new RegExp(`^(?:\\.work-(${UUID_PATTERN})|(${UUID_PATTERN})\\.tar\\.gz(?:\\.enc)?\\.partial)$`)
/** A `running` row older than its job's hour and pg-boss's time to dead-letter that job (its supervision passes) has no job left. */
const ABANDONED_AFTER_SECONDS = JOB_EXPIRE_SECONDS + 15 * 60

type BackupRow = typeof backups.$inferSelect

const backupView = (b: BackupRow) => ({
  id: b.id,
  status: b.status,
  sizeBytes: b.sizeBytes,
  encrypted: b.encrypted,
  error: b.error,
  createdBy: b.createdBy,
  createdAt: b.createdAt.toISOString(),
  completedAt: b.completedAt?.toISOString() ?? null,
  restoredAt: b.restoredAt?.toISOString() ?? null,
})

/**
 * Removes a backup's files (what a failed one left, or an archive pruned), if it can (the failure
 * may be the disk itself). Off the event loop: deleting gigabytes of files with rmSync held every
 * request of the server for as long as it took (P16).
 */
async function discard(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true }).catch(() => {})
}

/** A backup whose job ended without finishing it: the replica running it died. */
class BackupAbandoned extends BackupError {
  constructor() {
    super('interrupted: the backup’s job ended without finishing it (the server running it was killed, or its machine lost); nothing of it was kept')
  }
}

const notFound = () => systemError(404, 'not_found', 'No such backup')
const archiveName = (id: string, encrypted: boolean) => `${id}.tar.gz${encrypted ? '.enc' : ''}`

/** Sends the instance's own e-mail (messaging's instance sender). */
export type AdminMailer = (to: string, content: { subject: string; text: string }) => Promise<{ ok: true } | { ok: false; error: string }>

/**
 * Backups of a running instance, made by a queued job: the same archive as `npx ecobase backup`
 * (platform/backup), under DATA_DIR/backups (or the bucket). Embedded: the database's files;
 * PostgreSQL: pg_dump's, when it is on the PATH.
 */
export class Backups {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'database' | 'db' | 'logger' | 'now' | 'queue' | 'shutdown' | 'storage'>,
    private readonly audit: AuditService,
    /** Tells the platform admins a backup failed; absent where nothing runs jobs (the schedule's tick only queues). */
    private readonly mail?: AdminMailer,
  ) {}

  queueHandlers(): QueueHandler[] {
    // One attempt: a backup that failed is started again by an admin, not retried behind their back.
    return [
      defineQueueHandler<{ id: string }>({ name: ABANDONED_JOB, handle: (job) => this.abandoned(job.id) }),
      defineQueueHandler<{ id: string }>({
        name: JOB,
        handle: (job) => this.make(job.id),
        options: { retryLimit: 0, expireInSeconds: JOB_EXPIRE_SECONDS, deadLetter: ABANDONED_JOB },
      }),
    ]
  }

  /** Whether the service can back itself up: always embedded; with PostgreSQL when pg_dump is on the PATH. */
  available(): boolean {
    return this.deps.database.kind === 'pglite' || Boolean(this.deps.config.databaseUrl && pgTool('pg_dump'))
  }

  /** How this instance backs up, and how old its last complete backup is. */
  async settings() {
    const { schedule, keep, target, keys } = this.deps.config.backups
    const at = await this.lastCompleteAt()
    return {
      available: this.available(),
      schedule,
      keep,
      target,
      encrypted: keys.length > 0,
      lastCompleteAt: at?.toISOString() ?? null,
      lastCompleteAgeSeconds: this.ageSeconds(at),
    }
  }

  /** How long ago the newest complete backup finished, in whole seconds; null: none has. */
  async lastCompleteAgeSeconds(): Promise<number | null> {
    return this.ageSeconds(await this.lastCompleteAt())
  }

  private async lastCompleteAt(): Promise<Date | null> {
    const [last] = await this.deps.db
      .select({ at: backups.completedAt })
      .from(backups)
      .where(eq(backups.status, 'complete'))
      .orderBy(desc(backups.completedAt))
      .limit(1)
    return last?.at ?? null
  }

  private ageSeconds(at: Date | null): number | null {
    return at ? Math.max(0, Math.floor((this.deps.now().getTime() - at.getTime()) / 1000)) : null
  }

  /** Queues a backup asked for by a platform admin; 409 while one is still running. */
  async start(principal: Principal) {
    const queued = await this.enqueue(principal)
    if ('running' in queued) {
      throw systemError(409, 'backup_in_progress', `The backup ${queued.running} is still running: follow it in the list, and start another once it is done`)
    }
    return queued.backup
  }

  /** The schedule's tick (BACKUP_SCHEDULE): queues a backup, or logs that it skipped one while a backup is still running. */
  async startScheduled(): Promise<{ started: number }> {
    const queued = await this.enqueue(null)
    if ('backup' in queued) return { started: 1 }
    this.deps.logger.info('scheduled backup skipped: a backup is still running', { backupId: queued.running })
    return { started: 0 }
  }

  /**
   * Queues a backup unless one is still running (begun within its job's JOB_EXPIRE_SECONDS):
   * backups slower than the schedule's interval, or asked for again, would otherwise queue up
   * behind each other, each archiving everything again. An older `running` row will not finish,
   * and holds nothing up. The check and the insert hold one lock, on every replica.
   */
  private async enqueue(principal: Principal | null): Promise<{ backup: ReturnType<typeof backupView> } | { running: string }> {
    if (!this.available()) {
      throw systemError(
        409,
        'backup_unavailable',
        'The database is PostgreSQL (DATABASE_URL) and pg_dump is not on the server’s PATH: install the PostgreSQL client (postgresql-client), or back the database up with pg_dump or your provider’s snapshots, and DATA_DIR/auth-secret (the server key, unless AUTH_SECRET is set) and DATA_DIR/objects with your file backups',
      )
    }
    return this.deps.db.transaction(async (tx) => {
      await lockInTransaction(tx, JOB)
      const since = new Date(this.deps.now().getTime() - JOB_EXPIRE_SECONDS * 1000)
      const [running] = await tx
        .select({ id: backups.id })
        .from(backups)
        .where(and(eq(backups.status, 'running'), gt(backups.createdAt, since)))
        .limit(1)
      if (running) return { running: running.id }
      const [row] = await tx
        .insert(backups)
        .values({ createdBy: principal?.userId ?? null, createdAt: this.deps.now(), encrypted: this.deps.config.backups.keys.length > 0 })
        .returning()
      await this.deps.queue.send(tx, JOB, { id: row!.id })
      await this.audit.record(tx, principal ?? systemActor(SCHEDULED_JOB), { action: 'system.backup.started', target: { type: 'backup', id: row!.id } })
      return { backup: backupView(row!) }
    })
  }

  /** Deletes the rows with `status` beyond the newest `keep`, in `tx`; answers them (the archives go after commit). */
  private async prune(tx: Db, status: 'complete' | 'failed', keep: number): Promise<BackupRow[]> {
    const old = await tx.select().from(backups).where(eq(backups.status, status)).orderBy(desc(backups.createdAt), desc(backups.id)).offset(keep)
    for (const { id } of old) {
      await tx.delete(backups).where(eq(backups.id, id))
      await this.audit.record(tx, systemActor(SCHEDULED_JOB), { action: 'system.backup.deleted', target: { type: 'backup', id } })
    }
    return old
  }

  async list(page: PageParams) {
    if (this.deps.config.backups.target === 'local') await this.reconcile()
    return listPage(this.deps.db, backups, undefined, [desc(backups.createdAt), desc(backups.id)], page, backupView)
  }

  /**
   * The list as DATA_DIR/backups has it: a complete backup whose archive is gone is `missing` (and
   * `complete` again if it comes back); an archive no row names (copied in, or from before a
   * restore) is adopted as a complete backup.
   */
  private async reconcile(): Promise<void> {
    const dir = this.dir()
    const onDisk = new Map<string, { encrypted: boolean; size: number; at: Date }>()
    for (const name of statSync(dir, { throwIfNoEntry: false })?.isDirectory() ? readdirSync(dir) : []) {
      const match = ARCHIVE_FILE.exec(name)
      const stat = match && statSync(join(dir, name), { throwIfNoEntry: false })
      if (match && stat?.isFile()) onDisk.set(match[1]!, { encrypted: Boolean(match[2]), size: stat.size, at: stat.mtime })
    }
    const rows = await this.deps.db.select({ id: backups.id, status: backups.status, encrypted: backups.encrypted }).from(backups)
    const known = new Set(rows.map((r) => r.id))
    const gone = rows.filter((r) => r.status === 'complete' && !onDisk.has(r.id)).map((r) => r.id)
    const back = rows.filter((r) => r.status === 'missing' && onDisk.has(r.id)).map((r) => r.id)
    const adopted = [...onDisk].filter(([id]) => !known.has(id))
    if (!gone.length && !back.length && !adopted.length) return
    await this.deps.db.transaction(async (tx) => {
      if (gone.length)
        await tx
          .update(backups)
          .set({ status: 'missing' })
          .where(and(inArray(backups.id, gone), eq(backups.status, 'complete')))
      if (back.length)
        await tx
          .update(backups)
          .set({ status: 'complete' })
          .where(and(inArray(backups.id, back), eq(backups.status, 'missing')))
      for (const [id, file] of adopted) {
        const [row] = await tx
          .insert(backups)
          .values({ id, status: 'complete', sizeBytes: file.size, encrypted: file.encrypted, createdAt: file.at, completedAt: file.at })
          .onConflictDoNothing()
          .returning({ id: backups.id })
        if (row) await this.audit.record(tx, systemActor(JOB), { action: 'system.backup.adopted', target: { type: 'backup', id } })
      }
    })
  }

  /** A complete backup's archive: the file (local target), or a short-lived download URL of the bucket (s3). Gone: the row says `missing`, and 410. */
  async archive(id: string): Promise<{ file: ReturnType<typeof Bun.file>; filename: string; encrypted: boolean } | { url: string }> {
    const [row] = await this.deps.db.select().from(backups).where(eq(backups.id, id))
    if (!row) throw notFound()
    if (row.status !== 'complete' && row.status !== 'missing') throw systemError(409, 'backup_not_ready', `The backup is ${row.status}`)
    const filename = `ecobase-backup-${archiveName(id, row.encrypted)}`
    const there = this.deps.config.backups.target === 'local' ? existsSync(this.path(row)) : Boolean(await this.deps.storage.head(this.key(row)))
    if (!there) {
      await this.deps.db.update(backups).set({ status: 'missing' }).where(eq(backups.id, id))
      throw systemError(410, 'backup_missing', 'The backup’s archive is gone (deleted or pruned outside the service)')
    }
    if (row.status === 'missing') await this.deps.db.update(backups).set({ status: 'complete' }).where(eq(backups.id, id))
    if (this.deps.config.backups.target === 'local') return { file: Bun.file(this.path(row)), filename, encrypted: row.encrypted }
    const contentType = row.encrypted ? 'application/octet-stream' : 'application/gzip'
    const signed = await this.deps.storage.presignGet({ key: this.key(row), filename, contentType, expiresIn: 300 })
    return { url: signed.url }
  }

  async remove(by: AuditBy, id: string) {
    const row = await this.deps.db.transaction(async (tx) => {
      const [gone] = await tx.delete(backups).where(eq(backups.id, id)).returning()
      if (!gone) throw notFound()
      await this.audit.record(tx, by, { action: 'system.backup.deleted', target: { type: 'backup', id } })
      return gone
    })
    await this.removeArchive(row)
  }

  private async removeArchive(row: Pick<BackupRow, 'id' | 'encrypted'>): Promise<void> {
    await discard(this.path(row))
    await discard(`${this.path(row)}.partial`)
    if (this.deps.config.backups.target === 's3') await this.deps.storage.delete(this.key(row))
  }

  /** Where an archive lives in the bucket (BACKUP_TARGET=s3), beside the attachments. */
  private key(row: Pick<BackupRow, 'id' | 'encrypted'>): string {
    return `backups/${archiveName(row.id, row.encrypted)}`
  }

  /**
   * The job: writes the archive (streamed from a snapshot of the database on disk), then records how
   * it went. The server stopping (SIGTERM) interrupts it at once rather than holding the exit for
   * SHUTDOWN_TIMEOUT_SECONDS: nothing of it is kept, and its row says `failed`, interrupted.
   */
  private async make(id: string): Promise<void> {
    const [row] = await this.deps.db.select().from(backups).where(eq(backups.id, id))
    if (row?.status !== 'running') return
    const work = this.workDir(id)
    const stop = this.deps.shutdown.signal
    try {
      const snapshot = await snapshotDatabase(this.deps.database, this.deps.config.databaseUrl, work, stop)
      if (snapshot.heldMs !== undefined) this.deps.logger.info('backup: database copied', { backupId: id, statementsHeldMs: Math.round(snapshot.heldMs) })
      const keys = row.encrypted ? this.deps.config.backups.keys : []
      if (row.encrypted && keys.length === 0) throw new Error('the backup was asked for encrypted, and BACKUP_ENCRYPTION_KEY is no longer set')
      await writeBackup(snapshot, this.deps.config.dataDir, this.path(row), { keys, backupId: id, progress: () => {}, stop })
      await rm(work, { recursive: true, force: true })
      const size = Bun.file(this.path(row)).size
      if (this.deps.config.backups.target === 's3') {
        await this.deps.storage.putFile!(this.key(row), this.path(row), size, row.encrypted ? 'application/octet-stream' : 'application/gzip')
        await rm(this.path(row), { force: true })
      }
      // Complete, and with a schedule the oldest beyond BACKUP_KEEP gone (manual ones count too), in one transaction.
      const pruned = await this.deps.db.transaction(async (tx) => {
        await tx.update(backups).set({ status: 'complete', sizeBytes: size, completedAt: this.deps.now() }).where(eq(backups.id, id))
        await this.audit.record(tx, systemActor(JOB), { action: 'system.backup.finished', target: { type: 'backup', id } })
        return this.deps.config.backups.schedule ? this.prune(tx, 'complete', this.deps.config.backups.keep) : []
      })
      for (const old of pruned) await this.removeArchive(old)
    } catch (err) {
      await this.failed(row, err)
    }
  }

  /**
   * A backup whose job ended without it (ABANDONED_JOB): without this its row stayed `running` in
   * the list for good, and the copy of the database it was making stayed on disk. It is failed as
   * any failed backup is, e-mail included: nobody chose to stop it.
   */
  private async abandoned(id: string): Promise<void> {
    const [row] = await this.deps.db.select().from(backups).where(eq(backups.id, id))
    if (row?.status === 'running') await this.failed(row, new BackupAbandoned())
  }

  /**
   * A `running` row with no job left to end it (one queued before jobs had dead letters, a job
   * deleted): it gets the dead letter its job would have had, so it is failed as abandoned, e-mail
   * included. The hourly `abandoned-backups` job (jobs.ts); answers how many.
   */
  async abandonStale(tx: Db): Promise<number> {
    const before = new Date(this.deps.now().getTime() - ABANDONED_AFTER_SECONDS * 1000)
    const stale = await tx
      .select({ id: backups.id })
      .from(backups)
      .where(and(eq(backups.status, 'running'), lt(backups.createdAt, before)))
    for (const { id } of stale) await this.deps.queue.send(tx, ABANDONED_JOB, { id })
    return stale.length
  }

  /**
   * Removes what backups that no longer run left in this replica's DATA_DIR/backups: a replica
   * killed mid-backup keeps its copy of the database and its half-written archive on its own disk,
   * where the replica that fails the backup cannot reach them. The hourly `backup-leftovers` job,
   * on every replica (jobs.ts); answers how many it removed.
   */
  async removeLeftovers(): Promise<number> {
    const found = (await readdir(this.dir()).catch(() => [] as string[])).flatMap((name) => {
      const match = LEFTOVER.exec(name)
      return match ? [{ name, id: (match[1] ?? match[2])! }] : []
    })
    if (!found.length) return 0
    const running = await this.deps.db
      .select({ id: backups.id })
      .from(backups)
      .where(and(eq(backups.status, 'running'), inArray(backups.id, [...new Set(found.map((f) => f.id))])))
    const live = new Set(running.map((r) => r.id))
    const gone = found.filter((f) => !live.has(f.id))
    for (const { name } of gone) await discard(join(this.dir(), name))
    return gone.length
  }

  /**
   * A failed backup is seen: its row says why, an audit event, an e-mail to every platform admin,
   * and failed rows beyond BACKUP_KEEP go (counted apart from complete ones, so failures never
   * push good backups out). One the server's stop interrupted is not e-mailed: whoever stopped the
   * server did it, and the exit does not wait for a mail server. Only a row still `running` is
   * failed (a backup that completed, or was deleted, meanwhile is left as it is).
   */
  private async failed(row: BackupRow, err: unknown): Promise<void> {
    await discard(this.workDir(row.id))
    await discard(`${this.path(row)}.partial`)
    const reason = describeError(err)
    const interrupted = err instanceof BackupInterrupted
    if (interrupted) this.deps.logger.warn('backup interrupted by the server stopping', { backupId: row.id })
    else this.deps.logger.error('backup failed', { backupId: row.id, ...reason })
    const pruned = await this.deps.db.transaction(async (tx) => {
      const [marked] = await tx
        .update(backups)
        .set({ status: 'failed', error: reason.message, completedAt: this.deps.now() })
        .where(and(eq(backups.id, row.id), eq(backups.status, 'running')))
        .returning({ id: backups.id })
      if (!marked) return null
      await this.audit.record(tx, systemActor(JOB), {
        action: 'system.backup.failed',
        target: { type: 'backup', id: row.id },
        metadata: { error: reason.message },
      })
      return this.prune(tx, 'failed', this.deps.config.backups.keep)
    })
    if (!pruned) return
    for (const old of pruned) await this.removeArchive(old)
    if (!this.mail || interrupted) return
    const admins = await accountDirectory.platformAdminEmails(this.deps.db, this.deps.config.adminEmails)
    const content = {
      subject: 'Ecobase: a backup failed',
      text: `The backup ${row.id}, started ${row.createdAt.toISOString()} ${row.createdBy ? 'by a platform admin' : 'by the schedule'}, failed at ${this.deps.now().toISOString()}:\n\n${reason.message}\n\nThe console's Backups page lists it, and the age of the last complete backup.`,
    }
    for (const email of admins) {
      const sent = await this.mail(email, content)
      if (!sent.ok) this.deps.logger.warn('backup failure e-mail not sent', { backupId: row.id, error: sent.error })
    }
  }

  private dir(): string {
    return join(this.deps.config.dataDir, 'backups')
  }

  /** Where a backup copies the embedded database's files before archiving them. */
  private workDir(id: string): string {
    return join(this.dir(), `.work-${id}`)
  }

  private path(row: Pick<BackupRow, 'id' | 'encrypted'>): string {
    return join(this.dir(), archiveName(row.id, row.encrypted))
  }
}

/**
 * After `npx ecobase restore`, in the restored database: the backup it came from (when the service
 * made it) says so (`restoredAt`; it is complete, though its row was `running` when the snapshot was
 * taken), other backups that were running then are failed (their job is gone), and an audit event.
 */
export async function recordRestore(deps: Pick<Deps, 'db' | 'now'>, manifest: Pick<BackupManifest, 'backupId' | 'createdAt'>): Promise<void> {
  const audit = new AuditService(deps)
  await deps.db.transaction(async (tx) => {
    if (manifest.backupId) {
      await tx
        .update(backups)
        .set({ status: 'complete', restoredAt: deps.now(), completedAt: new Date(manifest.createdAt) })
        .where(eq(backups.id, manifest.backupId))
    }
    await tx
      .update(backups)
      .set({ status: 'failed', error: 'interrupted: the instance was restored from a backup taken while this one ran', completedAt: deps.now() })
      .where(eq(backups.status, 'running'))
    await audit.record(tx, systemActor('cli'), {
      action: 'system.backup.restored',
      target: { type: 'backup', id: manifest.backupId ?? null },
      metadata: { takenAt: manifest.createdAt },
    })
  })
}
