import { createHash } from 'node:crypto'
import { closeSync, createReadStream, createWriteStream, existsSync, mkdirSync, openSync, readdirSync, readSync, renameSync, statSync } from 'node:fs'
import { once } from 'node:events'
import { rm } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'
import pkg from '../../../package.json'
import { knownMigrations } from '../db'
import { decrypt, DecryptError, encrypt, isEncrypted, MAGIC } from './crypt'
import { BackupError, checkStop, type DatabaseSnapshot } from './database'
import { readTar, TarError, TarWriter } from './tar'

export { BackupError }

/** Bumped when the archive's layout changes; `verify` and `restore` read this one only. */
export const BACKUP_FORMAT = 2
const MANIFEST = 'manifest.json'
/** A manifest is read into memory: at most this many bytes. */
export const MAX_MANIFEST_BYTES = 1 << 20
/** The generated server key (absent AUTH_SECRET): sealed secrets need it, so it travels with the data. */
export const SECRET = 'auth-secret'

/** The archive's parts: the database (`database/…`), the server key, the local object store (`objects/…`). */
export type PartName = 'database' | 'auth-secret' | 'objects'
const PART_NAMES: readonly PartName[] = ['database', 'auth-secret', 'objects']

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
  /** `pglite`: the embedded database's files; `postgres`: pg_dump's custom format of DATABASE_URL; `none`: PostgreSQL without pg_dump (the key and local files only). */
  database: DatabaseSnapshot['kind']
  /** The service's own record of this backup (POST /system/backups, BACKUP_SCHEDULE); absent from `npx ecobase backup`. */
  backupId?: string
  createdAt: string
  /**
   * Each part's file count, bytes, and SHA-256 over its listing: one line per file, sorted by name,
   * `<sha256 of the file> <size> <name within the part>\n` (so a repacked archive, in any order, checks).
   */
  parts: { name: PartName; files: number; size: number; sha256: string }[]
}

/** Files and directories under `root` (relative paths, sorted), leaving out dot-entries (uploads in flight) when `hidden` is false. */
function treeUnder(root: string, hidden: boolean): { files: string[]; dirs: string[] } {
  const files: string[] = []
  const dirs: string[] = []
  if (!existsSync(root)) return { files, dirs }
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!hidden && entry.name.startsWith('.')) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        dirs.push(relative(root, path))
        walk(path)
      } else if (entry.isFile()) files.push(relative(root, path))
    }
  }
  walk(root)
  return { files: files.sort(), dirs: dirs.sort() }
}

/** A part's digest as it is built: the listing's lines, hashed once sorted. */
class PartDigest {
  files = 0
  size = 0
  private readonly lines: string[] = []

  add(name: string, size: number, sha256: string): void {
    this.files++
    this.size += size
    this.lines.push(`${sha256} ${size} ${name}\n`)
  }

  summary(part: PartName): BackupManifest['parts'][number] {
    const hash = createHash('sha256')
    for (const line of this.lines.sort()) hash.update(line)
    return { name: part, files: this.files, size: this.size, sha256: hash.digest('hex') }
  }
}

/**
 * Bytes streamed between two hints to the garbage collector. Every chunk read, compressed and
 * written is a new buffer; in a server whose heap holds a few hundred MB the collector lets that
 * garbage reach about the heap's size before it runs, so a backup grew the server by +183 MB
 * (P16, 1 GB). An asynchronous collection asked for every 8 MiB kept it to +46–61 MB (a 250 MB heap
 * streaming 1 GB: +148 MB without) at no measurable cost in time.
 */
const GC_HINT_BYTES = 8 << 20

/** The bytes of `chunks`, hashed into `hash` and counted on the way. */
async function* tapped(
  chunks: AsyncIterable<Buffer | Uint8Array>,
  hash: ReturnType<typeof createHash>,
  onBytes: (n: number) => void,
  stop?: AbortSignal,
): AsyncGenerator<Buffer | Uint8Array> {
  let sinceHint = 0
  for await (const chunk of chunks) {
    checkStop(stop)
    sinceHint += chunk.byteLength
    if (sinceHint >= GC_HINT_BYTES) {
      sinceHint = 0
      Bun.gc(false)
    }
    hash.update(chunk)
    yield chunk
    onBytes(chunk.byteLength)
  }
}

export interface WriteOptions {
  /** BACKUP_ENCRYPTION_KEY's keys: the first encrypts the archive; none: a plain .tar.gz. */
  keys: readonly string[]
  backupId?: string
  progress: Progress
  /** Ends the backup between chunks with BackupInterrupted (the server stopping); the `.partial` goes. */
  stop?: AbortSignal
}

/**
 * One archive of an instance, every part streamed from disk: the database (a DatabaseSnapshot),
 * the generated server key and the local object store, then manifest.json. Gzip at level 1, then
 * AES-256-GCM when a key is set (crypt.ts). Written as `out.partial` and renamed when complete, so
 * an interrupted backup never looks whole; a failed one leaves nothing.
 */
export async function writeBackup(snapshot: DatabaseSnapshot, dataDir: string, out: string, options: WriteOptions): Promise<BackupManifest> {
  const secret = join(dataDir, SECRET)
  const objects = join(dataDir, 'objects')
  const database = snapshot.source
  const databaseTree = database && statSync(database.path).isDirectory() ? treeUnder(database.path, true) : null
  const objectTree = treeUnder(objects, false)
  const sized = (root: string, files: string[]) => files.reduce((n, f) => n + (statSync(join(root, f), { throwIfNoEntry: false })?.size ?? 0), 0)
  const total =
    (database ? (databaseTree ? sized(database.path, databaseTree.files) : statSync(database.path).size) : 0) +
    (existsSync(secret) ? statSync(secret).size : 0) +
    sized(objects, objectTree.files)

  mkdirSync(dirname(resolve(out)), { recursive: true })
  const partial = `${out}.partial`
  const gzip = createGzip({ level: 1 })
  const file = createWriteStream(partial, { flags: 'wx', mode: 0o600 })
  const written = options.keys.length ? pipeline(gzip, (source: AsyncIterable<Buffer>) => encrypt(options.keys[0]!, source), file) : pipeline(gzip, file)
  written.catch(() => {})
  const tar = new TarWriter(async (chunk) => {
    if (!gzip.write(chunk)) await Promise.race([once(gzip, 'drain'), written])
  })
  const digests = new Map<PartName, PartDigest>(PART_NAMES.map((p) => [p, new PartDigest()]))
  let done = 0
  /** One file into the archive as `name` (part `part`, `rel` within it); a file gone meanwhile (an attachment deleted) is left out. */
  const addFile = async (part: PartName, rel: string, name: string, path: string) => {
    let size: number
    let stream: ReturnType<typeof createReadStream>
    try {
      size = statSync(path).size
      stream = createReadStream(path)
      await once(stream, 'open')
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return
      throw err
    }
    const hash = createHash('sha256')
    await tar.add(
      name,
      size,
      tapped(stream, hash, (n) => options.progress({ part, done: (done += n), total, finished: false }), options.stop),
    )
    digests.get(part)!.add(rel, size, hash.digest('hex'))
  }
  const finished = (part: PartName) => digests.get(part)!.files > 0 && options.progress({ part, done, total, finished: true })
  try {
    if (database && databaseTree) {
      await tar.addDirectory(`database/${database.name}`)
      for (const dir of databaseTree.dirs) await tar.addDirectory(`database/${database.name}/${dir}`)
      for (const rel of databaseTree.files) await addFile('database', `${database.name}/${rel}`, `database/${database.name}/${rel}`, join(database.path, rel))
    } else if (database) await addFile('database', database.name, `database/${database.name}`, database.path)
    finished('database')
    if (existsSync(secret)) await addFile('auth-secret', SECRET, SECRET, secret)
    finished('auth-secret')
    for (const rel of objectTree.files) await addFile('objects', rel, `objects/${rel}`, join(objects, rel))
    finished('objects')
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      ecobase: { version: pkg.version },
      migrations: snapshot.migrations,
      database: snapshot.kind,
      ...(options.backupId ? { backupId: options.backupId } : {}),
      createdAt: new Date().toISOString(),
      parts: PART_NAMES.map((p) => digests.get(p)!.summary(p)).filter((p) => p.files > 0),
    }
    const text = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)
    await tar.add(MANIFEST, text.byteLength, [text])
    await tar.end()
    gzip.end()
    await written
    renameSync(partial, out)
    return manifest
  } catch (err) {
    gzip.destroy()
    await written.catch(() => {})
    await rm(partial, { force: true })
    throw err
  }
}

/** Refuses at once what is not an archive file (a directory, a device, nothing). */
export function checkArchiveFile(path: string): void {
  const stat = statSync(path, { throwIfNoEntry: false })
  if (!stat) throw new BackupError(`${path}: no such file`)
  if (!stat.isFile()) throw new BackupError(`${path} is ${stat.isDirectory() ? 'a directory' : 'not a regular file'}, not a backup archive`)
}

/** Whether the archive at `path` is encrypted (BACKUP_ENCRYPTION_KEY); refuses a file that is neither that nor gzip. */
export function archiveEncrypted(path: string): boolean {
  const fd = openSync(path, 'r')
  const start = Buffer.alloc(MAGIC.length)
  try {
    readSync(fd, start, 0, start.length, 0)
  } finally {
    closeSync(fd)
  }
  if (isEncrypted(start)) return true
  if (start[0] === 0x1f && start[1] === 0x8b) return false
  throw new BackupError(`${path} is not an Ecobase backup (neither a .tar.gz nor an encrypted archive)`)
}

/** Where `readBackup` puts each file it reads: a path (in a directory being filled), or null to check it only. */
export type Placement = (part: PartName, rel: string) => string | null

/** An entry's name as restore would use it: relative, normalised, in one of the archive's parts. */
function place(raw: string, type: string): { part: PartName | 'manifest'; rel: string; directory?: true } | null {
  // `tar -C dir -cf x.tar .` names entries `./…`: the same names. A directory's name may end in `/`.
  let name = raw.startsWith('./') ? raw.slice(2) : raw
  if (type === 'directory' && name.endsWith('/')) name = name.slice(0, -1)
  if (name === '' || name === '.') return null
  if (name.startsWith('/')) throw new BackupError(`holds an absolute path (${raw}): a backup holds relative names only`)
  if (name.split('/').some((s) => s === '' || s === '.' || s === '..'))
    throw new BackupError(`holds a name that is not normalised (${raw}): no "..", "." or empty parts`)
  if (name === 'database/pglite.tar.gz')
    throw new BackupError(`is backup format 1 (an earlier Ecobase): restore it with the Ecobase that made it, then back up again`)
  const [top, ...rest] = name.split('/')
  if (type === 'directory') {
    // The database's directories are kept (PostgreSQL needs its empty ones); the others come with their files.
    if (top === 'database' && rest[0] === 'pglite') return { part: 'database', rel: rest.join('/'), directory: true }
    if (top === 'objects' || (top === 'database' && rest.length === 0)) return null
  } else if (name === MANIFEST) return { part: 'manifest', rel: MANIFEST }
  else if (name === SECRET) return { part: 'auth-secret', rel: SECRET }
  else if (top === 'objects' && rest.length) return { part: 'objects', rel: rest.join('/') }
  else if (top === 'database' && ((rest[0] === 'pglite' && rest.length > 1) || (rest.length === 1 && rest[0] === 'postgres.dump')))
    return { part: 'database', rel: rest.join('/') }
  throw new BackupError(`holds ${raw}, which is no part of an Ecobase backup`)
}

function parseManifest(bytes: Buffer): BackupManifest {
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(bytes.toString('utf8')) as BackupManifest
  } catch {
    throw new BackupError('has a manifest that is not JSON')
  }
  const count = (n: unknown) => Number.isSafeInteger(n) && (n as number) >= 0
  const valid =
    typeof manifest === 'object' &&
    manifest !== null &&
    Array.isArray(manifest.parts) &&
    count(manifest.format) &&
    count(manifest.migrations) &&
    typeof manifest.createdAt === 'string' &&
    manifest.parts.every((p) => PART_NAMES.includes(p?.name) && count(p.files) && count(p.size) && /^[0-9a-f]{64}$/.test(String(p.sha256)))
  if (!valid) throw new BackupError('has a manifest this Ecobase cannot read')
  if (manifest.format !== BACKUP_FORMAT) throw new BackupError(`is backup format ${manifest.format}; this Ecobase reads format ${BACKUP_FORMAT}`)
  if (!['pglite', 'postgres', 'none'].includes(manifest.database)) throw new BackupError('has a manifest this Ecobase cannot read (database)')
  return manifest
}

/**
 * Reads a whole archive the way restore does, in one pass: every entry a regular file or directory
 * with a relative, normalised name inside its part, none twice, the manifest at most 1 MiB; each
 * file goes where `placement` says (or is only hashed), and every part must match the manifest.
 * Nothing is written outside the placements. Throws BackupError naming what is wrong.
 */
export async function readBackup(path: string, keys: readonly string[], placement: Placement, progress: Progress): Promise<BackupManifest> {
  checkArchiveFile(path)
  const encrypted = archiveEncrypted(path)
  const total = statSync(path).size
  let read = 0
  const raw = createReadStream(path)
  raw.on('data', (chunk) => void (read += chunk.length))
  const plain = encrypted ? Readable.from(decrypt(keys, raw)) : raw
  const gunzip = createGunzip()
  const feeding = pipeline(plain, gunzip)
  feeding.catch(() => {})
  const seen = new Set<string>()
  const digests = new Map<PartName, PartDigest>(PART_NAMES.map((p) => [p, new PartDigest()]))
  let manifest: BackupManifest | null = null
  let current: PartName | null = null
  try {
    for await (const entry of readTar(gunzip)) {
      if (entry.type === 'symlink' || entry.type === 'hardlink' || entry.type === 'other') {
        throw new BackupError(
          `holds ${entry.name}, a ${entry.type === 'other' ? 'special file' : entry.type === 'symlink' ? 'symbolic link' : 'hard link'}: a backup holds regular files and directories only`,
        )
      }
      const placed = place(entry.name, entry.type)
      if (!placed) continue
      if (placed.directory) {
        const dir = placement(placed.part as PartName, placed.rel)
        if (dir) mkdirSync(dir, { recursive: true })
        continue
      }
      const key = `${placed.part}:${placed.rel}`
      if (seen.has(key)) throw new BackupError(`holds ${entry.name} twice`)
      seen.add(key)
      if (placed.part === 'manifest') {
        if (entry.size > MAX_MANIFEST_BYTES) throw new BackupError(`has a ${entry.size}-byte manifest: at most ${MAX_MANIFEST_BYTES}`)
        const bytes: Buffer[] = []
        for await (const chunk of entry.chunks) bytes.push(Buffer.from(chunk))
        manifest = parseManifest(Buffer.concat(bytes))
        continue
      }
      const hash = createHash('sha256')
      const target = placement(placed.part, placed.rel)
      if (current && current !== placed.part) progress({ part: current, done: read, total, finished: true })
      current = placed.part
      const chunks = tapped(entry.chunks, hash, () => progress({ part: placed.part, done: read, total, finished: false }))
      if (target) {
        mkdirSync(dirname(target), { recursive: true })
        // `wx`: never over what is there (a path met twice, a link planted in the directory).
        const out = createWriteStream(target, { flags: 'wx', mode: placed.part === 'auth-secret' ? 0o600 : 0o644 })
        await pipeline(Readable.from(chunks), out)
      } else for await (const _ of chunks) void _
      digests.get(placed.part)!.add(placed.rel, entry.size, hash.digest('hex'))
    }
    if (current) progress({ part: current, done: total, total, finished: true })
  } catch (err) {
    if (err instanceof BackupError) throw new BackupError(`${path} ${err.message}`)
    if (err instanceof TarError || err instanceof DecryptError || (err as { code?: string }).code?.startsWith('Z_'))
      throw new BackupError(`${path} is damaged: ${(err as Error).message}`)
    throw err
  } finally {
    raw.destroy()
    gunzip.destroy()
  }
  if (!manifest) throw new BackupError(`${path} has no manifest: not a complete Ecobase backup`)
  for (const part of PART_NAMES) {
    const got = digests.get(part)!.summary(part)
    const listed = manifest.parts.find((p) => p.name === part)
    if (!listed && got.files === 0) continue
    if (!listed) throw new BackupError(`${path} holds ${part} files its manifest does not list`)
    if (got.files !== listed.files) throw new BackupError(`${path}: ${part} has ${got.files} files, its manifest says ${listed.files} (damaged or tampered)`)
    if (got.size !== listed.size || got.sha256 !== listed.sha256) throw new BackupError(`${path}: ${part} does not match its checksum (tampered or damaged)`)
  }
  const kind = manifest.database
  const files = digests.get('database')!
  if ((kind === 'none') !== (files.files === 0) || (kind !== 'none' && !seen.has(`database:${kind === 'postgres' ? 'postgres.dump' : 'pglite/PG_VERSION'}`))) {
    throw new BackupError(`${path}: its database part is not the ${kind} database its manifest says`)
  }
  const known = knownMigrations()
  if (manifest.migrations > known) {
    throw new BackupError(
      `${path} was made by a newer Ecobase (${manifest.ecobase?.version}, ${manifest.migrations} migrations; this one knows ${known}): restore it with that version or later`,
    )
  }
  return manifest
}
