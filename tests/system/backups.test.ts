import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes, randomUUID } from 'node:crypto'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig, openDatabase } from '../../src/boot'
import { runJob } from '../../src/jobs'
import { recordRestore } from '../../src/modules/system/backups'
import { scheduledBackup } from '../../src/modules/system/jobs'
import { ConfigError } from '../../src/config'
import { restoreBackup, verifyBackup } from '../../src/platform/backup/restore'
import { type Database, type Db, openPglite, openPostgres, pgliteDir, queryRows } from '../../src/platform/db'
import { PGlite } from '@electric-sql/pglite'
import { amcheck } from '@electric-sql/pglite/contrib/amcheck'
import { vector } from '@electric-sql/pglite-pgvector'
import { sql } from 'drizzle-orm'
import { emptyDatabase, watch } from '../support/database'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startS3 } from '../support/s3'
import { storageApp, type StorageApp } from '../support/storage'
import { until } from '../support/wait'

let h: Harness
let admin: RegisteredUser
let member: RegisteredUser
const scratch = mkdtempSync(join(tmpdir(), 'ecobase-backups-'))
beforeAll(async () => {
  h = await createHarness()
  admin = await h.register()
  member = await h.register()
})
afterAll(async () => {
  await h.close()
  rmSync(scratch, { recursive: true, force: true })
})

const embedded = () => h.deps.database.kind === 'pglite'
const none = () => {}

/** Every row of every table, as text, by table: what "restored row by row" compares. Left out: what changes after the snapshot by itself (the backups list, the audit log of its completion, the job queue). */
async function everyRow(db: Db): Promise<Map<string, string[]>> {
  const tables = await queryRows<{ s: string; t: string }>(
    db,
    sql`select table_schema as s, table_name as t from information_schema.tables where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema', 'pgboss') and not (table_schema = 'system' and table_name = 'backups') and not (table_schema = 'audit' and table_name = 'events') order by 1, 2`,
  )
  const rows = new Map<string, string[]>()
  for (const { s, t } of tables)
    rows.set(`${s}.${t}`, (await queryRows<{ r: string }>(db, sql.raw(`select row_to_json(x)::text as r from "${s}"."${t}" x`))).map((r) => r.r).sort())
  return rows
}

/** A backup's row, once it is no longer running. */
async function finished(app: { call: Harness['call'] }, token: string, id: string) {
  const row = async () => (await app.call('GET', '/system/backups', { token })).body.items.find((b: { id: string }) => b.id === id)
  await until(async () => (await row())?.status !== 'running', 30_000)
  return row()
}

/** Downloads a backup through the API into a file of the scratch directory. */
async function download(app: Harness['app'], token: string, id: string): Promise<string> {
  const res = await app.handle(new Request(`http://localhost/system/backups/${id}/download`, { headers: { authorization: `Bearer ${token}` } }))
  expect(res.status).toBe(200)
  const file = join(scratch, `${id}.download`)
  writeFileSync(file, new Uint8Array(await res.arrayBuffer()))
  return file
}

/**
 * Restores `archive` as an operator would (`npx ecobase restore`): into a new data directory, and a
 * PostgreSQL backup into a new, empty database; the restored instance's database, open.
 */
async function restored(archive: string, keys: string[] = []): Promise<{ dataDir: string; database: Database; close(): Promise<void> }> {
  const dataDir = join(scratch, `restored-${randomUUID()}`)
  const pg = h.databaseUrl ? await emptyDatabase() : null
  await restoreBackup(archive, dataDir, {
    force: false,
    keys,
    databaseUrl: pg?.url ?? null,
    progress: none,
    prepare: async (staged, manifest) => {
      const database = await openDatabase(loadConfig({ DATA_DIR: staged, LOG_LEVEL: 'silent', DB_DEBUG: '1', ...(pg ? { DATABASE_URL: pg.url } : {}) }))
      await recordRestore({ db: database.db, now: () => new Date() }, manifest)
      await database.close()
    },
  })
  const database = pg ? await openPostgres(pg.url, { max: 2, watch }) : await openPglite({ dataDir: pgliteDir(dataDir), watch })
  return {
    dataDir,
    database,
    close: async () => {
      await database.close()
      await pg?.drop()
    },
  }
}

describe('backups from the running service', () => {
  test('platform admins only', async () => {
    expect((await h.call('GET', '/system/backups/settings', { token: member.token })).status).toBe(403)
    expect((await h.call('POST', '/system/backups', { token: member.token })).status).toBe(403)
    expect((await h.call('GET', '/system/backups', { token: member.token })).status).toBe(403)
    expect((await h.call('POST', '/system/backups')).status).toBe(401)
  })

  test('one at a time: while a backup runs, asking for another is 409 backup_in_progress naming it, also when both are asked for at once', async () => {
    // No worker takes the jobs (JOBS=off): a queued backup stays running.
    const f = await createHarness({ JOBS: 'off' })
    try {
      const owner = await f.register()
      const both = await Promise.all([1, 2].map(() => f.call('POST', '/system/backups', { token: owner.token })))
      expect(both.map((r) => r.status).sort()).toEqual([202, 409])
      const started = both.find((r) => r.status === 202)!.body
      const refused = both.find((r) => r.status === 409)!.body
      expect(refused.error.code).toBe('backup_in_progress')
      expect(refused.error.message).toContain(started.id)
      expect((await f.call('POST', '/system/backups', { token: owner.token })).body.error.code).toBe('backup_in_progress')
      expect((await f.call('GET', '/system/backups', { token: owner.token })).body.items.map((b: { id: string }) => b.id)).toEqual([started.id])
      const audit = (await f.call('GET', '/audit/events?action=system.backup.started', { token: owner.token })).body.items
      expect(audit.map((e: { target: { id: string } }) => e.target.id)).toEqual([started.id])
    } finally {
      await f.close()
    }
  })

  test('with PostgreSQL and no pg_dump on the PATH: 409 backup_unavailable, naming what to do', async () => {
    if (embedded()) return
    const path = process.env.PATH
    process.env.PATH = '/nonexistent'
    try {
      expect((await h.call('GET', '/system/backups/settings', { token: admin.token })).body.available).toBe(false)
      const res = await h.call('POST', '/system/backups', { token: admin.token })
      expect(res.status).toBe(409)
      expect(res.body.error).toEqual({ code: 'backup_unavailable', message: expect.stringContaining('pg_dump') })
      expect(res.body.error.message).toContain('DATA_DIR/auth-secret')
      expect(res.body.error.message).toContain('DATA_DIR/objects')
    } finally {
      process.env.PATH = path
    }
  })
})

describe('a backup of an instance with uploaded files, through the API', () => {
  let s: StorageApp
  beforeAll(async () => {
    s = await storageApp('local')
  })
  afterAll(() => s.close())

  test('downloads as an archive that verifies, and restores row by row and byte by byte; the restored list says which backup it came from', async () => {
    const photo = randomBytes(200 * 1024)
    const attachment = await s.upload(photo, { filename: 'photo.png', contentType: 'image/png' })
    expect(`objects/${attachment.objectKey}`.length).toBe(118)
    const started = await s.h.call('POST', '/system/backups', { token: s.owner.token })
    expect(started.status).toBe(202)
    expect(started.body).toMatchObject({ status: 'running', createdBy: s.owner.user.id, encrypted: false, restoredAt: null })
    expect(await finished(s.h, s.owner.token, started.body.id)).toMatchObject({
      status: 'complete',
      sizeBytes: expect.any(Number),
      error: null,
      completedAt: expect.any(String),
    })
    const before = await everyRow(s.h.db)
    const settings = (await s.h.call('GET', '/system/backups/settings', { token: s.owner.token })).body
    expect(settings).toMatchObject({ available: true, encrypted: false, lastCompleteAt: expect.any(String) })
    expect(settings.lastCompleteAgeSeconds).toBeLessThan(600)

    const archive = await download(s.h.app, s.owner.token, started.body.id)
    const manifest = await verifyBackup(archive, [])
    expect(manifest).toMatchObject({ database: embedded() ? 'pglite' : 'postgres', backupId: started.body.id })
    const back = await restored(archive)
    try {
      expect(await everyRow(back.database.db)).toEqual(before)
      expect(readFileSync(join(back.dataDir, 'objects', attachment.objectKey)).equals(photo)).toBe(true)
      const [row] = await queryRows<{ status: string; restored: boolean }>(
        back.database.db,
        sql`select status, restored_at is not null as restored from system.backups where id = ${started.body.id}`,
      )
      expect(row).toEqual({ status: 'complete', restored: true })
      const app = createApp(buildDeps(loadConfig({ DATA_DIR: back.dataDir, LOG_LEVEL: 'silent' }), back.database))
      const login = await app.handle(
        new Request('http://localhost/auth/login', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: s.owner.email, password: s.owner.password }),
        }),
      )
      expect(login.status).toBe(200)
    } finally {
      await back.close()
    }

    const audit = (await s.h.call('GET', '/audit/events?action=system.backup.', { token: s.owner.token })).body.items.map((e: { action: string }) => e.action)
    expect(audit).toEqual(expect.arrayContaining(['system.backup.started', 'system.backup.finished']))

    // An archive gone behind the service's back: the row says missing, its download 410 (never a 500); back, and it is complete again.
    const file = join(s.h.deps.config.dataDir, 'backups', `${started.body.id}.tar.gz`)
    renameSync(file, `${file}.away`)
    const list = async () => (await s.h.call('GET', '/system/backups', { token: s.owner.token })).body.items
    expect((await list()).find((b: { id: string }) => b.id === started.body.id).status).toBe('missing')
    const gone = await s.h.call('GET', `/system/backups/${started.body.id}/download`, { token: s.owner.token })
    expect(gone.status).toBe(410)
    expect(gone.body.error.code).toBe('backup_missing')
    renameSync(`${file}.away`, file)
    expect((await list()).find((b: { id: string }) => b.id === started.body.id).status).toBe('complete')
    // An archive on disk no row names (copied in, or from before a restore) is adopted.
    const stray = randomUUID()
    cpSync(file, join(s.h.deps.config.dataDir, 'backups', `${stray}.tar.gz`))
    expect((await list()).find((b: { id: string }) => b.id === stray)).toMatchObject({ status: 'complete', createdBy: null, sizeBytes: expect.any(Number) })
    expect((await s.h.call('GET', `/system/backups/${stray}/download`, { token: s.owner.token })).status).toBe(200)

    expect((await s.h.call('DELETE', `/system/backups/${started.body.id}`, { token: s.owner.token })).status).toBe(204)
    expect(existsSync(file)).toBe(false)
    expect((await s.h.call('GET', `/system/backups/${started.body.id}/download`, { token: s.owner.token })).status).toBe(404)
  }, 120_000)
})

describe('failed backups are seen', () => {
  test('the row says why, an audit event, an e-mail to each platform admin (those ADMIN_EMAILS names); failed ones are pruned by their own count, and never push complete ones out', async () => {
    const f = await createHarness({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: '2', ADMIN_EMAILS: 'ops@backups.example' })
    try {
      await f.register()
      const owner = await f.register({ email: 'ops@backups.example' })
      const good = await f.call('POST', '/system/backups', { token: owner.token })
      expect((await finished(f, owner.token, good.body.id)).status).toBe('complete')
      // A disk that cannot take the archive: DATA_DIR/backups is a file.
      const dir = join(f.deps.config.dataDir, 'backups')
      renameSync(dir, `${dir}.kept`)
      writeFileSync(dir, 'not a directory')
      for (let run = 0; run < 3; run++) {
        expect(await runJob(f.deps, scheduledBackup)).toEqual({ started: 1 })
        await until(
          async () => (await f.call('GET', '/system/backups', { token: owner.token })).body.items.every((b: { status: string }) => b.status !== 'running'),
          30_000,
        )
      }
      const items = (await f.call('GET', '/system/backups', { token: owner.token })).body.items as { id: string; status: string; error: string | null }[]
      expect(items.filter((b) => b.status === 'failed')).toHaveLength(2)
      expect(items.filter((b) => b.status === 'failed').every((b) => /ENOTDIR|not a directory/.test(b.error ?? ''))).toBe(true)
      expect(items.find((b) => b.id === good.body.id)?.status).toBe('missing')
      rmSync(dir)
      renameSync(`${dir}.kept`, dir)
      expect((await f.call('GET', '/system/backups', { token: owner.token })).body.items.find((b: { id: string }) => b.id === good.body.id).status).toBe(
        'complete',
      )

      const audit = (await f.call('GET', '/audit/events?action=system.backup.failed', { token: owner.token })).body.items
      expect(audit).toHaveLength(3)
      const outbox = async () =>
        (await f.call('GET', '/messaging/outbox/instance', { token: owner.token })).body.items as { recipient: string; subject: string }[]
      await until(async () => (await outbox()).filter((m) => m.subject === 'Ecobase: a backup failed').length === 3)
      expect((await outbox()).filter((m) => m.subject === 'Ecobase: a backup failed').every((m) => m.recipient === owner.email)).toBe(true)
      expect((await f.call('GET', '/system/backups/settings', { token: owner.token })).body.lastCompleteAt).toEqual(expect.any(String))
    } finally {
      await f.close()
    }
  }, 120_000)
})

describe('a backup the server’s stop interrupts', () => {
  test('ends at once on the shutdown signal: nothing of it stays on disk, its row says failed, interrupted, an audit event, and no e-mail', async () => {
    const f = await createHarness()
    try {
      const owner = await f.register()
      // A gigabyte in the object store (sparse: cheap to make, read at full speed) keeps the backup writing long enough to be stopped.
      const big = join(f.deps.config.dataDir, 'objects', 'eco', 'big.bin')
      mkdirSync(join(big, '..'), { recursive: true })
      writeFileSync(big, '')
      truncateSync(big, 1 << 30)
      const started = await f.call('POST', '/system/backups', { token: owner.token })
      expect(started.status).toBe(202)
      const dir = join(f.deps.config.dataDir, 'backups')
      const partial = join(dir, `${started.body.id}.tar.gz.partial`)
      await until(async () => existsSync(partial), 30_000)
      f.deps.shutdown.begin()
      // What the server's SIGTERM does next: a graceful stop of the queue, which waits for running jobs.
      await f.deps.queue.stop(60_000)

      const row = await finished(f, owner.token, started.body.id)
      expect(row.status).toBe('failed')
      expect(row.error).toMatch(/^interrupted: the server stopped/)
      expect(readdirSync(dir)).toEqual([])
      const audit = (await f.call('GET', '/audit/events?action=system.backup.failed', { token: owner.token })).body.items
      expect(audit.map((e: { target: { id: string } }) => e.target.id)).toEqual([started.body.id])
      const outbox = (await f.call('GET', '/messaging/outbox/instance', { token: owner.token })).body.items as { subject: string }[]
      expect(outbox.filter((m) => m.subject === 'Ecobase: a backup failed')).toEqual([])
    } finally {
      await f.close()
    }
  }, 120_000)
})

describe('encrypted backups (BACKUP_ENCRYPTION_KEY)', () => {
  test('the service writes <id>.tar.gz.enc, says so, and it verifies and restores with the key only', async () => {
    const key = 'a backup key of at least 16 characters'
    const e = await createHarness({ BACKUP_ENCRYPTION_KEY: key })
    try {
      const owner = await e.register()
      expect((await e.call('GET', '/system/backups/settings', { token: owner.token })).body).toMatchObject({
        encrypted: true,
        lastCompleteAt: null,
        lastCompleteAgeSeconds: null,
      })
      const started = await e.call('POST', '/system/backups', { token: owner.token })
      expect(started.body.encrypted).toBe(true)
      expect((await finished(e, owner.token, started.body.id)).status).toBe('complete')
      expect(existsSync(join(e.deps.config.dataDir, 'backups', `${started.body.id}.tar.gz.enc`))).toBe(true)
      const res = await e.app.handle(
        new Request(`http://localhost/system/backups/${started.body.id}/download`, { headers: { authorization: `Bearer ${owner.token}` } }),
      )
      expect(res.headers.get('content-type')).toBe('application/octet-stream')
      expect(res.headers.get('content-disposition')).toContain(`ecobase-backup-${started.body.id}.tar.gz.enc`)
      const archive = join(scratch, 'encrypted.enc')
      writeFileSync(archive, new Uint8Array(await res.arrayBuffer()))
      expect(readFileSync(archive).includes(Buffer.from(e.deps.secret))).toBe(false)
      expect((await verifyBackup(archive, [key])).backupId).toBe(started.body.id)
      expect((await verifyBackup(archive, []).catch((err: Error) => err)) as Error).toBeInstanceOf(Error)
    } finally {
      await e.close()
    }
  }, 60_000)
})

describe('a backup taken while a writer runs', () => {
  test('embedded, on disk as a server keeps it: the restored service has every write acknowledged before the backup began, each whole, and its indexes check out', async () => {
    if (!embedded()) return
    const h = await createHarness({}, { onDisk: true })
    const admin = await h.register()
    try {
      // The writer: sign-ups, one after another; each is one transaction of several rows (account,
      // password method, session, refresh token, audit event), acknowledged by its 201.
      const acknowledged: { user: RegisteredUser; before: boolean }[] = []
      let backupRequested = false
      let writing = true
      const writer = (async () => {
        while (writing) {
          const user = await h.register()
          acknowledged.push({ user, before: !backupRequested })
        }
      })()
      await until(() => acknowledged.length >= 3, 20_000)
      backupRequested = true
      const started = await h.call('POST', '/system/backups', { token: admin.token })
      expect(started.status).toBe(202)
      const row = async () => (await h.call('GET', '/system/backups', { token: admin.token })).body.items.find((b: { id: string }) => b.id === started.body.id)
      await until(async () => (await row()).status !== 'running', 30_000)
      writing = false
      await writer
      expect((await row()).status).toBe('complete')
      const before = acknowledged.filter((a) => a.before).map((a) => a.user)
      expect(acknowledged.length).toBeGreaterThan(before.length) // the writer went on during the backup

      const target = join(scratch, 'restored-while-writing')
      await restoreBackup(join(h.deps.config.dataDir, 'backups', `${started.body.id}.tar.gz`), target, {
        force: false,
        keys: [],
        databaseUrl: null,
        progress: () => {},
      })
      const config = loadConfig({ DATA_DIR: target, LOG_LEVEL: 'silent', AUTH_SECRET: h.deps.secret, DB_DEBUG: '1' })
      const database = await openDatabase(config)
      try {
        const ids = new Set((await queryRows<{ id: string }>(database.db, sql`select id from auth.users`)).map((r) => r.id))
        expect(before.filter((u) => !ids.has(u.user.id))).toEqual([])
        // Whole transactions only: no account without its password method or its registration event, no session without a refresh token.
        const [broken] = await queryRows<{ methodless: number; unaudited: number; tokenless: number }>(
          database.db,
          sql`select
            (select count(*)::int from auth.users u where not exists (select 1 from auth.user_methods m where m.user_id = u.id)) as methodless,
            (select count(*)::int from auth.users u where not exists (select 1 from audit.events e where e.target_id = u.id::text and e.action = 'auth.account.registered')) as unaudited,
            (select count(*)::int from auth.sessions s where not exists (select 1 from auth.refresh_tokens r where r.session_id = s.id)) as tokenless`,
        )
        expect(broken).toEqual({ methodless: 0, unaudited: 0, tokenless: 0 })
        const app = createApp(buildDeps(config, database))
        for (const user of [before[0]!, before.at(-1)!]) {
          const login = await app.handle(
            new Request('http://localhost/auth/login', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ email: user.email, password: user.password }),
            }),
          )
          expect(login.status).toBe(200)
        }
      } finally {
        await database.close()
      }
      // The pages themselves: every B-tree index of the restored database agrees with its table (amcheck).
      const checked = await PGlite.create(pgliteDir(target), { extensions: { vector, amcheck } })
      try {
        await checked.exec('create extension if not exists amcheck')
        const result = await checked.query<{ n: number }>(
          `select count(bt_index_check(c.oid, true))::int as n from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam join pg_namespace ns on ns.oid = c.relnamespace where a.amname = 'btree' and ns.nspname in ('auth', 'audit')`,
        )
        expect(result.rows[0]!.n).toBeGreaterThan(5)
      } finally {
        await checked.close()
      }
    } finally {
      await h.close()
    }
  }, 90_000)
})

describe('scheduled backups', () => {
  test('the settings say whether the service backs itself up, and the schedule, count kept and target the environment set', async () => {
    expect((await h.call('GET', '/system/backups/settings', { token: admin.token })).body).toEqual({
      available: true,
      schedule: null,
      keep: 7,
      target: 'local',
      encrypted: false,
      lastCompleteAt: null,
      lastCompleteAgeSeconds: null,
    })
    const scheduled = await createHarness({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: '3' })
    try {
      const owner = await scheduled.register()
      expect((await scheduled.call('GET', '/system/backups/settings', { token: owner.token })).body).toMatchObject({
        schedule: '0 3 * * *',
        keep: 3,
        target: 'local',
      })
    } finally {
      await scheduled.close()
    }
  })

  test('BACKUP_SCHEDULE must be a cron pattern; an encryption key is 16 characters at least, or lines of a file', () => {
    expect(() => loadConfig({ BACKUP_SCHEDULE: 'every night' })).toThrow(ConfigError)
    expect(loadConfig({ BACKUP_SCHEDULE: '0 3 * * *' }).backups).toEqual({ schedule: '0 3 * * *', keep: 7, target: 'local', keys: [] })
    expect(loadConfig({}).backups.schedule).toBeNull()
    expect(() => loadConfig({ BACKUP_ENCRYPTION_KEY: 'short' })).toThrow('BACKUP_ENCRYPTION_KEY (value not shown')
    const file = join(scratch, 'keys')
    writeFileSync(file, 'the newest key, 16+ chars\n\nthe previous key, 16+ chars\n')
    expect(loadConfig({ BACKUP_ENCRYPTION_KEY_FILE: file }).backups.keys).toEqual(['the newest key, 16+ chars', 'the previous key, 16+ chars'])
    expect(() => loadConfig({ BACKUP_ENCRYPTION_KEY_FILE: join(scratch, 'none') })).toThrow('cannot be read')
  })

  test('a tick while a backup still runs queues none; one after that backup’s job time (an hour) is up queues the next', async () => {
    // No worker takes the jobs (JOBS=off): a queued backup stays running.
    const scheduled = await createHarness({ BACKUP_SCHEDULE: '*/5 * * * *', JOBS: 'off' })
    try {
      // Read from the table: the clock moves past any access token's life.
      const statuses = async () => (await queryRows<{ status: string }>(scheduled.db, sql`select status from system.backups`)).map((b) => b.status)
      expect(await runJob(scheduled.deps, scheduledBackup)).toEqual({ started: 1 })
      expect(await runJob(scheduled.deps, scheduledBackup)).toEqual({ started: 0 })
      scheduled.advanceClock(59 * 60_000)
      expect(await runJob(scheduled.deps, scheduledBackup)).toEqual({ started: 0 })
      expect(await statuses()).toEqual(['running'])
      expect(scheduled.logLines.some((l) => l.includes('scheduled backup skipped: a backup is still running'))).toBe(true)
      // A replica killed mid-backup leaves its row running: the schedule does not stop for it.
      scheduled.advanceClock(2 * 60_000)
      expect(await runJob(scheduled.deps, scheduledBackup)).toEqual({ started: 1 })
      expect(await statuses()).toEqual(['running', 'running'])
    } finally {
      await scheduled.close()
    }
  })

  test('each scheduled run backs up an instance with a file, and exactly BACKUP_KEEP complete backups are kept; the newest restores', async () => {
    const scheduled = await storageApp('local', { BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: '2' })
    try {
      const owner = scheduled.owner
      const file = await scheduled.upload(randomBytes(1000))
      const complete = async () =>
        (await scheduled.h.call('GET', '/system/backups', { token: owner.token })).body.items.filter((b: { status: string }) => b.status === 'complete')
      for (let run = 1; run <= 3; run++) {
        expect(await runJob(scheduled.h.deps, scheduledBackup)).toEqual({ started: 1 })
        await until(
          async () =>
            (await scheduled.h.call('GET', '/system/backups', { token: owner.token })).body.items.every((b: { status: string }) => b.status !== 'running'),
          30_000,
        )
        expect((await complete()).length).toBe(Math.min(run, 2))
      }
      const kept = (await complete()).map((b: { id: string; createdBy: string | null }) => b.id)
      expect(readdirSync(join(scheduled.h.deps.config.dataDir, 'backups')).sort()).toEqual(kept.map((id: string) => `${id}.tar.gz`).sort())
      const back = await restored(join(scheduled.h.deps.config.dataDir, 'backups', `${kept[0]}.tar.gz`))
      try {
        expect(
          readFileSync(join(back.dataDir, 'objects', file.objectKey)).equals(readFileSync(join(scheduled.h.deps.config.dataDir, 'objects', file.objectKey))),
        ).toBe(true)
        expect((await queryRows<{ n: number }>(back.database.db, sql`select count(*)::int as n from storage.attachments where id = ${file.id}`))[0]!.n).toBe(1)
      } finally {
        await back.close()
      }
    } finally {
      await scheduled.close()
    }
  }, 120_000)
})

describe('BACKUP_TARGET=s3', () => {
  test('needs the s3 storage driver', () => {
    expect(() => loadConfig({ BACKUP_TARGET: 's3' })).toThrow('needs STORAGE_DRIVER=s3')
  })

  test('embedded: the archive goes to the bucket, downloads by a short-lived URL that verifies, and is deleted with the backup', async () => {
    if (!embedded()) return
    const s3 = await startS3()
    const bucketed = await createHarness({ ...s3.env(await s3.createBucket()), BACKUP_TARGET: 's3' })
    try {
      const owner = await bucketed.register()
      const started = await bucketed.call('POST', '/system/backups', { token: owner.token })
      const row = async () => (await bucketed.call('GET', '/system/backups', { token: owner.token })).body.items[0]
      await until(async () => (await row()).status !== 'running', 20_000)
      expect(await row()).toMatchObject({ id: started.body.id, status: 'complete' })
      const key = `backups/${started.body.id}.tar.gz`
      expect(await bucketed.deps.storage.head(key)).toEqual({ sizeBytes: (await row()).sizeBytes })
      expect(existsSync(join(bucketed.deps.config.dataDir, 'backups', `${started.body.id}.tar.gz`))).toBe(false)

      const res = await bucketed.app.handle(
        new Request(`http://localhost/system/backups/${started.body.id}/download`, { headers: { authorization: `Bearer ${owner.token}` } }),
      )
      expect(res.status).toBe(302)
      const download = await fetch(res.headers.get('location')!)
      expect(download.status).toBe(200)
      const archive = join(scratch, 's3.tar.gz')
      writeFileSync(archive, new Uint8Array(await download.arrayBuffer()))
      expect((await verifyBackup(archive, [])).parts.map((p) => p.name)).toContain('database')

      expect((await bucketed.call('DELETE', `/system/backups/${started.body.id}`, { token: owner.token })).status).toBe(204)
      expect(await bucketed.deps.storage.head(key)).toBeNull()
    } finally {
      await bucketed.close()
      await s3.close()
    }
  }, 60_000)
})
