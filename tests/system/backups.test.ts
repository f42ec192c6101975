import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig, openDatabase } from '../../src/boot'
import { readdirSync } from 'node:fs'
import { runJob } from '../../src/jobs'
import { scheduledBackup } from '../../src/modules/system/jobs'
import { ConfigError } from '../../src/config'
import { restoreBackup, verifyBackup } from '../../src/platform/backup/archive'
import { pgliteDir, queryRows } from '../../src/platform/db'
import { PGlite } from '@electric-sql/pglite'
import { amcheck } from '@electric-sql/pglite/contrib/amcheck'
import { vector } from '@electric-sql/pglite-pgvector'
import { sql } from 'drizzle-orm'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startS3 } from '../support/s3'
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

describe('backups from the running service', () => {
  test('platform admins only', async () => {
    expect((await h.call('GET', '/system/backups/settings', { token: member.token })).status).toBe(403)
    expect((await h.call('POST', '/system/backups', { token: member.token })).status).toBe(403)
    expect((await h.call('GET', '/system/backups', { token: member.token })).status).toBe(403)
    expect((await h.call('POST', '/system/backups')).status).toBe(401)
  })

  test('with PostgreSQL there is nothing for the service to back up: 409 backup_unavailable, naming the tools', async () => {
    if (embedded()) return
    const res = await h.call('POST', '/system/backups', { token: admin.token })
    expect(res.status).toBe(409)
    expect(res.body.error).toEqual({ code: 'backup_unavailable', message: expect.stringContaining('pg_dump') })
  })

  test('embedded: a backup taken while the service runs downloads as an archive that verifies and restores what was written before it', async () => {
    if (!embedded()) return
    const before = await h.register()
    const started = await h.call('POST', '/system/backups', { token: admin.token })
    expect(started.status).toBe(202)
    expect(started.body).toMatchObject({ status: 'running', createdBy: admin.user.id })
    const done = async () => (await h.call('GET', '/system/backups', { token: admin.token })).body.items.find((b: { id: string }) => b.id === started.body.id)
    await until(async () => (await done()).status !== 'running', 20_000)
    expect(await done()).toMatchObject({ status: 'complete', sizeBytes: expect.any(Number), error: null, completedAt: expect.any(String) })

    const res = await h.app.handle(new Request(`http://localhost/system/backups/${started.body.id}/download`, { headers: { authorization: `Bearer ${admin.token}` } }))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/gzip')
    const archive = join(scratch, 'download.tar.gz')
    writeFileSync(archive, new Uint8Array(await res.arrayBuffer()))
    expect((await verifyBackup(archive)).parts[0]!.name).toBe('database/pglite.tar.gz')

    const target = join(scratch, 'restored')
    await restoreBackup(archive, target, false, () => {})
    const config = loadConfig({ DATA_DIR: target, LOG_LEVEL: 'silent', AUTH_SECRET: h.deps.secret, DB_DEBUG: '1' })
    const database = await openDatabase(config)
    try {
      const app = createApp(buildDeps(config, database))
      const login = await app.handle(
        new Request('http://localhost/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: before.email, password: before.password }) }),
      )
      expect(login.status).toBe(200)
    } finally {
      await database.close()
    }

    const audit = (await h.call('GET', '/audit/events?action=settings.backup.', { token: admin.token })).body.items.map((e: { action: string }) => e.action)
    expect(audit).toEqual(expect.arrayContaining(['settings.backup.started', 'settings.backup.finished']))
    expect((await h.call('DELETE', `/system/backups/${started.body.id}`, { token: admin.token })).status).toBe(204)
    expect(existsSync(join(h.deps.config.dataDir, 'backups', `${started.body.id}.tar.gz`))).toBe(false)
    expect((await h.call('GET', `/system/backups/${started.body.id}/download`, { token: admin.token })).status).toBe(404)
  }, 60_000)
})

describe('a backup taken while a writer runs', () => {
  test('embedded: the restored service has every write acknowledged before the backup began, each whole, and its indexes check out', async () => {
    if (!embedded()) return
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
    await restoreBackup(join(h.deps.config.dataDir, 'backups', `${started.body.id}.tar.gz`), target, false, () => {})
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
        const login = await app.handle(new Request('http://localhost/auth/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: user.email, password: user.password }) }))
        expect(login.status).toBe(200)
      }
    } finally {
      await database.close()
    }
    // The pages themselves: every B-tree index of the restored database agrees with its table (amcheck).
    const checked = await PGlite.create(pgliteDir(target), { extensions: { vector, amcheck } })
    try {
      await checked.exec('create extension if not exists amcheck')
      const result = await checked.query<{ n: number }>(`select count(bt_index_check(c.oid, true))::int as n from pg_index i join pg_class c on c.oid = i.indexrelid join pg_am a on a.oid = c.relam join pg_namespace ns on ns.oid = c.relnamespace where a.amname = 'btree' and ns.nspname in ('auth', 'audit')`)
      expect(result.rows[0]!.n).toBeGreaterThan(5)
    } finally {
      await checked.close()
    }
  }, 90_000)
})

describe('scheduled backups', () => {
  test('the settings say whether the service backs itself up, and the schedule, count kept and target the environment set', async () => {
    expect((await h.call('GET', '/system/backups/settings', { token: admin.token })).body).toEqual({ available: embedded(), schedule: null, keep: 7, target: 'local' })
    const scheduled = await createHarness({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: '3' })
    try {
      const owner = await scheduled.register()
      expect((await scheduled.call('GET', '/system/backups/settings', { token: owner.token })).body).toMatchObject({ schedule: '0 3 * * *', keep: 3, target: 'local' })
    } finally {
      await scheduled.close()
    }
  })

  test('BACKUP_SCHEDULE must be a cron pattern', () => {
    expect(() => loadConfig({ BACKUP_SCHEDULE: 'every night' })).toThrow(ConfigError)
    expect(loadConfig({ BACKUP_SCHEDULE: '0 3 * * *' }).backups).toEqual({ schedule: '0 3 * * *', keep: 7, target: 'local' })
    expect(loadConfig({}).backups.schedule).toBeNull()
  })

  test('embedded: each scheduled run backs up, and exactly BACKUP_KEEP complete backups are kept', async () => {
    if (!embedded()) return
    const scheduled = await createHarness({ BACKUP_SCHEDULE: '0 3 * * *', BACKUP_KEEP: '2' })
    try {
      const owner = await scheduled.register()
      const complete = async () => (await scheduled.call('GET', '/system/backups', { token: owner.token })).body.items.filter((b: { status: string }) => b.status === 'complete')
      for (let run = 1; run <= 3; run++) {
        expect(await runJob(scheduled.deps, scheduledBackup)).toEqual({ started: 1 })
        await until(async () => (await scheduled.call('GET', '/system/backups', { token: owner.token })).body.items.every((b: { status: string }) => b.status !== 'running'), 20_000)
        expect((await complete()).length).toBe(Math.min(run, 2))
      }
      const kept = (await complete()).map((b: { id: string; createdBy: string | null }) => b.id)
      expect(readdirSync(join(scheduled.deps.config.dataDir, 'backups')).sort()).toEqual(kept.map((id: string) => `${id}.tar.gz`).sort())
    } finally {
      await scheduled.close()
    }
  }, 60_000)
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

      const res = await bucketed.app.handle(new Request(`http://localhost/system/backups/${started.body.id}/download`, { headers: { authorization: `Bearer ${owner.token}` } }))
      expect(res.status).toBe(302)
      const download = await fetch(res.headers.get('location')!)
      expect(download.status).toBe(200)
      const archive = join(scratch, 's3.tar.gz')
      writeFileSync(archive, new Uint8Array(await download.arrayBuffer()))
      expect((await verifyBackup(archive)).parts.map((p) => p.name)).toContain('database/pglite.tar.gz')

      expect((await bucketed.call('DELETE', `/system/backups/${started.body.id}`, { token: owner.token })).status).toBe(204)
      expect(await bucketed.deps.storage.head(key)).toBeNull()
    } finally {
      await bucketed.close()
      await s3.close()
    }
  }, 60_000)
})

