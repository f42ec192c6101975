import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createGunzip, gzipSync } from 'node:zlib'
import { loadConfig } from '../../src/config'
import { openDatabase } from '../../src/boot'
import { type BackupManifest, writeBackup } from '../../src/platform/backup/archive'
import { copyLive, stoppedPglite } from '../../src/platform/backup/database'
import { restoreBackup, verifyBackup } from '../../src/platform/backup/restore'
import { readTar, TarWriter } from '../../src/platform/backup/tar'
import { rejection } from '../support/wait'

// The archive itself, read the way restore reads it: long names, a repacked archive, hostile
// archives, encryption. The instance is a stopped embedded one (the format is the same for all).

const scratch = mkdtempSync(join(tmpdir(), 'ecobase-archive-'))
const source = join(scratch, 'source')
const objectKey = `${randomUUID()}/${randomUUID()}/${randomUUID()}`
const longName = `eco/${'n'.repeat(250)}`
const archive = join(scratch, 'plain.tar.gz')
let manifest: BackupManifest
const none = () => {}

beforeAll(async () => {
  const database = await openDatabase(loadConfig({ DATA_DIR: source, LOG_LEVEL: 'silent' }))
  await database.close()
  for (const [key, body] of [
    [objectKey, 'an uploaded photo'],
    [longName, 'a long name'],
  ] as const) {
    mkdirSync(join(source, 'objects', key, '..'), { recursive: true })
    writeFileSync(join(source, 'objects', key), body)
  }
  writeFileSync(join(source, 'auth-secret'), 'the-server-key-in-clear-0123456789\n')
  manifest = await writeBackup(await stoppedPglite(source), source, archive, { keys: [], progress: none })
})
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** The entries of an archive, bytes and all (test archives are small). */
async function entries(path: string): Promise<{ name: string; type: string; bytes: Buffer }[]> {
  const found: { name: string; type: string; bytes: Buffer }[] = []
  for await (const entry of readTar(createReadStream(path).pipe(createGunzip()))) {
    const parts: Buffer[] = []
    for await (const chunk of entry.chunks) parts.push(Buffer.from(chunk))
    found.push({ name: entry.name, type: entry.type, bytes: Buffer.concat(parts) })
  }
  return found
}

/** A ustar header block of any type (a link, a device), the way another tar program writes one. */
function rawHeader(name: string, type: string, size: number, link = ''): Buffer {
  const block = Buffer.alloc(512)
  block.write(name, 0, 100)
  block.write('0000644\0', 100)
  block.write('0000000\0', 108)
  block.write('0000000\0', 116)
  block.write(`${size.toString(8).padStart(11, '0')}\0`, 124)
  block.write('00000000000\0', 136)
  block.write('        ', 148)
  block.write(type, 156)
  block.write(link, 157, 100)
  block.write('ustar\u000000', 257)
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return block
}

/** The plain archive with `extra` tar bytes first (the rest is read only if they pass). */
async function hostile(name: string, extra: Buffer[]): Promise<string> {
  const out = join(scratch, `${name}.tar.gz`)
  const chunks: Buffer[] = [...extra]
  const tar = new TarWriter(async (chunk) => void chunks.push(Buffer.from(chunk)))
  for (const entry of await entries(archive)) {
    if (entry.type === 'directory') await tar.addDirectory(entry.name.replace(/\/$/, ''))
    else await tar.add(entry.name, entry.bytes.byteLength, [entry.bytes])
  }
  await tar.end()
  writeFileSync(out, gzipSync(Buffer.concat(chunks)))
  return out
}

/** A restore of `path` into a fresh directory is refused with `message`, and creates nothing. */
async function refusedWithNothingWritten(path: string, message: string) {
  expect((await rejection(verifyBackup(path, []), message)).message).toContain(message)
  const parent = join(scratch, `never-${randomUUID()}`)
  const target = join(parent, 'data')
  await rejection(restoreBackup(path, target, { force: false, keys: [], databaseUrl: null, progress: none }), message)
  expect(existsSync(parent)).toBe(false)
  expect(readdirSync(scratch).filter((n) => n.includes('.restoring'))).toEqual([])
}

describe('names of any length', () => {
  test('object keys of three UUIDs (118 bytes) and a 250-byte name are written and read back; GNU tar lists them', async () => {
    const names = (await entries(archive)).map((e) => e.name)
    expect(`objects/${objectKey}`.length).toBe(118)
    expect(names).toContain(`objects/${objectKey}`)
    expect(names).toContain(`objects/${longName}`)
    const listed = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' })
    expect(listed.status).toBe(0)
    expect(listed.stdout.split('\n')).toEqual(
      expect.arrayContaining([`objects/${objectKey}`, `objects/${longName}`, 'manifest.json', 'database/pglite/PG_VERSION']),
    )
    expect(manifest.parts.map((p) => [p.name, p.files])).toEqual([
      ['database', expect.any(Number)],
      ['auth-secret', 1],
      ['objects', 2],
    ])
  })

  test('an archive re-made with `tar --format=pax` from the extracted tree verifies and restores byte for byte', async () => {
    const tree = join(scratch, 'extracted')
    mkdirSync(tree)
    expect(spawnSync('tar', ['-xzf', archive, '-C', tree]).status).toBe(0)
    const repacked = join(scratch, 'repacked.tar.gz')
    expect(spawnSync('tar', ['--format=pax', '-czf', repacked, '-C', tree, '.']).status).toBe(0)
    expect((await verifyBackup(repacked, [])).parts).toEqual(manifest.parts)
    const target = join(scratch, 'from-repacked')
    await restoreBackup(repacked, target, { force: false, keys: [], databaseUrl: null, progress: none })
    expect(readFileSync(join(target, 'objects', objectKey), 'utf8')).toBe('an uploaded photo')
    expect(readFileSync(join(target, 'objects', longName), 'utf8')).toBe('a long name')
    expect(readFileSync(join(target, 'auth-secret'), 'utf8')).toBe(readFileSync(join(source, 'auth-secret'), 'utf8'))
    expect(existsSync(join(target, 'pglite', 'PG_VERSION'))).toBe(true)
  })
})

describe('the copy of a running database', () => {
  test('is the directory as it is while statements are held off: what changed after the first passes (same size, longer, gone, new) is copied again', async () => {
    const from = join(scratch, 'live')
    const to = join(scratch, 'live-copy')
    mkdirSync(join(from, 'base'), { recursive: true })
    writeFileSync(join(from, 'base', 'same-size'), 'aaaa')
    writeFileSync(join(from, 'base', 'grows'), 'b')
    writeFileSync(join(from, 'base', 'goes'), 'c')
    let held = false
    await copyLive(from, to, async (work) => {
      // Writes that landed after the passes made while the service ran, just before statements stop.
      writeFileSync(join(from, 'base', 'same-size'), 'AAAA')
      writeFileSync(join(from, 'base', 'grows'), 'bbbbbbbb')
      rmSync(join(from, 'base', 'goes'))
      mkdirSync(join(from, 'pg_wal'))
      writeFileSync(join(from, 'pg_wal', 'new'), 'd')
      held = true
      return work()
    })
    expect(held).toBe(true)
    const tree = (root: string) =>
      readdirSync(root, { recursive: true })
        .map(String)
        .sort()
        .map((p) => [p, statSync(join(root, p)).isFile() ? readFileSync(join(root, p), 'utf8') : 'dir'])
    expect(tree(to)).toEqual(tree(from))
    expect(readFileSync(join(to, 'base', 'same-size'), 'utf8')).toBe('AAAA')
  })
})

describe('a backup that fails', () => {
  test('leaves no FILE.partial and no FILE', async () => {
    // A part that is not what its size said (a file changing under the backup): /proc files say 0 bytes, then give more.
    const out = join(scratch, 'failed.tar.gz')
    const error = await rejection(
      writeBackup({ kind: 'postgres', migrations: 1, source: { path: '/proc/self/status', name: 'postgres.dump' } }, source, out, { keys: [], progress: none }),
      'more than the 0 bytes announced',
    )
    expect(error).toBeInstanceOf(Error)
    expect(existsSync(out)).toBe(false)
    expect(existsSync(`${out}.partial`)).toBe(false)
  })
})

describe('hostile archives: verify refuses them, restore writes nothing', () => {
  test('an entry outside its part: "../", an absolute path', async () => {
    await refusedWithNothingWritten(await hostile('dotdot', [rawHeader('objects/../../evil', '0', 0)]), 'not normalised')
    await refusedWithNothingWritten(await hostile('absolute', [rawHeader('/tmp/evil', '0', 0)]), 'absolute path')
    await refusedWithNothingWritten(await hostile('elsewhere', [rawHeader('etc/cron.d/evil', '0', 0)]), 'no part of an Ecobase backup')
  })

  test('a symbolic link, a hard link, a device', async () => {
    await refusedWithNothingWritten(await hostile('symlink', [rawHeader('objects/eco/link', '2', 0, '/etc/passwd')]), 'symbolic link')
    await refusedWithNothingWritten(await hostile('hardlink', [rawHeader('objects/eco/hard', '1', 0, 'auth-secret')]), 'hard link')
    await refusedWithNothingWritten(await hostile('device', [rawHeader('objects/eco/dev', '3', 0)]), 'special file')
  })

  test('the same name twice', async () => {
    const twice = [rawHeader('auth-secret', '0', 5), Buffer.concat([Buffer.from('again'), Buffer.alloc(507)])]
    await refusedWithNothingWritten(await hostile('duplicate', twice), 'twice')
  })

  test('a 512 MiB manifest inside half a megabyte of gzip is refused from its header, never read into memory', async () => {
    const path = join(scratch, 'huge-manifest.tar.gz')
    const size = 512 * 1024 * 1024
    const { createGzip } = await import('node:zlib')
    const gzip = createGzip({ level: 9 })
    const { createWriteStream } = await import('node:fs')
    const { pipeline } = await import('node:stream/promises')
    const written = pipeline(gzip, createWriteStream(path))
    gzip.write(rawHeader('manifest.json', '0', size))
    const zeros = Buffer.alloc(1024 * 1024)
    for (let i = 0; i < size / zeros.length; i++) if (!gzip.write(zeros)) await new Promise((r) => gzip.once('drain', r))
    gzip.end(Buffer.alloc(1024))
    await written
    expect(statSync(path).size).toBeLessThan(1024 * 1024)
    const before = process.memoryUsage().rss
    await refusedWithNothingWritten(path, '536870912-byte manifest')
    expect(process.memoryUsage().rss - before).toBeLessThan(256 * 1024 * 1024)
  }, 60_000)

  test('a manifest whose checksums do not match, and a file that is not a backup at all', async () => {
    // The same archive with one object's bytes changed, found only at the end: restore has written everything by then.
    const out = join(scratch, 'changed.tar.gz')
    const chunks: Buffer[] = []
    const tar = new TarWriter(async (chunk) => void chunks.push(Buffer.from(chunk)))
    for (const entry of await entries(archive)) {
      if (entry.type === 'directory') await tar.addDirectory(entry.name.replace(/\/$/, ''))
      else {
        const bytes = entry.name === `objects/${objectKey}` ? Buffer.from('AN uploaded photo') : entry.bytes
        await tar.add(entry.name, bytes.byteLength, [bytes])
      }
    }
    await tar.end()
    writeFileSync(out, gzipSync(Buffer.concat(chunks)))
    await refusedWithNothingWritten(out, 'objects does not match its checksum')
    const text = join(scratch, 'not-a-backup.txt')
    writeFileSync(text, 'hello')
    await refusedWithNothingWritten(text, 'not an Ecobase backup')
    await refusedWithNothingWritten(scratch, 'is a directory')
  })
})

describe('BACKUP_ENCRYPTION_KEY', () => {
  const key = 'correct horse battery staple 42'

  test('the archive is AES-256-GCM: no server key or name in clear; verify and restore need the key; another key or a flipped byte is refused', async () => {
    const sealed = join(scratch, 'sealed.tar.gz.enc')
    await writeBackup(await stoppedPglite(source), source, sealed, { keys: [key], progress: none })
    const bytes = readFileSync(sealed)
    expect(bytes.subarray(0, 8).toString()).toBe('ECOBENC1')
    expect(bytes.includes(Buffer.from('the-server-key-in-clear'))).toBe(false)
    expect(bytes.includes(Buffer.from(objectKey))).toBe(false)

    await rejection(verifyBackup(sealed, []), 'set BACKUP_ENCRYPTION_KEY')
    await rejection(verifyBackup(sealed, ['another key entirely, 123']), 'encrypted with another key')
    // Rotation: the new key first, the old one still read.
    expect((await verifyBackup(sealed, ['the new key after rotation', key])).parts).toEqual(
      expect.arrayContaining([expect.objectContaining({ name: 'objects', files: 2 })]),
    )

    const flipped = join(scratch, 'flipped.enc')
    const copy = Buffer.from(bytes)
    copy[copy.length >> 1]! ^= 1
    writeFileSync(flipped, copy)
    await refusedWithNothingWritten(flipped, 'set BACKUP_ENCRYPTION_KEY')
    expect((await rejection(verifyBackup(flipped, [key]))).message).toContain('tampered')
    const truncated = join(scratch, 'truncated.enc')
    writeFileSync(truncated, bytes.subarray(0, bytes.length - 20))
    expect((await rejection(verifyBackup(truncated, [key]))).message).toMatch(/tampered|truncated/)

    const target = join(scratch, 'from-sealed')
    await restoreBackup(sealed, target, { force: false, keys: [key], databaseUrl: null, progress: none })
    expect(readFileSync(join(target, 'objects', objectKey), 'utf8')).toBe('an uploaded photo')
  }, 60_000)
})
