import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { openDatabase } from '../boot'
import type { Config } from '../config'
import { renewEpoch } from '../modules/realtime/hub'
import { recordRestore } from '../modules/system/backups'
import { archiveEncrypted, type BackupManifest, type Progress, writeBackup } from '../platform/backup/archive'
import { snapshotDatabase, stoppedPglite } from '../platform/backup/database'
import { restoreBackup, verifyBackup } from '../platform/backup/restore'
import { type Database, pgliteDir } from '../platform/db'
import { lockDataDir } from '../platform/lifecycle'
import { CommandError } from './admin'

const count = (m: BackupManifest) =>
  `${m.parts.length} parts, ${m.parts.reduce((n, p) => n + p.files, 0)} files, ${m.parts.reduce((n, p) => n + p.size, 0)} bytes`

/**
 * `ecobase backup`: the embedded database of a stopped instance (under DATA_DIR's lock), or with
 * DATABASE_URL a pg_dump of it (the server may run), with the server key and the local files.
 */
export async function backupCommand(
  config: Readonly<Config>,
  options: { out?: string; force: boolean },
  run: { withLock<T>(work: () => Promise<T>): Promise<T>; withPostgres<T>(work: (database: Database) => Promise<T>): Promise<T>; progress: Progress },
): Promise<string> {
  const encrypted = config.backups.keys.length > 0
  const out = options.out ?? `ecobase-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz${encrypted ? '.enc' : ''}`
  const existing = statSync(out, { throwIfNoEntry: false })
  if (existing?.isDirectory()) throw new CommandError(`--out ${out} is a directory: name the archive file to write`)
  if (existing && !options.force) throw new CommandError(`${out} already exists: pass --force to replace it`)
  const write = { keys: config.backups.keys, progress: run.progress }
  const wrote = (m: BackupManifest) => `wrote ${out}${encrypted ? ' (encrypted)' : ''}: ${count(m)}, ${m.migrations} migrations`
  if (!config.databaseUrl) {
    if (!existsSync(join(pgliteDir(config.dataDir), 'PG_VERSION'))) throw new CommandError(`DATA_DIR ${resolve(config.dataDir)} holds no embedded database`)
    return wrote(await run.withLock(async () => writeBackup(await stoppedPglite(config.dataDir), config.dataDir, out, write)))
  }
  const url = config.databaseUrl
  // pg_dump's file goes beside the archive (same disk), and away when done.
  const work = mkdtempSync(join(dirname(resolve(out)), '.ecobase-backup-'))
  try {
    const manifest = await run.withPostgres(async (database) => writeBackup(await snapshotDatabase(database, url, work), config.dataDir, out, write))
    if (manifest.database === 'postgres') return `${wrote(manifest)} (the database: pg_dump of DATABASE_URL; the server key and local files)`
    return `${wrote(manifest)} (the server key and local files only: no pg_dump on the PATH; back the database up with pg_dump or your provider’s snapshots)`
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

export async function verifyCommand(config: Readonly<Config>, file: string, progress: Progress): Promise<string> {
  const manifest = await verifyBackup(file, config.backups.keys, progress)
  const encrypted = archiveEncrypted(file) ? ', encrypted' : ''
  return `${file} is whole: ${count(manifest)}, database ${manifest.database}, Ecobase ${manifest.ecobase.version}, ${manifest.migrations} migrations, taken ${manifest.createdAt}${encrypted}`
}

/**
 * `ecobase restore`: into DIR through a staging directory (platform/backup/restore.ts). The staged
 * instance is opened and migrated forward, its list of backups told what happened and its realtime
 * epoch renewed, before it is put in place. A directory that exists is locked as a server would lock it (refused while one
 * runs); a lock file the restore made is removed again when it fails.
 */
export async function restoreCommand(
  config: Readonly<Config>,
  file: string,
  options: { dataDir: string; force: boolean },
  progress: Progress,
): Promise<string> {
  const target = options.dataDir
  const lockFile = join(target, 'ecobase.lock')
  const hadLockFile = existsSync(lockFile)
  const lock = existsSync(target) ? lockDataDir(target, () => {}) : null
  let restored = false
  try {
    const manifest = await restoreBackup(file, target, {
      force: options.force,
      keys: config.backups.keys,
      databaseUrl: config.databaseUrl,
      progress,
      prepare: async (staged, m) => {
        if (m.database === 'none') return
        const database = await openDatabase({ ...config, dataDir: staged, databaseUrl: m.database === 'postgres' ? config.databaseUrl : null })
        try {
          await recordRestore({ db: database.db, now: () => new Date() }, m)
          // Realtime cursors streams were given after the backup name a history this instance no longer follows.
          await renewEpoch(database.db)
        } finally {
          await database.close()
        }
      },
    })
    restored = true
    const said = `restored ${file} into ${target} (Ecobase ${manifest.ecobase.version}, taken ${manifest.createdAt})`
    if (manifest.database === 'postgres') return `${said}: the database into DATABASE_URL, the server key and local files into ${target}`
    if (manifest.database === 'none')
      return `${said}: the server key and local files; the database was PostgreSQL and is not in it (restore it with pg_restore or your provider’s snapshot)`
    return said
  } finally {
    lock?.release()
    if (!restored && !hadLockFile && lock) rmSync(lockFile, { force: true })
  }
}
