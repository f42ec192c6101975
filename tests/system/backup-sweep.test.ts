import { afterAll, beforeAll, expect, test } from 'bun:test'
import { randomUUID } from 'node:crypto'
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { eq } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { abandonedBackups, backupLeftovers } from '../../src/modules/system/jobs'
import { backups } from '../../src/modules/system/schema'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { until } from '../support/wait'

// A backup's row stays `running` when its job is gone without a dead letter (queued before jobs
// had them, or deleted), and a replica killed mid-backup keeps its copy of the database and its
// half-written archive on its own disk: the hourly sweeps end both.

let h: Harness
let admin: RegisteredUser
beforeAll(async () => {
  h = await createHarness()
  admin = await h.register()
})
afterAll(() => h.close())

const minutesAgo = (minutes: number) => new Date(h.deps.now().getTime() - minutes * 60_000)
async function backupRow(values: Partial<typeof backups.$inferInsert> = {}) {
  const [row] = await h.db
    .insert(backups)
    .values({ createdAt: h.deps.now(), ...values })
    .returning()
  return row!
}
const status = async (id: string) => (await h.db.select().from(backups).where(eq(backups.id, id)))[0]

test('a backup still running long after its job’s hour is failed as abandoned: its row says why, an audit event, an e-mail; a younger one runs on', async () => {
  const stale = await backupRow({ createdAt: minutesAgo(2 * 60) })
  const young = await backupRow({ createdAt: minutesAgo(30) })

  expect(await runJob(h.deps, abandonedBackups)).toEqual({ abandoned: 1 })
  await until(async () => (await status(stale.id))?.status === 'failed', 30_000)
  expect((await status(stale.id))?.error).toMatch(/^interrupted: the backup’s job ended without finishing it/)
  expect((await status(young.id))?.status).toBe('running')
  const audit = (await h.call('GET', '/audit/events?action=system.backup.failed', { token: admin.token })).body.items
  expect(audit.map((e: { target: { id: string } }) => e.target.id)).toEqual([stale.id])
  const outbox = async () => (await h.call('GET', '/messaging/outbox/instance', { token: admin.token })).body.items as { recipient: string; subject: string }[]
  await until(async () => (await outbox()).some((m) => m.subject === 'Ecobase: a backup failed'), 30_000)
  expect((await outbox()).filter((m) => m.subject === 'Ecobase: a backup failed').map((m) => m.recipient)).toEqual([admin.email])

  expect(await runJob(h.deps, abandonedBackups)).toEqual({ abandoned: 0 })
  await h.db.delete(backups).where(eq(backups.id, young.id))
})

test('a replica removes what backups that no longer run left on its disk; a running backup’s files and every archive stay', async () => {
  const failed = await backupRow({ status: 'failed', error: 'interrupted', createdAt: minutesAgo(90) })
  const running = await backupRow()
  const complete = await backupRow({ status: 'complete' })
  const unknown = randomUUID()
  const dir = join(h.deps.config.dataDir, 'backups')
  const put = (name: string) => {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), 'x')
  }
  for (const name of [
    `.work-${failed.id}/base/5/1259`,
    `${failed.id}.tar.gz.partial`,
    `${unknown}.tar.gz.enc.partial`,
    `.work-${running.id}/base/5/1259`,
    `${running.id}.tar.gz.partial`,
    `${complete.id}.tar.gz`,
    `${unknown}.tar.gz`,
    'notes.txt',
  ])
    put(name)

  expect(await runJob(h.deps, backupLeftovers)).toEqual({ removed: 3 })
  expect(readdirSync(dir).sort()).toEqual(
    [`.work-${running.id}`, `${complete.id}.tar.gz`, `${running.id}.tar.gz.partial`, `${unknown}.tar.gz`, 'notes.txt'].sort(),
  )
  expect(await runJob(h.deps, backupLeftovers)).toEqual({ removed: 0 })
})
