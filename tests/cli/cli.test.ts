import { afterAll, describe, expect, test } from 'bun:test'
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig, openDatabase } from '../../src/boot'
import { sql } from 'drizzle-orm'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { progressReporter } from '../../src/cli/progress'
import { writeBackup } from '../../src/platform/backup/archive'
import { readTar, TarWriter } from '../../src/platform/backup/tar'
import { MIGRATIONS_DIR, openPglite, pgliteDir, queryRows } from '../../src/platform/db'
import { lockDataDir } from '../../src/platform/lifecycle'
import { freshDatabase, testDatabaseUrl } from '../support/database'

// The command line as an operator runs it: `node bin/ecobase.mjs …` (what `npx ecobase` runs), on an
// embedded DATA_DIR of its own (the command line's database is whatever the environment names).
const ROOT = join(import.meta.dir, '..', '..')
const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-cli-'))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

function ecobase(args: string[], input?: string, env: Record<string, string> = {}) {
  const run = spawnSync('node', [join(ROOT, 'bin', 'ecobase.mjs'), ...args], {
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
  test('help: without a command, usage and exit 2; every command has --help; an unknown one is exit 2', () => {
    const bare = ecobase([])
    expect(bare.code).toBe(2)
    expect(bare.out).toContain('admin create --email E')
    for (const command of [['migrate'], ['admin', 'create'], ['admin', 'reset-mfa'], ['backup'], ['verify'], ['restore'], ['openapi']]) {
      const help = ecobase([...command, '--help'])
      expect(help.code, command.join(' ')).toBe(0)
      expect(help.out).toStartWith(`ecobase ${command.join(' ')}`)
    }
    const unknown = ecobase(['backflip'])
    expect(unknown.code).toBe(2)
    expect(unknown.err).toContain('unknown command "backflip"')
    expect(ecobase(['admin', 'create', '--mail', 'x']).code).toBe(2)
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
    const user = await withApp(async (app) => {
      const registered = await call(app, 'POST', '/auth/register', { email: 'lost@example.test', password: 'lost-device-password', name: 'Lost' })
      const start = await call(app, 'POST', '/auth/mfa/totp', { name: 'Phone' }, registered.body.token)
      const code = new TOTP({ secret: Secret.fromBase32(start.body.secret) }).generate()
      expect((await call(app, 'POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { code }, registered.body.token)).status).toBe(200)
      const login = await call(app, 'POST', '/auth/login', { email: 'lost@example.test', password: 'lost-device-password' })
      expect((await call(app, 'GET', '/auth/tokens', undefined, login.body.token)).status).toBe(403)
      return { id: registered.body.user.id as string, token: registered.body.token as string }
    }, dataDir, { queue: true })
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
      const events = await queryRows<{ actor: string }>(database.db, sql`select actor_type || ':' || actor_id as actor from audit.events where action = 'auth.mfa.reset' and target_id = ${user.id}`)
      expect(events.map((e) => e.actor)).toEqual(['system:cli'])
      const notices = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from pgboss.job where name = 'account-security-notice' and data->>'userId' = ${user.id} and data->>'change' = 'mfa_reset'`)
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

/** A copy of an archive with `change` applied to its entries (the manifest is an entry too). */
async function rewrite(from: string, to: string, change: (name: string, bytes: Buffer) => Buffer) {
  const tar = new TarWriter(to)
  for await (const entry of readTar(from)) {
    const parts: Buffer[] = []
    for await (const chunk of entry.chunks) parts.push(chunk)
    const bytes = change(entry.name, Buffer.concat(parts))
    await tar.add(entry.name, bytes.byteLength, (async function* () {
      yield bytes
    })())
  }
  await tar.close()
}

describe('npx ecobase backup, verify, restore', () => {
  const archive = join(dataDir, 'backup.tar.gz')
  const object = 'eco/avatar.png'

  test('a backup of a stopped instance restores into an empty directory whole: accounts, the server key, local files', async () => {
    await withApp(async (app) => {
      expect((await call(app, 'POST', '/auth/register', { email: 'kept@example.test', password: 'kept-password', name: 'Kept' })).status).toBe(201)
    })
    mkdirSync(join(dataDir, 'objects', 'eco'), { recursive: true })
    writeFileSync(join(dataDir, 'objects', object), 'not really a png')
    const made = ecobase(['backup', '--out', archive])
    expect(made.code, made.err).toBe(0)
    expect(existsSync(archive)).toBe(true)
    expect(existsSync(`${archive}.partial`)).toBe(false)
    expect(ecobase(['verify', archive]).out).toContain('is whole: 3 parts')

    const target = join(dataDir, 'restored')
    const restored = ecobase(['restore', archive, '--data-dir', target])
    expect(restored.code, restored.err).toBe(0)
    expect(readFileSync(join(target, 'objects', object), 'utf8')).toBe('not really a png')
    expect(readFileSync(join(target, 'auth-secret'), 'utf8')).toBe(readFileSync(join(dataDir, 'auth-secret'), 'utf8'))
    await withApp(async (app) => {
      expect((await call(app, 'POST', '/auth/login', { email: 'kept@example.test', password: 'kept-password' })).status).toBe(200)
    }, target)
    // Not over an instance, unless asked; then the old one is moved aside, not deleted.
    const again = ecobase(['restore', archive, '--data-dir', target])
    expect(again.code).toBe(1)
    expect(again.err).toContain('already holds an instance')
    const forced = ecobase(['restore', archive, '--data-dir', target, '--force'])
    expect(forced.code, forced.err).toBe(0)
    const aside = readdirSync(target).find((name) => name.startsWith('before-restore-'))!
    expect(readFileSync(join(target, aside, 'objects', object), 'utf8')).toBe('not really a png')
  }, 120_000)

  test('a tampered archive and one from a newer Ecobase are refused by verify and restore, and nothing is written', async () => {
    const tampered = join(dataDir, 'tampered.tar.gz')
    await rewrite(archive, tampered, (name, bytes) => (name === `objects/${object}` ? Buffer.from('NOT really a png') : bytes))
    const checked = ecobase(['verify', tampered])
    expect(checked.code).toBe(1)
    expect(checked.err).toContain(`objects/${object} does not match its checksum`)
    const target = join(dataDir, 'never')
    expect(ecobase(['restore', tampered, '--data-dir', target]).code).toBe(1)
    expect(existsSync(join(target, 'pglite'))).toBe(false)

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
    expect(existsSync(join(target, 'pglite'))).toBe(false)
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
      await writeBackup(database, source, archive, () => {})
    } finally {
      await database.close()
    }
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

  test.skipIf(!testDatabaseUrl)('with DATABASE_URL: the archive holds the server key and the local files, says the database is PostgreSQL’s to back up, and restores those alone', async () => {
    const pg = await freshDatabase()
    const dir = mkdtempSync(join(tmpdir(), 'ecobase-cli-pg-'))
    try {
      mkdirSync(join(dir, 'objects', 'eco'), { recursive: true })
      writeFileSync(join(dir, 'objects', 'eco', 'kept.txt'), 'a local file')
      writeFileSync(join(dir, 'auth-secret'), 'a generated server key')
      const out = join(dir, 'pg.tar.gz')
      const made = ecobase(['backup', '--out', out], undefined, { DATA_DIR: dir, DATABASE_URL: pg.url! })
      expect(made.code, made.err).toBe(0)
      expect(made.out).toContain('the database is PostgreSQL at DATABASE_URL: back it up with pg_dump')
      expect(ecobase(['verify', out]).out).toContain('is whole: 2 parts')
      const target = join(dir, 'restored')
      const restored = ecobase(['restore', out, '--data-dir', target])
      expect(restored.code, restored.err).toBe(0)
      expect(restored.out).toContain('the database was PostgreSQL and is not in it')
      expect(readFileSync(join(target, 'objects', 'eco', 'kept.txt'), 'utf8')).toBe('a local file')
      expect(readFileSync(join(target, 'auth-secret'), 'utf8')).toBe('a generated server key')
      expect(existsSync(join(target, 'pglite'))).toBe(false)
      const unreachable = ecobase(['backup', '--out', join(dir, 'no.tar.gz')], undefined, { DATA_DIR: dir, DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none' })
      expect(unreachable.code).toBe(1)
      expect(unreachable.err).toContain('DATABASE_URL: cannot connect')
    } finally {
      await pg.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)

  test('kill -9 during a backup leaves earlier archives whole and nothing that looks complete', async () => {
    // Enough bytes that the backup is still writing when it is killed.
    const big = join(dataDir, 'objects', 'eco', 'big.bin')
    writeFileSync(big, Buffer.alloc(200 * 1024 * 1024, 7))
    const out = join(dataDir, 'killed.tar.gz')
    try {
      const child = spawn('node', [join(ROOT, 'bin', 'ecobase.mjs'), 'backup', '--out', out], { env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', LOG_LEVEL: 'silent' }, stdio: 'ignore' })
      const exited = new Promise((resolve) => child.on('exit', resolve))
      const deadline = Date.now() + 60_000
      while (!existsSync(`${out}.partial`) && Date.now() < deadline) await Bun.sleep(20)
      expect(existsSync(`${out}.partial`)).toBe(true)
      // bin/ecobase.mjs waits on bun: kill the whole process group's work, as a crash would.
      spawnSync('pkill', ['-9', '-f', `backup --out ${out}`])
      await exited
      expect(existsSync(out)).toBe(false)
      const partial = ecobase(['verify', `${out}.partial`])
      expect(partial.code).toBe(1)
      // The archive made before is untouched and whole.
      expect(ecobase(['verify', archive]).code).toBe(0)
    } finally {
      rmSync(big, { force: true })
    }
  }, 120_000)
})


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
