import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, resolve } from 'node:path'
import { openPglite } from '../db'
import { type BackupManifest, checkArchiveFile, type Progress, readBackup, SECRET } from './archive'
import { appliedMigrations } from '../db'
import { BackupError, checkPgDump, pgRestore } from './database'

/** What an instance is made of in its data directory (what a restore replaces). */
const INSTANCE = ['pglite', 'objects', SECRET] as const
const DUMP = '.postgres.dump'

/** Where each part's files go in a directory laid out as a data directory (a pg_dump apart, to be restored, not kept). */
function dataDirPlacement(dir: string) {
  return (part: string, rel: string) =>
    part === 'database' && rel === 'postgres.dump' ? join(dir, DUMP) : part === 'objects' ? join(dir, 'objects', rel) : join(dir, rel)
}

/** Opens the database part, not only hashes it: PGlite starts on its files, or pg_restore reads the dump's contents. */
async function openDatabasePart(dir: string, manifest: BackupManifest): Promise<void> {
  try {
    if (manifest.database === 'postgres') return await checkPgDump(join(dir, DUMP))
    if (manifest.database !== 'pglite') return
    const database = await openPglite({ dataDir: join(dir, 'pglite') })
    try {
      const migrations = await appliedMigrations(database.db)
      if (migrations !== manifest.migrations) throw new BackupError(`holds ${migrations} migrations, its manifest says ${manifest.migrations}`)
    } finally {
      await database.close()
    }
  } catch (err) {
    throw new BackupError(`the database part does not open: ${(err as Error).message}`)
  }
}

/** restore's dry run: the whole archive read as restore reads it, the database part opened in a scratch directory (removed after). Nothing else is written. */
export async function verifyBackup(path: string, keys: readonly string[], progress: Progress = () => {}): Promise<BackupManifest> {
  checkArchiveFile(path)
  const work = mkdtempSync(join(tmpdir(), 'ecobase-verify-'))
  try {
    const placement = dataDirPlacement(work)
    const manifest = await readBackup(path, keys, (part, rel) => (part === 'database' ? placement(part, rel) : null), progress)
    await openDatabasePart(work, manifest).catch((err) => {
      throw new BackupError(`${path}: ${(err as Error).message}`)
    })
    return manifest
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
}

export interface RestoreOptions {
  /** Move an instance already in the data directory aside (never deleting it) instead of refusing. */
  force: boolean
  keys: readonly string[]
  /** Where a PostgreSQL backup's database goes (an empty database); needed for those only. */
  databaseUrl: string | null
  progress: Progress
  /** Last step before the swap, on the staged data directory (and DATABASE_URL restored): migrations, bookkeeping. */
  prepare?: (staged: string, manifest: BackupManifest) => Promise<void>
}

/** The parts of an instance `dataDir` holds. */
export function instanceIn(dataDir: string): string[] {
  return INSTANCE.filter((name) => existsSync(join(dataDir, name)))
}

/**
 * Restores into `dataDir`. Everything is written into a staging directory beside it
 * (`.<name>.restoring`, on the same disk) and checked there, the database opened and prepared;
 * only then is it renamed into place, and with `force` the instance there moved aside to
 * `before-restore-<time>` (never deleted). A failed or interrupted restore leaves `dataDir`
 * exactly as it was and creates nothing; a staging directory left by a kill is removed by the next
 * restore. A PostgreSQL backup's database goes into DATABASE_URL (pg_restore, one transaction),
 * which must be empty.
 */
export async function restoreBackup(path: string, dataDir: string, options: RestoreOptions): Promise<BackupManifest> {
  checkArchiveFile(path)
  const target = resolve(dataDir)
  const refuse = () => new BackupError(`${target} already holds an instance; restore into an empty directory, or pass --force to move it aside first`)
  if (instanceIn(target).length && !options.force) throw refuse()
  const staging = join(dirname(target), `.${basename(target)}.restoring`)
  let made: string | undefined
  try {
    made = mkdirSync(dirname(target), { recursive: true })
    rmSync(staging, { recursive: true, force: true })
    mkdirSync(staging)
    const manifest = await readBackup(path, options.keys, dataDirPlacement(staging), options.progress)
    await openDatabasePart(staging, manifest)
    if (manifest.database === 'postgres') {
      if (!options.databaseUrl) throw new BackupError('this backup holds a PostgreSQL database: set DATABASE_URL to a new, empty database to restore it into')
      await pgRestore(options.databaseUrl, join(staging, DUMP))
      rmSync(join(staging, DUMP))
    }
    await options.prepare?.(staging, manifest)
    swap(staging, target, options)
    made = undefined
    return manifest
  } finally {
    rmSync(staging, { recursive: true, force: true })
    if (made) rmSync(made, { recursive: true, force: true })
  }
}

/** Puts the staged instance in place: one rename into a missing directory, else one per part after the old ones moved aside. */
function swap(staging: string, target: string, options: Pick<RestoreOptions, 'force' | 'progress'>): void {
  if (!existsSync(target)) {
    renameSync(staging, target)
    return
  }
  const present = instanceIn(target)
  if (present.length) {
    if (!options.force) throw new BackupError(`${target} already holds an instance; restore into an empty directory, or pass --force to move it aside first`)
    const aside = join(target, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`)
    mkdirSync(aside)
    for (const name of present) renameSync(join(target, name), join(aside, name))
    options.progress({ note: `moved the old instance aside to ${aside}` })
  }
  for (const name of readdirSync(staging)) renameSync(join(staging, name), join(target, name))
  rmdirSync(staging)
}
