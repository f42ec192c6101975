import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'drizzle-orm'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig } from '../../src/boot'
import { randomToken } from '../../src/platform/crypto'
import { openPglite, queryRows } from '../../src/platform/db'
import { copySeed, SEED_DIR } from '../../src/platform/db/seed'

// The seed is built by `npm install` (postinstall); without one a first start runs initdb instead.
const root = mkdtempSync(join(tmpdir(), 'ecobase-seed-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

test.skipIf(!existsSync(join(SEED_DIR, 'PG_VERSION')))(
  'a first start copies the seed: migrated, with the job queue and its queues installed; a half-copied directory is redone, an existing one left alone',
  async () => {
    const dataDir = join(root, 'pglite')
    mkdirSync(`${dataDir}.seeding`)
    writeFileSync(join(`${dataDir}.seeding`, 'junk'), 'left by a start that was killed mid-copy')
    expect(copySeed(dataDir)).toBe(true)
    expect(existsSync(`${dataDir}.seeding`)).toBe(false)
    expect(existsSync(join(dataDir, 'junk'))).toBe(false)
    expect(copySeed(dataDir)).toBe(false)

    const database = await openPglite({ dataDir })
    try {
      const [tables] = await queryRows<{ users: string | null; queue: string | null }>(
        database.db,
        sql`select to_regclass('auth.users')::text as users, to_regclass('pgboss.version')::text as queue`,
      )
      expect(tables).toEqual({ users: 'auth.users', queue: 'pgboss.version' })
      // Kept small, since every first start copies it: 1 MB WAL segments, no template databases.
      const [shape] = await queryRows<{ segment: string; databases: string }>(
        database.db,
        sql`select current_setting('wal_segment_size') as segment, (select string_agg(datname, ',' order by datname) from pg_database) as databases`,
      )
      expect(shape).toEqual({ segment: '1MB', databases: 'postgres' })
      // Every queue the server declares is there: its start makes none.
      const queues = async () => (await database.unsafe('select name from pgboss.queue order by name')).rows
      const seeded = await queues()
      const deps = buildDeps(loadConfig({ DATA_DIR: root, AUTH_SECRET: randomToken(), JOBS: 'off', LOG_LEVEL: 'silent' }), database)
      createApp(deps)
      await deps.queue.prepare()
      await deps.queue.stop(1000)
      expect(seeded.length).toBeGreaterThan(5)
      expect(await queues()).toEqual(seeded)
    } finally {
      await database.close()
    }
  },
)
