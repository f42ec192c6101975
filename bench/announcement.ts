/**
 * P11: an announcement fanned out to 100k customers of one ecosystem, on embedded PGlite and on
 * PostgreSQL, in-process: `POST /notifications/announcements`, then the queue's fan-out batches
 * (NOTIFICATION_BATCH_SIZE) run on a pg-boss worker until every customer has its notification and
 * every opted-in customer's e-mail delivery is enqueued. Reported: time from the request to all
 * enqueued, notifications/s, the process's peak RSS above its level before the request (PGlite
 * lives in this process, on disk under a data directory as `npm start` runs it, so its caches count), and, as a ratio in the same run, the time of
 * one bare `INSERT … SELECT` of the same 100k notification rows.
 *
 *   npx bun bench/announcement.ts [--db=pglite,postgres] [--customers=100000] [--optedIn=0.1]
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/platform/db'
import { JobQueue } from '../src/platform/queue'
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  fmt,
  inProcessApp,
  markdownTable,
  type RunInfo,
  runInfo,
  sleep,
} from './support'

export interface AnnouncementOptions {
  backends?: Backend[]
  customers?: number
  optedIn?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  allEnqueuedSec?: number
  notificationsPerSec?: number
  deliveriesEnqueued?: number
  peakRssMb?: number
  /** JavaScript heap only (the service's own objects), peak above the level before the request. */
  peakHeapMb?: number
  bareInsertSec?: number
}

export interface AnnouncementResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  customers: number
  backends: BackendResult[]
}

const TARGET_SEC = 30
const TARGET_RSS_MB = 100

export async function benchAnnouncement(options: AnnouncementOptions = {}): Promise<AnnouncementResult> {
  const customers = options.customers ?? 100_000
  const optedIn = options.optedIn ?? 0.1
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const bench = await inProcessApp(backend, { pgliteOnDisk: true })
    const worker = new JobQueue(bench.database, { workers: true, logger: bench.deps.logger, pollingIntervalSeconds: 0.5 })
    try {
      const eco = bench.owner.ecosystemId
      const db = bench.deps.db
      await db.execute(sql`insert into customer.customers (ecosystem_id, external_id, email)
        select ${eco}::uuid, 'c' || g, 'c' || g || '@example.test' from generate_series(1, ${customers}) g`)
      await db.execute(sql`insert into notifications.preferences (customer_id, category, email, sms)
        select id, 'admin_announcement', true, false from customer.customers where ecosystem_id = ${eco}::uuid and random() < ${optedIn}`)
      await db.execute(sql`analyze`)

      const bareStarted = performance.now()
      await db.execute(sql`insert into notifications.notifications (ecosystem_id, customer_id, type, thread_id, subject, body)
        select ecosystem_id, id, 'bench_bare', 'bare', 'Hello', 'Body' from customer.customers where ecosystem_id = ${eco}::uuid`)
      const bareInsertSec = (performance.now() - bareStarted) / 1000
      await db.execute(sql`delete from notifications.notifications where type = 'bench_bare'`)

      worker.define<{ announcementId: string }>({
        name: 'announcement-fan-out',
        handle: (job) => bench.app.services.notifications.fanOutBatch(job.announcementId),
      })
      await worker.start()
      Bun.gc(true)
      await sleep(200)
      const base = process.memoryUsage()
      let peakRss = base.rss
      let peakHeap = base.heapUsed
      const sampler = setInterval(() => {
        const now = process.memoryUsage()
        peakRss = Math.max(peakRss, now.rss)
        peakHeap = Math.max(peakHeap, now.heapUsed)
      }, 50)
      const started = performance.now()
      const admin = { token: bench.owner.token, headers: { 'x-ecosystem-id': eco } }
      const { recipients } = await bench.call('POST', '/notifications/announcements', {
        ...admin,
        body: { subject: 'Maintenance', body: 'Tonight 02:00-03:00' },
      })
      for (;;) {
        const [row] = await queryRows<{ done: boolean }>(db, sql`select finished_at is not null as done from notifications.announcements`)
        if (row?.done) break
        await sleep(50)
      }
      const allEnqueuedSec = (performance.now() - started) / 1000
      clearInterval(sampler)
      const [counts] = await queryRows<{ notifications: number; deliveries: number }>(
        db,
        sql`select (select count(*)::int from notifications.notifications where type = 'admin_announcement') as notifications,
                   (select count(*)::int from pgboss.job where name = 'notification-deliver') as deliveries`,
      )
      if (counts!.notifications !== customers + 1 && counts!.notifications !== customers)
        throw new Error(`expected ${customers} notifications, found ${counts!.notifications}`)
      if (recipients !== counts!.notifications) throw new Error(`announced ${recipients} recipients, wrote ${counts!.notifications}`)
      const result = {
        backend,
        allEnqueuedSec,
        notificationsPerSec: counts!.notifications / allEnqueuedSec,
        deliveriesEnqueued: counts!.deliveries,
        peakRssMb: (peakRss - base.rss) / 2 ** 20,
        peakHeapMb: (peakHeap - base.heapUsed) / 2 ** 20,
        bareInsertSec,
      }
      log(
        `  ${backend}: ${fmt(allEnqueuedSec, 1)} s to all enqueued, ${fmt(result.notificationsPerSec)} notifications/s, ${counts!.deliveries} e-mails enqueued, peak RSS +${fmt(result.peakRssMb)} MB (JS heap +${fmt(result.peakHeapMb)} MB); bare insert ${fmt(bareInsertSec, 2)} s`,
      )
      return result
    } finally {
      await worker.stop(1000)
      await bench.close()
    }
  })
  const pass = backends.every((b) => b.allEnqueuedSec === undefined || (b.allEnqueuedSec <= TARGET_SEC && b.peakRssMb! <= TARGET_RSS_MB))
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), customers, backends }
}

export function announcementTable(result: AnnouncementResult): string {
  const rows = result.backends.map((b) =>
    b.allEnqueuedSec === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | | | | | |`
      : `| ${b.backend} | **${fmt(b.allEnqueuedSec, 1)} s** | ${fmt(b.notificationsPerSec!)} | ${fmt(b.deliveriesEnqueued!)} | **+${fmt(b.peakRssMb!)} MB** | +${fmt(b.peakHeapMb!)} MB | ${fmt(b.bareInsertSec!, 2)} s | ${(b.allEnqueuedSec / b.bareInsertSec!).toFixed(1)}× |`,
  )
  return markdownTable(
    `| database (${fmt(result.customers)} customers) | all enqueued (≤ ${TARGET_SEC} s) | notifications/s | e-mail jobs enqueued | peak RSS (≤ +${TARGET_RSS_MB} MB) | of which JS heap | one bare INSERT…SELECT | fan-out ÷ bare |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|',
    rows,
  )
}

export const command: BenchCommand<AnnouncementResult> = {
  name: 'announcement',
  run: (argv) => benchAnnouncement(benchArgs<AnnouncementOptions>(argv, { customers: 'customers', optedIn: 'optedIn' }).opts),
  table: announcementTable,
}

if (import.meta.main) await benchMain(command)
