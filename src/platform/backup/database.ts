import { copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises'
import { createWriteStream, existsSync, mkdirSync } from 'node:fs'
import { once } from 'node:events'
import { dirname, join, relative } from 'node:path'
import { Readable } from 'node:stream'
import { createGunzip } from 'node:zlib'
import postgres from 'postgres'
import { appliedMigrations, type Database, openPglite, pgliteDir } from '../db'
import { readTar } from './tar'

/** A backup that cannot be made, read or restored, for a reason the operator can act on. */
export class BackupError extends Error {}

/** A backup cut short by its `stop` signal (the server stopping): what it had written is gone. */
export class BackupInterrupted extends BackupError {
  constructor() {
    super('interrupted: the server stopped while the backup ran; nothing of it was kept')
  }
}

/** Throws BackupInterrupted once `stop` is aborted: called between steps of long work. */
export function checkStop(stop: AbortSignal | undefined): void {
  if (stop?.aborted) throw new BackupInterrupted()
}

/**
 * The database as the archive takes it: the embedded database's files (`pglite`, a directory), a
 * PostgreSQL database as `pg_dump -Fc` writes it (`postgres.dump`), or nothing (PostgreSQL with no
 * pg_dump on the PATH). Under `database/` in the archive.
 */
export interface DatabaseSnapshot {
  kind: 'pglite' | 'postgres' | 'none'
  /** Migrations applied when it was taken. */
  migrations: number
  /** Where its files are: `database/<name>` in the archive, a directory (pglite) or a file (postgres). */
  source: { path: string; name: 'pglite' | 'postgres.dump' } | null
  /** A running PGlite's copy: how long statements waited for its last pass, in milliseconds. */
  heldMs?: number
}

/** Where a PostgreSQL client program is on the PATH (read now: it may change while the server runs), or null. */
export function pgTool(name: 'pg_dump' | 'pg_restore'): string | null {
  return Bun.which(name, { PATH: process.env.PATH ?? '' })
}

/**
 * The database of a running instance, copied into `work` (a directory of its own, on the data
 * directory's disk): PGlite's files as a crash at one instant would leave them, which PostgreSQL
 * recovers from, or PostgreSQL's pg_dump (a consistent snapshot of its own). `stop` ends it between
 * files (and kills pg_dump) with BackupInterrupted.
 */
export async function snapshotDatabase(database: Database, databaseUrl: string | null, work: string, stop?: AbortSignal): Promise<DatabaseSnapshot> {
  const migrations = await appliedMigrations(database.db)
  if (database.kind === 'pglite') {
    const path = join(work, 'pglite')
    if (!database.directory) {
      await untar(await database.dump!(), path)
      return { kind: 'pglite', migrations, source: { path, name: 'pglite' } }
    }
    const heldMs = await copyLive(database.directory, path, database.exclusive!, stop)
    return { kind: 'pglite', migrations, source: { path, name: 'pglite' }, heldMs }
  }
  if (!databaseUrl || !pgTool('pg_dump')) return { kind: 'none', migrations, source: null }
  const path = join(work, 'postgres.dump')
  mkdirSync(work, { recursive: true })
  await pgDump(databaseUrl, path, stop)
  return { kind: 'postgres', migrations, source: { path, name: 'postgres.dump' } }
}

/** A stopped embedded instance's database (the caller holds DATA_DIR's lock): its files as they are, after a clean close. */
export async function stoppedPglite(dataDir: string): Promise<DatabaseSnapshot> {
  const path = pgliteDir(dataDir)
  if (!existsSync(join(path, 'PG_VERSION'))) throw new BackupError(`${dataDir} holds no embedded database`)
  const database = await openPglite({ dataDir: path })
  try {
    return { kind: 'pglite', migrations: await appliedMigrations(database.db), source: { path, name: 'pglite' } }
  } finally {
    await database.close()
  }
}

/** Modified within this long before a pass began: copied again by the next (file times are coarse). */
const MTIME_SLACK_MS = 2000
/** Passes while the service runs, each copying what changed during the one before, until one copies less than this. */
const SETTLED_BYTES = 32 * 1024 * 1024
const MAX_PASSES = 4

/**
 * Copies a live PGlite data directory with statements held off only briefly: everything first,
 * while the service runs; then again what changed meanwhile (by size or time), a few times while
 * that shrinks (the WAL written during a long first pass); last, inside `exclusive`, what changed
 * since, what appeared, and what went away. What is left is the directory at that instant.
 * Answers how long statements were held off. `stop` ends it between files, before the last pass, with BackupInterrupted.
 */
export async function copyLive(from: string, to: string, exclusive: NonNullable<Database['exclusive']>, stop?: AbortSignal): Promise<number> {
  const changedSince = (since: number) => (stat: Stat, copied: Stat | null) => !copied || copied.size !== stat.size || stat.mtimeMs >= since - MTIME_SLACK_MS
  let since = Date.now()
  await copyTree(from, to, () => true, stop)
  for (let pass = 0; pass < MAX_PASSES; pass++) {
    const started = Date.now()
    const { bytes } = await copyTree(from, to, changedSince(since), stop)
    since = started
    if (bytes < SETTLED_BYTES) break
  }
  checkStop(stop)
  return exclusive(async () => {
    const held = performance.now()
    const { seen } = await copyTree(from, to, changedSince(since))
    for (const stale of await listTree(to)) if (!seen.has(stale)) await rm(join(to, stale), { recursive: true, force: true })
    return performance.now() - held
  })
}

type Stat = Awaited<ReturnType<typeof lstat>>

/** Copies the files of `from` into `to` that `wanted` picks; answers every relative path seen, and the bytes copied. Files that vanish meanwhile are skipped; `stop` ends it before the next file. */
async function copyTree(
  from: string,
  to: string,
  wanted: (stat: Stat, copied: Stat | null) => boolean,
  stop?: AbortSignal,
): Promise<{ seen: Set<string>; bytes: number }> {
  const seen = new Set<string>()
  let bytes = 0
  const walk = async (rel: string) => {
    await mkdir(join(to, rel), { recursive: true })
    const entries = await readdir(join(from, rel), { withFileTypes: true }).catch(gone)
    for (const entry of entries ?? []) {
      const path = join(rel, entry.name)
      seen.add(path)
      if (entry.isDirectory()) await walk(path)
      else if (entry.isFile()) {
        checkStop(stop)
        const stat = await lstat(join(from, path)).catch(gone)
        if (!stat) continue
        const copied = await lstat(join(to, path)).catch(gone)
        if (!wanted(stat, copied ?? null)) continue
        await copyFile(join(from, path), join(to, path)).catch(gone)
        bytes += stat.size
      }
    }
  }
  await walk('')
  return { seen, bytes }
}

async function listTree(root: string): Promise<string[]> {
  const found: string[] = []
  for (const entry of await readdir(root, { withFileTypes: true, recursive: true })) found.push(relative(root, join(entry.parentPath, entry.name)))
  return found
}

function gone(err: NodeJS.ErrnoException): undefined {
  if (err.code === 'ENOENT') return undefined
  throw err
}

/** An in-memory PGlite's dump (a gzipped tarball of its data directory) as files under `to`. */
async function untar(dump: Blob, to: string): Promise<void> {
  mkdirSync(to, { recursive: true })
  const unzipped = Readable.fromWeb(dump.stream() as never).pipe(createGunzip())
  for await (const entry of readTar(unzipped)) {
    // PGlite names its entries from the data directory's own name: drop that first part.
    const rel = entry.name.split('/').slice(1).join('/').replace(/\/$/, '')
    if (!rel) continue
    const path = join(to, rel)
    if (entry.type === 'directory') {
      mkdirSync(path, { recursive: true })
      continue
    }
    mkdirSync(dirname(path), { recursive: true })
    const file = createWriteStream(path)
    for await (const chunk of entry.chunks) if (!file.write(chunk)) await once(file, 'drain')
    file.end()
    await once(file, 'close')
  }
}

/** `url` without its password, which goes to the child's environment (never its command line, which `ps` shows). */
function libpq(url: string): { url: string; env: Record<string, string> } {
  const parsed = new URL(url)
  const password = decodeURIComponent(parsed.password)
  parsed.password = ''
  return { url: parsed.toString(), env: password ? { PGPASSWORD: password } : {} }
}

/** Runs a PostgreSQL client program; its last line of stderr is the error when it fails. `stop` kills it (BackupInterrupted). */
async function run(command: string[], env: Record<string, string>, stop?: AbortSignal): Promise<void> {
  checkStop(stop)
  const child = Bun.spawn(command, { env: { ...process.env, ...env }, stdout: 'ignore', stderr: 'pipe', signal: stop })
  const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
  checkStop(stop)
  if (code !== 0) throw new BackupError(`${command[0]!.split('/').pop()} failed: ${stderr.trim().split('\n').pop()?.slice(0, 300) ?? `exit ${code}`}`)
}

/** pg_dump's custom format of the database at `url`, streamed by pg_dump itself into `file`. */
export async function pgDump(url: string, file: string, stop?: AbortSignal): Promise<void> {
  const { url: target, env } = libpq(url)
  await run([pgTool('pg_dump')!, '--format=custom', `--file=${file}`, `--dbname=${target}`], env, stop)
}

/** Whether `file` is a dump pg_restore can read (its table of contents), or at least starts like one. */
export async function checkPgDump(file: string): Promise<void> {
  const tool = pgTool('pg_restore')
  if (tool) return run([tool, '--list', file], {})
  const start = Buffer.from(await Bun.file(file).slice(0, 5).arrayBuffer())
  if (start.toString('latin1') !== 'PGDMP') throw new BackupError('the database part is not a pg_dump custom-format file')
}

/** Restores `file` into the empty database at `url`, in one transaction (nothing is left of a failed one). */
export async function pgRestore(url: string, file: string): Promise<void> {
  const tool = pgTool('pg_restore')
  if (!tool) throw new BackupError('restoring a PostgreSQL backup needs pg_restore on the PATH (the postgresql-client package)')
  const client = postgres(url, { max: 1, onnotice: () => {}, connect_timeout: 10 })
  try {
    const [row] =
      await client`select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg_toast%' and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')`
    if (row!.n > 0) throw new BackupError(`DATABASE_URL's database is not empty (${row!.n} tables and sequences): restore into a new, empty database`)
  } finally {
    await client.end()
  }
  const { url: target, env } = libpq(url)
  await run([tool, '--exit-on-error', '--single-transaction', '--no-owner', '--no-privileges', `--dbname=${target}`, file], env)
}
