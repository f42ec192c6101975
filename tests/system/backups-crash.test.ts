import { afterAll, expect, test } from 'bun:test'
import { existsSync, mkdirSync, readdirSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { freshDatabase, type TestDatabase } from '../support/database'
import { caller, cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'
import { until } from '../support/wait'

// A backup whose server is killed (kill -9) while it writes: pg-boss fails its job once the dead
// worker's heartbeat stops, and the restarted server fails the backup's row as any failed backup,
// instead of leaving it `running` in the list for good, with its half-written files on disk.

let database: TestDatabase | undefined
afterAll(async () => {
  await cleanUp()
  await database?.drop()
})

test('a backup running at kill -9 is failed after the restart: its row says why, its files are gone, an audit event and an e-mail', async () => {
  database = await freshDatabase()
  const dataDir = tempDir()
  const port = freePort()
  const env = { DATA_DIR: dataDir, ...(database.url ? { DATABASE_URL: database.url } : {}), PORT: String(port), JOBS: 'on', QUEUE_POLL_SECONDS: '1' }
  // A gigabyte in the object store (sparse: cheap to make, read at full speed) keeps the backup writing long enough to be killed.
  const big = join(dataDir, 'objects', 'eco', 'big.bin')
  mkdirSync(join(big, '..'), { recursive: true })
  writeFileSync(big, '')
  truncateSync(big, 1 << 30)

  const first = start(env)
  await untilHealthy(port, first, 60_000)
  const call = caller(`http://127.0.0.1:${port}`)
  const admin = (await call('POST', '/auth/register', { body: { email: 'ops@example.test', password: 'backup-password-1', name: 'Ops' } })).body
  const started = await call('POST', '/system/backups', { token: admin.token })
  expect(started.status).toBe(202)
  const dir = join(dataDir, 'backups')
  await until(() => existsSync(join(dir, `${started.body.id}.tar.gz.partial`)), 60_000)
  first.kill('SIGKILL')
  await first.exited
  expect(readdirSync(dir)).toContain(`${started.body.id}.tar.gz.partial`)

  const second = start(env)
  await untilHealthy(port, second, 60_000)
  const backup = async () =>
    ((await call('GET', '/system/backups', { token: admin.token })).body.items as { id: string; status: string; error: string | null }[]).find(
      (b) => b.id === started.body.id,
    )!
  expect((await backup()).status).toBe('running')
  await until(async () => (await backup()).status !== 'running', 90_000)
  const row = await backup()
  expect(row.status).toBe('failed')
  expect(row.error).toMatch(/^interrupted: the backup’s job ended without finishing it/)
  expect(readdirSync(dir)).toEqual([])
  const audit = (await call('GET', '/audit/events?action=system.backup.failed', { token: admin.token })).body.items
  expect(audit.map((e: { target: { id: string } }) => e.target.id)).toEqual([started.body.id])
  const outbox = async () => (await call('GET', '/messaging/outbox/instance', { token: admin.token })).body.items as { recipient: string; subject: string }[]
  await until(async () => (await outbox()).some((m) => m.subject === 'Ecobase: a backup failed'), 30_000)
  expect((await outbox()).filter((m) => m.subject === 'Ecobase: a backup failed').map((m) => m.recipient)).toEqual(['ops@example.test'])
}, 240_000)
