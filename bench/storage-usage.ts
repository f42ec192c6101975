/**
 * P8: GET /usage/storage as one customer's attachments grow 1k → 10k → 100k, on embedded PGlite
 * and on PostgreSQL, in-process through `app.handle` (no network noise: the figure is the
 * server's own cost). Target: flat — the 100k ÷ 1k latency ratio ≤ 1.5. For reference the same
 * run times the live `sum(size_bytes)` the counter replaces (indexed, but O(n)).
 *
 *   npx bun bench/storage-usage.ts [--db=pglite,postgres] [--requests=2000] [--sizes=1000,10000,100000]
 */
import { sql } from 'drizzle-orm'
import { queryRows } from '../src/platform/db'
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  inProcessApp,
  fmt,
  markdownTable,
  median,
  percentile,
  type RunInfo,
  runInfo,
} from './support'

export const TARGET = 1.5

export interface StorageUsageOptions {
  backends?: Backend[]
  /** Timed requests per size (after a warm-up of a tenth as many). */
  requests?: number
  sizes?: number[]
  log?: (line: string) => void
}

interface SizeResult {
  attachments: number
  p50Us: number
  p95Us: number
  /** The live sum over the customer's ready attachments, for comparison. */
  liveSumP50Us: number
}

export interface StorageUsageBackendResult {
  backend: Backend
  skipped?: string
  sizes?: SizeResult[]
  /** p50 at the largest size ÷ p50 at the smallest. */
  ratio?: number
  liveSumRatio?: number
}

export interface StorageUsageResult extends RunInfo {
  name: 'storage-usage'
  target: number
  settings: { requests: number; sizes: number[] }
  backends: StorageUsageBackendResult[]
  pass: boolean
}

export async function benchStorageUsage(options: StorageUsageOptions = {}): Promise<StorageUsageResult> {
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = { requests: options.requests ?? 2000, sizes: options.sizes ?? [1000, 10_000, 100_000] }
  log(
    `P8 storage-usage: GET /usage/storage at ${settings.sizes.map((n) => fmt(n)).join(' / ')} attachments, ${settings.requests} requests each, target 100k ÷ 1k ≤ ${TARGET}`,
  )
  const results = await eachBackend(options.backends ?? BACKENDS, log, (backend) => measure(backend, settings, log))
  const measured = results.filter((r) => r.ratio !== undefined)
  return {
    name: 'storage-usage',
    target: TARGET,
    ...runInfo(),
    settings,
    backends: results,
    pass: measured.length > 0 && measured.every((r) => r.ratio! <= TARGET),
  }
}

async function measure(backend: Backend, s: { requests: number; sizes: number[] }, log: (l: string) => void): Promise<StorageUsageBackendResult> {
  const bench = await inProcessApp(backend)
  try {
    const { app, database, call } = bench
    const { token, customerId } = bench.customer
    const ecosystemId = bench.owner.ecosystemId

    const sizes: SizeResult[] = []
    let have = 0
    for (const n of s.sizes) {
      // Bulk rows as completes would leave them (ready, counted), plus a deleted tenth that must not count.
      await database.db.execute(sql`
        insert into storage.attachments (id, ecosystem_id, customer_id, object_key, storage_kind, filename, content_type, size_bytes, content_hash, status, deleted_at)
        select gen_random_uuid(), ${ecosystemId}, ${customerId}, 'bench/' || g, 'local', 'f' || g || '.bin', 'application/octet-stream',
               1000 + (g % 1000), md5(g::text) || md5((g + 1)::text), 'ready', case when g % 10 = 0 then now() else null end
        from generate_series(${have + 1}::int, ${n}::int) g`)
      have = n
      await database.db.execute(sql`
        insert into storage.usage (ecosystem_id, customer_id, used_bytes)
        select ${ecosystemId}, ${customerId}, coalesce(sum(size_bytes), 0) from storage.attachments
        where ecosystem_id = ${ecosystemId} and customer_id = ${customerId} and status = 'ready' and deleted_at is null
        on conflict (ecosystem_id, customer_id) do update set used_bytes = excluded.used_bytes`)
      await database.db.execute(sql`analyze storage.attachments`)

      const usage = await call('GET', '/usage/storage', { token })
      const [check] = await queryRows<{ live: string }>(
        database.db,
        sql`select sum(size_bytes)::text as live from storage.attachments where ecosystem_id = ${ecosystemId} and customer_id = ${customerId} and status = 'ready' and deleted_at is null`,
      )
      if (usage.usageBytes !== Number(check!.live)) throw new Error(`usage ${usage.usageBytes} ≠ live sum ${check!.live}`)

      const request = () => app.handle(new Request('http://localhost/usage/storage', { headers: { authorization: `Bearer ${token}` } }))
      const times = await timeEach(s.requests, async () => {
        const res = await request()
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`GET /usage/storage answered ${res.status}`)
      })
      const liveSum = await timeEach(Math.max(50, Math.floor(s.requests / 10)), () =>
        database.db.execute(
          sql`select sum(size_bytes) from storage.attachments where ecosystem_id = ${ecosystemId} and customer_id = ${customerId} and status = 'ready' and deleted_at is null`,
        ),
      )
      const row = { attachments: n, p50Us: median(times), p95Us: percentile(times, 0.95), liveSumP50Us: median(liveSum) }
      sizes.push(row)
      log(
        `  ${backend.padEnd(8)} ${fmt(n).padStart(7)} attachments: GET /usage/storage p50 ${row.p50Us.toFixed(0)} µs, p95 ${row.p95Us.toFixed(0)} µs   (live sum p50 ${row.liveSumP50Us.toFixed(0)} µs)`,
      )
    }
    const first = sizes[0]!
    const last = sizes[sizes.length - 1]!
    const ratio = last.p50Us / first.p50Us
    const liveSumRatio = last.liveSumP50Us / first.liveSumP50Us
    log(
      `  ${backend.padEnd(8)} ratio ${fmt(last.attachments)} ÷ ${fmt(first.attachments)}: ${ratio.toFixed(2)} ${ratio <= TARGET ? 'PASS' : 'ABOVE TARGET'} (live sum: ${liveSumRatio.toFixed(1)})`,
    )
    return { backend, sizes, ratio, liveSumRatio }
  } finally {
    await bench.close()
  }
}

/** Runs `fn` `count` times after a warm-up; microseconds per run. */
async function timeEach(count: number, fn: () => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < Math.ceil(count / 10); i++) await fn()
  const times: number[] = []
  for (let i = 0; i < count; i++) {
    const t0 = performance.now()
    await fn()
    times.push((performance.now() - t0) * 1000)
  }
  return times
}

/** Markdown table rows for bench/README.md. */
export function storageUsageTable(result: StorageUsageResult): string {
  const rows = result.backends.flatMap((b) =>
    b.skipped
      ? [`| ${b.backend} | – | skipped: ${b.skipped} | | | |`]
      : [
          ...b.sizes!.map((r) => `| ${b.backend} | ${fmt(r.attachments)} | ${r.p50Us.toFixed(0)} | ${r.p95Us.toFixed(0)} | ${r.liveSumP50Us.toFixed(0)} | |`),
          `| ${b.backend} | **${fmt(b.sizes!.at(-1)!.attachments)} ÷ ${fmt(b.sizes![0]!.attachments)}** | **${b.ratio!.toFixed(2)}** | | ${b.liveSumRatio!.toFixed(1)} | ${b.ratio! <= TARGET ? 'pass' : 'above'} |`,
        ],
  )
  return markdownTable(
    '| database | attachments | GET /usage/storage p50 µs | p95 µs | live sum() p50 µs (reference) | ≤ 1.5 |',
    '|---|---:|---:|---:|---:|---|',
    rows,
  )
}

export function parseArgs(argv: string[]): StorageUsageOptions {
  const { flags, opts } = benchArgs<StorageUsageOptions>(argv, { requests: 'requests' })
  if (flags.has('sizes')) opts.sizes = flags.get('sizes')!.split(',').map(Number)
  return opts
}

export const command: BenchCommand<StorageUsageResult> = { name: 'storage-usage', run: (argv) => benchStorageUsage(parseArgs(argv)), table: storageUsageTable }

if (import.meta.main) await benchMain(command)
