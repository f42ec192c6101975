/**
 * P9: a table-derived list with a filter and a sort at 100k rows, through the real route
 * (`GET /userdata/notes`, in-process through `app.handle`: token, tenancy, the grammar, the page
 * and its count), on embedded PGlite and on PostgreSQL. One customer holds all the rows (the
 * hardest case for a per-customer list); notes are written in bulk by SQL, one a minute back in
 * time, every tenth about a document. Target: p95 ≤ 10 ms on PostgreSQL.
 *
 *   npx bun bench/derived-list.ts [--db=pglite,postgres] [--rows=100000] [--requests=200] [--budget=30]
 */
import { sql } from 'drizzle-orm'
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
  median,
  percentile,
  type RunInfo,
  runInfo,
  timeRequests,
} from './support'

export const TARGET_P95_MS = 10

export interface DerivedListOptions {
  backends?: Backend[]
  rows?: number
  requests?: number
  budgetSec?: number
}

interface QueryResult {
  query: string
  p50Ms: number
  p95Ms: number
  total: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  loadSec?: number
  queries?: QueryResult[]
}

export interface DerivedListResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  rows: number
  backends: BackendResult[]
}

/** What a client of notes would ask for: a time range newest first, a subject, a title search, the default page. */
const QUERIES = (since: string) => [
  `occurredAt=gte.${since}&sort=-occurredAt`,
  'subjectTable=eq.data.documents&subjectId=eq.420&sort=-occurredAt',
  'title=ilike.*note 4242*',
  'sort=title&page=50',
]

export async function benchDerivedList(options: DerivedListOptions = {}): Promise<DerivedListResult> {
  const rows = options.rows ?? 100_000
  const requests = options.requests ?? 200
  const budgetSec = options.budgetSec ?? 30
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const bench = await inProcessApp(backend)
    try {
      const started = performance.now()
      await bench.database.db.execute(sql`
        insert into userdata.notes (owner_id, customer_id, title, body, occurred_at, subject_table, subject_id)
        select ${bench.owner.ecosystemId}::uuid, ${bench.customer.customerId}::uuid, 'note ' || i, 'body of note ' || i,
               now() - make_interval(mins => i), case when i % 10 = 0 then 'data.documents' end, case when i % 10 = 0 then (i % 1000)::text end
        from generate_series(1, ${rows}::int) i`)
      if (backend === 'postgres') await bench.database.db.execute(sql`vacuum analyze userdata.notes`)
      const loadSec = (performance.now() - started) / 1000
      log(`  ${backend}: ${fmt(rows)} notes written in ${loadSec.toFixed(1)} s`)
      const since = new Date(Date.now() - 30 * 24 * 3600 * 1000).toISOString()
      const queries: QueryResult[] = []
      for (const query of QUERIES(since)) {
        let total = 0
        const times = await timeRequests(
          async () => {
            total = (await bench.call('GET', `/userdata/notes?${query}`, { token: bench.customer.token })).total
          },
          requests,
          budgetSec,
        )
        queries.push({ query, p50Ms: median(times), p95Ms: percentile(times, 95), total })
        log(`  ${backend}: ${query}: p95 ${percentile(times, 95).toFixed(2)} ms (${fmt(total)} matches)`)
      }
      return { backend, loadSec, queries }
    } finally {
      await bench.close()
    }
  })
  const postgres = backends.find((b) => b.backend === 'postgres' && b.queries)
  const pass = Boolean(postgres?.queries?.every((q) => q.p95Ms <= TARGET_P95_MS))
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), rows, backends }
}

export function derivedListTable(result: DerivedListResult): string {
  const lines = result.backends.flatMap((b) =>
    b.queries
      ? b.queries.map(
          (q) =>
            `| ${b.backend} | \`${q.query}\` | ${fmt(q.total)} | ${q.p50Ms.toFixed(2)} | **${q.p95Ms.toFixed(2)}** | ${b.backend === 'postgres' ? (q.p95Ms <= TARGET_P95_MS ? 'pass' : 'above') : ''} |`,
        )
      : [`| ${b.backend} | ${b.skipped ?? b.error} | | | | |`],
  )
  return markdownTable(
    '| database | query (GET /userdata/notes?…) | matches | p50 ms | p95 ms | target ≤ 10 ms (PostgreSQL) |',
    '|---|---|---:|---:|---:|---|',
    lines,
  )
}

export const command: BenchCommand<DerivedListResult> = {
  name: 'derived-list',
  run: (argv) => benchDerivedList(benchArgs<DerivedListOptions>(argv, { rows: 'rows', requests: 'requests', budget: 'budgetSec' }).opts),
  table: derivedListTable,
}

if (import.meta.main) await benchMain(command)
