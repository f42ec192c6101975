import { createHash } from 'node:crypto'
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs'
import { once as eventOnce } from 'node:events'
import { mkdir } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import pkg from '../../../package.json'
import { type Database, MIGRATIONS_DIR, openPglite, pgliteDir, queryRows } from '../db'
import { sql } from 'drizzle-orm'
import { readTar, TarWriter } from './tar'

/** A backup that cannot be made, read or restored, for a reason the operator can act on. */
export class BackupError extends Error {}

/** Bumped when the archive's layout changes; `restore` reads this one only. */
export const BACKUP_FORMAT = 1
const MANIFEST = 'manifest.json'
const DATABASE = 'database/pglite.tar.gz'
/** The generated server key (absent AUTH_SECRET): sealed secrets need it, so it travels with the data. */
const SECRET = 'auth-secret'

/**
 * How far long work has come: `done` of `total` bytes, in `part`; `finished` once a part is whole.
 * A note (`moved the old instance aside …`) has no bytes.
 */
export type Progress = (step: { part: string; done: number; total: number; finished: boolean } | { note: string }) => void

export interface BackupManifest {
  format: number
  ecobase: { version: string }
  /** Migrations applied to the database when it was taken. */
  migrations: number
  /** `external`: the database was PostgreSQL (DATABASE_URL) and is not in the archive, only the server key and local files. Absent: embedded, included. */
  database?: 'external'
  createdAt: string
  parts: { name: string; size: number; sha256: string }[]
}

/** Migrations this Ecobase knows (drizzle's journal). */
function knownMigrations(): number {
  return (JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] }).entries.length
}

/** Files under `root` (relative paths), leaving out dot-directories such as the uploads in flight. */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return []
  const found: string[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name.startsWith('.')) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile()) found.push(relative(root, path))
    }
  }
  walk(root)
  return found.sort()
}

async function* hashing(chunks: AsyncIterable<Buffer | Uint8Array>, hash: ReturnType<typeof createHash>): AsyncGenerator<Buffer | Uint8Array> {
  for await (const chunk of chunks) {
    hash.update(chunk)
    yield chunk
  }
}

/** Passes chunks through, telling `onBytes` how many went by. */
async function* counted<C extends Buffer | Uint8Array>(chunks: AsyncIterable<C>, onBytes: (n: number) => void): AsyncGenerator<C> {
  for await (const chunk of chunks) {
    yield chunk
    onBytes(chunk.byteLength)
  }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

/**
 * Backs up a stopped embedded instance (the caller holds DATA_DIR's lock): opens its database and
 * writes the archive (writeBackup).
 */
export async function backupStopped(dataDir: string, out: string, progress: Progress): Promise<BackupManifest> {
  if (!existsSync(join(pgliteDir(dataDir), 'PG_VERSION'))) throw new BackupError(`${resolve(dataDir)} holds no embedded database`)
  const database = await openPglite({ dataDir: pgliteDir(dataDir) })
  try {
    return await writeBackup(database, dataDir, out, progress)
  } finally {
    await database.close()
  }
}

/**
 * One archive of an instance: the embedded database as PGlite dumps it (between two queries, so a
 * running service's snapshot is what a crash at that instant would leave, which PostgreSQL recovers
 * from), the generated server key and the local object store, then manifest.json with every part's
 * size and SHA-256. A PostgreSQL database (DATABASE_URL) is not included (pg_dump's job): the
 * archive then holds the key and the local files, and says so (`database: "external"`). Written as
 * `out.partial` and renamed when complete, so an interrupted backup never looks whole.
 */
export async function writeBackup(database: Database, dataDir: string, out: string, progress: Progress): Promise<BackupManifest> {
  const [row] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
  const migrations = row!.n
  const dump = database.dump ? new Uint8Array(await (await database.dump()).arrayBuffer()) : null
  const secret = join(dataDir, SECRET)
  const objects = join(dataDir, 'objects')
  const sources = [
    ...(dump ? [{ name: DATABASE, size: dump.byteLength, chunks: () => once(dump) }] : []),
    ...(existsSync(secret) ? [{ name: SECRET, size: statSync(secret).size, chunks: () => createReadStream(secret) }] : []),
    ...filesUnder(objects).map((file) => ({ name: `objects/${file}`, size: statSync(join(objects, file)).size, chunks: () => createReadStream(join(objects, file)) })),
  ]
  const total = sources.reduce((n, s) => n + s.size, 0)
  mkdirSync(dirname(resolve(out)), { recursive: true })
  const partial = `${out}.partial`
  const tar = new TarWriter(partial)
  const parts: BackupManifest['parts'] = []
  let done = 0
  for (const source of sources) {
    const hash = createHash('sha256')
    await tar.add(source.name, source.size, counted(hashing(source.chunks(), hash), (n) => progress({ part: source.name, done: (done += n), total, finished: false })))
    parts.push({ name: source.name, size: source.size, sha256: hash.digest('hex') })
    progress({ part: source.name, done, total, finished: true })
  }
  const manifest: BackupManifest = { format: BACKUP_FORMAT, ecobase: { version: pkg.version }, migrations, ...(dump ? {} : { database: 'external' as const }), createdAt: new Date().toISOString(), parts }
  const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)
  await tar.add(MANIFEST, text.byteLength, once(text))
  await tar.close()
  renameSync(partial, out)
  return manifest
}

/** Reads the whole archive, checking every part against the manifest; the manifest when all is well. */
export async function verifyBackup(path: string): Promise<BackupManifest> {
  if (!existsSync(path)) throw new BackupError(`${path}: no such file`)
  const seen = new Map<string, { size: number; sha256: string }>()
  let manifest: BackupManifest | null = null
  try {
    for await (const entry of readTar(path)) {
      const hash = createHash('sha256')
      const bytes: Buffer[] = []
      for await (const chunk of entry.chunks) {
        hash.update(chunk)
        if (entry.name === MANIFEST) bytes.push(chunk)
      }
      if (entry.name === MANIFEST) manifest = JSON.parse(Buffer.concat(bytes).toString('utf8')) as BackupManifest
      else seen.set(entry.name, { size: entry.size, sha256: hash.digest('hex') })
    }
  } catch (err) {
    throw new BackupError(`${path} is damaged: ${(err as Error).message}`)
  }
  if (!manifest) throw new BackupError(`${path} has no manifest: not a complete Ecobase backup`)
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`${path} is backup format ${manifest.format}; this Ecobase reads format ${BACKUP_FORMAT}`)
  for (const part of manifest.parts) {
    const got = seen.get(part.name)
    if (!got) throw new BackupError(`${path} is missing ${part.name}`)
    if (got.size !== part.size || got.sha256 !== part.sha256) throw new BackupError(`${path}: ${part.name} does not match its checksum (tampered or damaged)`)
    seen.delete(part.name)
  }
  if (seen.size) throw new BackupError(`${path} holds parts its manifest does not list: ${[...seen.keys()].join(', ')}`)
  const known = knownMigrations()
  if (manifest.migrations > known) {
    throw new BackupError(`${path} was made by a newer Ecobase (${manifest.ecobase.version}, ${manifest.migrations} migrations; this one knows ${known}): restore it with that version or later`)
  }
  return manifest
}

/**
 * Restores into `dataDir` after verifying the whole archive. The directory must hold no instance;
 * with `force`, what is there is moved aside (never deleted). The database is migrated forward by
 * the caller's next open, as at any boot. An archive of a PostgreSQL instance (`database:
 * "external"`) restores the server key and local files only.
 */
export async function restoreBackup(path: string, dataDir: string, force: boolean, progress: Progress): Promise<BackupManifest> {
  const manifest = await verifyBackup(path)
  const present = [pgliteDir(dataDir), join(dataDir, 'objects'), join(dataDir, SECRET)].filter((p) => existsSync(p))
  if (present.length && !force) throw new BackupError(`${resolve(dataDir)} already holds an instance; restore into an empty directory, or pass --force to move it aside first`)
  const aside = join(dataDir, `before-restore-${new Date().toISOString().replace(/[:.]/g, '-')}`)
  for (const existing of present) {
    mkdirSync(aside, { recursive: true })
    renameSync(existing, join(aside, relative(dataDir, existing)))
  }
  if (present.length) progress({ note: `moved the old instance aside to ${aside}` })
  mkdirSync(dataDir, { recursive: true })
  const total = manifest.parts.reduce((n, p) => n + p.size, 0)
  let done = 0
  for await (const entry of readTar(path)) {
    if (entry.name === MANIFEST) continue
    const chunks = counted(entry.chunks, (n) => progress({ part: entry.name, done: (done += n), total, finished: false }))
    if (entry.name === DATABASE) {
      const bytes: Buffer[] = []
      for await (const chunk of chunks) bytes.push(chunk)
      const database = await openPglite({ dataDir: pgliteDir(dataDir), loadDataDir: new Blob([Buffer.concat(bytes)]) })
      await database.close()
    } else {
      const target = resolve(dataDir, entry.name)
      if (!target.startsWith(`${resolve(dataDir)}/`)) throw new BackupError(`${path}: ${entry.name} points outside the data directory`)
      await mkdir(dirname(target), { recursive: true })
      const file = createWriteStream(target, entry.name === SECRET ? { mode: 0o600 } : {})
      for await (const chunk of chunks) if (!file.write(chunk)) await eventOnce(file, 'drain')
      file.end()
      await eventOnce(file, 'close')
    }
    progress({ part: entry.name, done, total, finished: true })
  }
  return manifest
}
