import { afterAll, describe, expect, test } from 'bun:test'
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig, openDatabase } from '../../src/boot'
import { sql } from 'drizzle-orm'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { progressReporter } from '../../src/cli/progress'
import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { createGunzip, gzipSync } from 'node:zlib'
import { writeBackup } from '../../src/platform/backup/archive'
import { stoppedPglite } from '../../src/platform/backup/database'
import { readTar, TarWriter } from '../../src/platform/backup/tar'
import { MIGRATIONS_DIR, openPglite, pgliteDir, queryRows } from '../../src/platform/db'
import { lockDataDir } from '../../src/platform/lifecycle'
import { emptyDatabase, freshDatabase, testDatabaseUrl } from '../support/database'

// The command line as an operator runs it: `node bin/ecobase.mjs …` (what `npx ecobase` runs), on an
// embedded DATA_DIR of its own (the command line's database is whatever the environment names).
const ROOT = join(import.meta.dir, '..', '..')
const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-cli-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

/** node by its path, so a run may be given a PATH without it (and without pg_dump). */
const NODE = Bun.which('node') ?? 'node'

function ecobase(args: string[], input?: string, env: Record<string, string> = {}) {
  const run = spawnSync(NODE, [join(ROOT, 'bin', 'ecobase.mjs'), ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
    input,
    encoding: 'utf8',
    timeout: 60_000,
  })
  return { code: run.status, out: run.stdout, err: run.stderr }
}

/**
 * Runs `work` against the app on a data directory (the command line's by default), as the server
 * would open it; with `queue`, its job queue takes jobs (changes that enqueue e-mails need it).
 */
async function withApp<T>(work: (app: ReturnType<typeof createApp>) => Promise<T>, dir = dataDir, options: { queue?: boolean } = {}): Promise<T> {
  const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', DB_DEBUG: '1' })
  const database = await openDatabase(config)
  const deps = buildDeps(config, database)
  // The app declares the queue's job kinds: it comes first.
  const app = createApp(deps)
  if (options.queue) await deps.queue.prepare()
  try {
    return await work(app)
  } finally {
    if (options.queue) await deps.queue.stop()
    await database.close()
  }
}
const call = async (app: ReturnType<typeof createApp>, method: string, path: string, body?: unknown, token?: string) => {
  const res = await app.handle(
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    }),
  )
  return { status: res.status, body: await res.json().catch(() => null) }
}

describe('npx ecobase', () => {
  test('help: without a command, the commands each with a line and exit 2; --help and -h on every command and group; --version; an unknown one is exit 2', () => {
    const bare = ecobase([])
    expect(bare.code).toBe(2)
    expect(bare.out).toMatch(/^ {2}admin create {3}Make an account a platform admin/m)
    expect(bare.out).toMatch(/^ {2}restore {8}Restore a backup/m)
    expect(bare.out).toContain('node <project>/bin/ecobase.mjs')
    for (const command of [['migrate'], ['admin', 'create'], ['admin', 'reset-mfa'], ['backup'], ['verify'], ['restore'], ['openapi']]) {
      for (const flag of ['--help', '-h']) {
        const help = ecobase([...command, flag])
        expect(help.code, `${command.join(' ')} ${flag}`).toBe(0)
        expect(help.out).toStartWith(`ecobase ${command.join(' ')}`)
      }
    }
    // A subcommand's help even where its arguments would be missing.
    expect(ecobase(['restore', '-h']).out).toContain('--force')
    const admin = ecobase(['admin', '--help'])
    expect(admin.code).toBe(0)
    expect(admin.out).toMatch(/^ {2}admin create {3}Make an account/m)
    const group = ecobase(['admin'])
    expect(group.code).toBe(2)
    expect(group.err).toContain('admin needs a command')
    expect(ecobase(['--version']).out.trim()).toMatch(/^ecobase \d+\.\d+\.\d+/)
    expect(ecobase(['-h']).code).toBe(0)
    const unknown = ecobase(['backflip'])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('unknown command "backflip"')
    const option = ecobase(['admin', 'create', '--mail', 'x'])
    expect(option.code).toBe(2)
    expect(option.err).toContain('unknown option --mail')
    expect(option.err).toContain('ecobase admin create --email E')
  }, 60_000)

  test('migrate brings a new data directory up to date; a data directory a server holds is refused with exit 1', () => {
    const done = ecobase(['migrate'])
    expect(done.code, done.err).toBe(0)
    expect(done.out).toContain('migrations applied (embedded')
    const held = lockDataDir(dataDir, () => {})
    try {
      const refused = ecobase(['migrate'])
      expect(refused.code).toBe(1)
      expect(refused.err).toContain('is in use by another Ecobase process')
    } finally {
      held.release()
    }
  }, 60_000)

  test('admin create makes a platform admin who signs in with the password from stdin; again it changes nothing; an unknown e-mail without a password is exit 1', async () => {
    const created = ecobase(['admin', 'create', '--email', 'Root@Example.test', '--password-stdin'], 'a-strong-password\n')
    expect(created.code, created.err).toBe(0)
    expect(created.out.trim()).toBe('created Root@Example.test as a platform admin')
    expect(ecobase(['admin', 'create', '--email', 'root@example.test']).out.trim()).toBe('root@example.test was already a platform admin')
    const missing = ecobase(['admin', 'create', '--email', 'nobody@example.test'])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain('give its password with --password-stdin')
    const short = ecobase(['admin', 'create', '--email', 'short@example.test', '--password-stdin'], 'short\n')
    expect(short.code).toBe(1)

    await withApp(async (app) => {
      const login = await call(app, 'POST', '/auth/login', { email: 'root@example.test', password: 'a-strong-password' })
      expect(login.status).toBe(200)
      expect(login.body.user.capabilities).toEqual(['admin'])
      // Someone who registered first is promoted, not recreated.
      const later = await call(app, 'POST', '/auth/register', { email: 'later@example.test', password: 'another-password', name: 'Later' })
      expect(later.body.user.capabilities).toEqual([])
    })
    expect(ecobase(['admin', 'create', '--email', 'later@example.test']).out.trim()).toBe('later@example.test is now a platform admin')
    await withApp(async (app) => {
      const login = await call(app, 'POST', '/auth/login', { email: 'later@example.test', password: 'another-password' })
      expect(login.body.user.capabilities).toEqual(['admin'])
      const audit = await call(app, 'GET', '/audit/events?action=settings.admin.granted', undefined, login.body.token)
      expect(audit.body.items.map((e: { actor: { type: string; id: string } }) => `${e.actor.type}:${e.actor.id}`)).toEqual(['system:cli', 'system:cli'])
    })
  }, 60_000)

  test('admin reset-mfa removes an account’s second factors and signs it out, audited as the command line, its owner e-mailed once a server runs; an unknown e-mail is exit 1', async () => {
    const { TOTP, Secret } = await import('otpauth')
    const user = await withApp(
      async (app) => {
        const registered = await call(app, 'POST', '/auth/register', { email: 'lost@example.test', password: 'lost-device-password', name: 'Lost' })
        const start = await call(app, 'POST', '/auth/mfa/totp', { name: 'Phone' }, registered.body.token)
        const code = new TOTP({ secret: Secret.fromBase32(start.body.secret) }).generate()
        expect((await call(app, 'POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { code }, registered.body.token)).status).toBe(200)
        const login = await call(app, 'POST', '/auth/login', { email: 'lost@example.test', password: 'lost-device-password' })
        expect((await call(app, 'GET', '/auth/tokens', undefined, login.body.token)).status).toBe(403)
        return { id: registered.body.user.id as string, token: registered.body.token as string }
      },
      dataDir,
      { queue: true },
    )
    const reset = ecobase(['admin', 'reset-mfa', '--email', 'LOST@example.test'])
    expect(reset.code, reset.err).toBe(0)
    expect(reset.out.trim()).toBe('reset the second factors of LOST@example.test (1 removed; its sessions are signed out)')
    const unknown = ecobase(['admin', 'reset-mfa', '--email', 'nobody@example.test'])
    expect([unknown.code, unknown.err.trim()]).toEqual([1, 'ecobase: no account has the e-mail nobody@example.test'])
    expect(ecobase(['admin', 'reset-mfa']).code).toBe(2)

    await withApp(async (app) => {
      expect((await call(app, 'GET', '/auth/me', undefined, user.token)).status).toBe(401)
      const login = await call(app, 'POST', '/auth/login', { email: 'lost@example.test', password: 'lost-device-password' })
      expect((await call(app, 'GET', '/auth/me', undefined, login.body.token)).body.mfa).toEqual({ enabled: false, factors: [] })
      expect((await call(app, 'GET', '/auth/tokens', undefined, login.body.token)).status).toBe(200)
    })
    const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' })
    const database = await openDatabase(config)
    try {
      const events = await queryRows<{ actor: string }>(
        database.db,
        sql`select actor_type || ':' || actor_id as actor from audit.events where action = 'auth.mfa.reset' and target_id = ${user.id}`,
      )
      expect(events.map((e) => e.actor)).toEqual(['system:cli'])
      const notices = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from pgboss.job where name = 'account-security-notice' and data->>'userId' = ${user.id} and data->>'change' = 'mfa_reset'`,
      )
      expect(notices[0]!.n).toBe(1)
    } finally {
      await database.close()
    }
  }, 60_000)

  test('openapi writes the document the server serves', () => {
    const out = join(dataDir, 'openapi.json')
    expect(ecobase(['openapi', '--out', out]).code).toBe(0)
    expect(readFileSync(out, 'utf8')).toBe(readFileSync(join(ROOT, 'openapi.json'), 'utf8'))
  }, 60_000)
})

/** A copy of an archive with `change` applied to its files (the manifest is one too). */
async function rewrite(from: string, to: string, change: (name: string, bytes: Buffer) => Buffer) {
  const chunks: Buffer[] = []
  const tar = new TarWriter(async (chunk) => void chunks.push(Buffer.from(chunk)))
  for await (const entry of readTar(createReadStream(from).pipe(createGunzip()))) {
    const parts: Buffer[] = []
    for await (const chunk of entry.chunks) parts.push(Buffer.from(chunk))
    if (entry.type === 'directory') await tar.addDirectory(entry.name.replace(/\/$/, ''))
    else {
      const bytes = change(entry.name, Buffer.concat(parts))
      await tar.add(entry.name, bytes.byteLength, [bytes])
    }
  }
  await tar.end()
  writeFileSync(to, gzipSync(Buffer.concat(chunks)))
}

/** The command line run by its own pid (bun itself, as bin/ecobase.mjs runs it), to be killed by that pid. */
function ecobaseProcess(args: string[], env: Record<string, string> = {}) {
  return spawn(join(ROOT, 'node_modules', '.bin', 'bun'), [join(ROOT, 'src', 'cli', 'index.ts'), ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent', ...env },
    stdio: 'ignore',
  })
}

describe('npx ecobase backup, verify, restore', () => {
  const archive = join(dataDir, 'backup.tar.gz')
  // An uploaded file's key: ecosystem, customer, attachment (118 bytes with objects/).
  const object = `${randomUUID()}/${randomUUID()}/${randomUUID()}`

  test('a backup of a stopped instance with uploaded files restores into an empty directory whole: accounts, the server key, local files', async () => {
    await withApp(async (app) => {
      expect((await call(app, 'POST', '/auth/register', { email: 'kept@example.test', password: 'kept-password', name: 'Kept' })).status).toBe(201)
    })
    mkdirSync(join(dataDir, 'objects', object, '..'), { recursive: true })
    writeFileSync(join(dataDir, 'objects', object), 'not really a png')
    const made = ecobase(['backup', '--out', archive])
    expect(made.code, made.err).toBe(0)
    expect(made.out).toContain(`wrote ${archive}: 3 parts`)
    expect(existsSync(archive)).toBe(true)
    expect(existsSync(`${archive}.partial`)).toBe(false)
    expect(ecobase(['verify', archive]).out).toContain('is whole: 3 parts')
    // An existing file is replaced only with --force.
    const again = ecobase(['backup', '--out', archive])
    expect(again.code).toBe(1)
    expect(again.err.trim()).toBe(`ecobase: ${archive} already exists: pass --force to replace it`)
    expect(ecobase(['backup', '--out', archive, '--force']).code).toBe(0)

    const target = join(dataDir, 'restored')
    const restored = ecobase(['restore', archive, '--data-dir', target])
    expect(restored.code, restored.err).toBe(0)
    expect(readFileSync(join(target, 'objects', object), 'utf8')).toBe('not really a png')
    expect(readFileSync(join(target, 'auth-secret'), 'utf8')).toBe(readFileSync(join(dataDir, 'auth-secret'), 'utf8'))
    expect(readdirSync(dataDir).filter((name) => name.includes('.restoring'))).toEqual([])
    const epochOf = async (dir: string) => {
      const database = await openDatabase(loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', DB_DEBUG: '1' }))
      try {
        return (await queryRows<{ value: string }>(database.db, sql`select value from realtime.epoch`))[0]!.value
      } finally {
        await database.close()
      }
    }
    await withApp(async (app) => {
      expect((await call(app, 'POST', '/auth/login', { email: 'kept@example.test', password: 'kept-password' })).status).toBe(200)
    }, target)
    // Realtime cursors given out after the backup name a history the restored instance does not follow: a new epoch resets them.
    expect(await epochOf(target)).not.toBe(await epochOf(dataDir))
    // Not over an instance, unless asked: then, at the last step, the old one is moved aside, not deleted.
    const refused = ecobase(['restore', archive, '--data-dir', target])
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('already holds an instance')
    const forced = ecobase(['restore', archive, '--data-dir', target, '--force'])
    expect(forced.code, forced.err).toBe(0)
    const aside = readdirSync(target).find((name) => name.startsWith('before-restore-'))!
    expect(readFileSync(join(target, aside, 'objects', object), 'utf8')).toBe('not really a png')
    expect(readFileSync(join(target, 'objects', object), 'utf8')).toBe('not really a png')
  }, 120_000)

  test('every error is one line (no stack): an --out that is a directory, verify of a directory (at once), a refused archive; a refused restore creates nothing', async () => {
    const oneLine = (run: { code: number | null; err: string }) => {
      expect(run.code).toBe(1)
      expect(run.err.trim().split('\n')).toHaveLength(1)
      expect(run.err).not.toContain('    at ')
      return run.err.trim()
    }
    expect(oneLine(ecobase(['backup', '--out', dataDir]))).toContain('is a directory')
    expect(oneLine(ecobase(['verify', dataDir]))).toBe(`ecobase: ${dataDir} is a directory, not a backup archive`)
    const linked = join(dataDir, 'symlink.tar.gz')
    writeFileSync(linked, gzipSync(Buffer.concat([symlinkHeader('objects/eco/link', '/etc/passwd'), Buffer.alloc(1024)])))
    expect(oneLine(ecobase(['verify', linked]))).toContain('symbolic link')
    const target = join(dataDir, 'never', 'data')
    expect(oneLine(ecobase(['restore', linked, '--data-dir', target]))).toContain('symbolic link')
    expect(existsSync(join(dataDir, 'never'))).toBe(false)
    expect(oneLine(ecobase(['backup'], undefined, { DATA_DIR: join(dataDir, 'nothing-here') }))).toContain('holds no embedded database')
    expect(existsSync(join(dataDir, 'nothing-here'))).toBe(false)
  }, 60_000)

  test('a tampered archive and one from a newer Ecobase are refused by verify and restore, and nothing is written', async () => {
    const tampered = join(dataDir, 'tampered.tar.gz')
    await rewrite(archive, tampered, (name, bytes) => (name === `objects/${object}` ? Buffer.from('NOT really a png') : bytes))
    const checked = ecobase(['verify', tampered])
    expect(checked.code).toBe(1)
    expect(checked.err).toContain('objects does not match its checksum')
    const target = join(dataDir, 'never')
    expect(ecobase(['restore', tampered, '--data-dir', target]).code).toBe(1)
    expect(existsSync(target)).toBe(false)

    const newer = join(dataDir, 'newer.tar.gz')
    await rewrite(archive, newer, (name, bytes) => {
      if (name !== 'manifest.json') return bytes
      const manifest = JSON.parse(bytes.toString('utf8'))
      return Buffer.from(JSON.stringify({ ...manifest, migrations: manifest.migrations + 1, ecobase: { version: '9.9.9' } }))
    })
    const refused = ecobase(['verify', newer])
    expect(refused.code).toBe(1)
    expect(refused.err).toContain('was made by a newer Ecobase (9.9.9')
    expect(ecobase(['restore', newer, '--data-dir', target]).code).toBe(1)
    expect(existsSync(target)).toBe(false)
    expect(ecobase(['verify']).code).toBe(2)
  }, 120_000)

  test('a backup from an older Ecobase (one migration behind) is restored and migrated forward', async () => {
    // An instance as the previous release left it: every migration but the last.
    const older = join(dataDir, 'older-migrations')
    cpSync(MIGRATIONS_DIR, older, { recursive: true })
    const journalFile = join(older, 'meta', '_journal.json')
    const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as { entries: { tag: string }[] }
    journal.entries.pop()
    writeFileSync(journalFile, JSON.stringify(journal))
    const source = join(dataDir, 'older-instance')
    const database = await openPglite({ dataDir: pgliteDir(source) })
    const archive = join(dataDir, 'older.tar.gz')
    try {
      await migratePglite(database.db as never, { migrationsFolder: older })
    } finally {
      await database.close()
    }
    await writeBackup(await stoppedPglite(source), source, archive, { keys: [], progress: () => {} })
    const target = join(dataDir, 'from-older')
    const restored = ecobase(['restore', archive, '--data-dir', target])
    expect(restored.code, restored.err).toBe(0)
    const reopened = await openPglite({ dataDir: pgliteDir(target) })
    try {
      const [row] = await queryRows<{ n: number }>(reopened.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
      expect(row!.n).toBe(journal.entries.length + 1)
    } finally {
      await reopened.close()
    }
  }, 120_000)

  test.skipIf(!testDatabaseUrl)(
    'with DATABASE_URL: pg_dump -Fc goes into the archive beside the server key and the local files; restore puts it into an empty database with pg_restore',
    async () => {
      const pg = await freshDatabase()
      const empty = await emptyDatabase()
      const dir = mkdtempSync(join(tmpdir(), 'ecobase-cli-pg-'))
      try {
        await withPg(pg.url!, dir, async (app) => {
          expect((await call(app, 'POST', '/auth/register', { email: 'pg@example.test', password: 'pg-password-1', name: 'Pg' })).status).toBe(201)
        })
        mkdirSync(join(dir, 'objects', object, '..'), { recursive: true })
        writeFileSync(join(dir, 'objects', object), 'a local file')
        writeFileSync(join(dir, 'auth-secret'), 'a generated server key')
        const out = join(dir, 'pg.tar.gz')
        const made = ecobase(['backup', '--out', out], undefined, { DATA_DIR: dir, DATABASE_URL: pg.url! })
        expect(made.code, made.err).toBe(0)
        expect(made.out).toContain('the database: pg_dump of DATABASE_URL')
        expect(ecobase(['verify', out]).out).toContain('is whole: 3 parts')
        expect(ecobase(['verify', out]).out).toContain('database postgres')
        // Not into a database that holds anything.
        const target = join(dir, 'restored')
        const full = ecobase(['restore', out, '--data-dir', target], undefined, { DATABASE_URL: pg.url! })
        expect(full.code).toBe(1)
        expect(full.err).toContain('is not empty')
        expect(existsSync(target)).toBe(false)
        const restored = ecobase(['restore', out, '--data-dir', target], undefined, { DATABASE_URL: empty.url })
        expect(restored.code, restored.err).toBe(0)
        expect(restored.out).toContain('the database into DATABASE_URL')
        expect(readFileSync(join(target, 'objects', object), 'utf8')).toBe('a local file')
        expect(readFileSync(join(target, 'auth-secret'), 'utf8')).toBe('a generated server key')
        expect(existsSync(join(target, 'pglite'))).toBe(false)
        await withPg(empty.url, target, async (app) => {
          expect((await call(app, 'POST', '/auth/login', { email: 'pg@example.test', password: 'pg-password-1' })).status).toBe(200)
        })
        // Without pg_dump on the PATH: the server key and the local files only, and it says so.
        const bare = ecobase(['backup', '--out', join(dir, 'bare.tar.gz')], undefined, { DATA_DIR: dir, DATABASE_URL: pg.url!, PATH: '/nonexistent' })
        expect(bare.code, bare.err).toBe(0)
        expect(bare.out).toContain('no pg_dump on the PATH')
        expect(ecobase(['verify', join(dir, 'bare.tar.gz')]).out).toContain('is whole: 2 parts')
        const unreachable = ecobase(['backup', '--out', join(dir, 'no.tar.gz')], undefined, {
          DATA_DIR: dir,
          DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
        })
        expect(unreachable.code).toBe(1)
        expect(unreachable.err).toContain('DATABASE_URL: cannot connect')
      } finally {
        await pg.drop()
        await empty.drop()
        rmSync(dir, { recursive: true, force: true })
      }
    },
    120_000,
  )

  test('kill -9 during a backup leaves earlier archives whole and nothing that looks complete; kill -9 during a restore leaves the target untouched', async () => {
    // Enough bytes that the work is still going when it is killed.
    const big = join(dataDir, 'objects', 'eco', 'big.bin')
    mkdirSync(join(big, '..'), { recursive: true })
    writeFileSync(big, Buffer.alloc(200 * 1024 * 1024, 7))
    const out = join(dataDir, 'killed.tar.gz')
    try {
      const child = ecobaseProcess(['backup', '--out', out])
      const exited = new Promise((resolve) => child.on('exit', resolve))
      const deadline = Date.now() + 60_000
      while (!existsSync(`${out}.partial`) && Date.now() < deadline) await Bun.sleep(20)
      expect(existsSync(`${out}.partial`)).toBe(true)
      child.kill('SIGKILL')
      await exited
      expect(existsSync(out)).toBe(false)
      expect(ecobase(['verify', `${out}.partial`]).code).toBe(1)
      expect(ecobase(['verify', archive]).code).toBe(0)

      const whole = join(dataDir, 'big.tar.gz')
      expect(ecobase(['backup', '--out', whole]).code).toBe(0)
      const target = join(dataDir, 'restored')
      const before = readdirSync(target, { recursive: true }).map(String).sort()
      const secret = readFileSync(join(target, 'auth-secret'))
      const restoring = ecobaseProcess(['restore', whole, '--data-dir', target, '--force'])
      const stopped = new Promise((resolve) => restoring.on('exit', resolve))
      const staging = join(dataDir, '.restored.restoring', 'objects', 'eco', 'big.bin')
      const until = Date.now() + 60_000
      while (!existsSync(staging) && Date.now() < until) await Bun.sleep(10)
      expect(existsSync(staging)).toBe(true)
      restoring.kill('SIGKILL')
      await stopped
      expect(readdirSync(target, { recursive: true }).map(String).sort()).toEqual(before)
      expect(readFileSync(join(target, 'auth-secret')).equals(secret)).toBe(true)
      // The next restore clears what the killed one left, and completes.
      expect(ecobase(['restore', whole, '--data-dir', target, '--force']).code).toBe(0)
      expect(existsSync(join(dataDir, '.restored.restoring'))).toBe(false)
      expect(statSync(join(target, 'objects', 'eco', 'big.bin')).size).toBe(200 * 1024 * 1024)
    } finally {
      rmSync(big, { force: true })
    }
  }, 180_000)
})

/** A symbolic-link entry, as another tar program writes one. */
function symlinkHeader(name: string, link: string): Buffer {
  const block = Buffer.alloc(512)
  block.write(name, 0, 100)
  block.write('0000777\0', 100)
  block.write('0000000\0', 108)
  block.write('0000000\0', 116)
  block.write('00000000000\0', 124)
  block.write('00000000000\0', 136)
  block.write('        ', 148)
  block.write('2', 156)
  block.write(link, 157, 100)
  block.write('ustar\u000000', 257)
  let sum = 0
  for (const byte of block) sum += byte
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return block
}

/** The app on a PostgreSQL database (migrated as at boot), with DATA_DIR `dir`. */
async function withPg<T>(url: string, dir: string, work: (app: ReturnType<typeof createApp>) => Promise<T>): Promise<T> {
  const config = loadConfig({ DATA_DIR: dir, DATABASE_URL: url, LOG_LEVEL: 'silent', DB_DEBUG: '1' })
  const database = await openDatabase(config)
  try {
    return await work(createApp(buildDeps(config, database)))
  } finally {
    await database.close()
  }
}

describe('progress', () => {
  const capture = (isTTY: boolean) => {
    const written: string[] = []
    return { out: { isTTY, write: (text: string) => written.push(text) }, written }
  }

  test('to a terminal: one bar redrawn with bytes and percent, a new line at the end; to a log: a line per part', () => {
    const tty = capture(true)
    const report = progressReporter(tty.out)
    report({ part: 'database/pglite.tar.gz', done: 512 * 1024, total: 2 * 1_048_576, finished: false })
    report({ part: 'objects/a.png', done: 2 * 1_048_576, total: 2 * 1_048_576, finished: true })
    expect(tty.written[0]).toMatch(/^\r {2}\[#{8}-{22}\] {2}25% 0\.5 MB\/2\.0 MB database\/pglite\.tar\.gz/)
    expect(tty.written[1]).toMatch(/^\r {2}\[#{30}\] 100% 2\.0 MB\/2\.0 MB objects\/a\.png/)
    expect(tty.written.at(-1)).toBe('\n')

    const log = capture(false)
    const plain = progressReporter(log.out)
    plain({ part: 'database/pglite.tar.gz', done: 512 * 1024, total: 2 * 1_048_576, finished: false })
    plain({ part: 'database/pglite.tar.gz', done: 1_048_576, total: 2 * 1_048_576, finished: true })
    plain({ note: 'moved the old instance aside' })
    expect(log.written).toEqual(['  database/pglite.tar.gz (1.0 MB of 2.0 MB)\n', '  moved the old instance aside\n'])
  })
})
