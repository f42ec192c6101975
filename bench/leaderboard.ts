/**
 * P10: GET /community/leaderboard per period at 1M point rows over 100k customers of one
 * ecosystem, in-process through the real route (customer token, tenancy, the page of totals, names,
 * levels and the count), on embedded PGlite and on PostgreSQL. The ledger is written in bulk by
 * SQL (awards spread over the past two years) and the running totals built from it as the awarding
 * transactions keep them; the bench checks that the all-time board matches a SUM over the ledger.
 * Target: p95 ≤ 20 ms on both databases, for the first page and a deep one.
 *
 *   npx bun bench/leaderboard.ts [--db=pglite,postgres] [--customers=100000] [--points=1000000] [--requests=200]
 */
import { sql } from 'drizzle-orm'
import { bucketOf, PERIODS } from '../src/modules/community/points'
import { queryRows } from '../src/platform/db'
import {
  BACKENDS,
  type Backend,
  type BackendOutcome,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  fmt,
  inProcessApp,
  latencyRow,
  type LatencyRow,
  markdownTable,
  type RunInfo,
  runInfo,
} from './support'

export const TARGET_P95_MS = 20

export interface LeaderboardOptions {
  backends?: Backend[]
  customers?: number
  points?: number
  requests?: number
}

interface BackendResult extends BackendOutcome {
  loadSec?: number
  rows?: LatencyRow[]
}

export interface LeaderboardResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  customers: number
  points: number
  backends: BackendResult[]
}

export async function benchLeaderboard(options: LeaderboardOptions = {}): Promise<LeaderboardResult> {
  const customerCount = options.customers ?? 100_000
  const pointCount = options.points ?? 1_000_000
  const requests = options.requests ?? 200
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const bench = await inProcessApp(backend)
    try {
      const eco = bench.owner.ecosystemId
      const db = bench.deps.db
      const started = performance.now()
      await db.execute(sql`insert into customer.customers (ecosystem_id, external_id, name)
        select ${eco}::uuid, 'c' || g, 'Customer ' || g from generate_series(1, ${customerCount}) g`)
      // Skewed activity: a few customers earn most points, as in real communities.
      await db.execute(sql`with c as (select row_number() over (order by id) as n, id from customer.customers where ecosystem_id = ${eco}::uuid),
             s as materialized (select g, 1 + floor(power(random(), 3) * ${customerCount})::int as n, now() - (random() * interval '730 days') as at from generate_series(1, ${pointCount}) g)
        insert into community.points (ecosystem_id, customer_id, amount, reason, source_type, source_id, created_at)
        select ${eco}::uuid, c.id, 1 + (s.g % 5), 'bench', 'bench', s.g::text, s.at from s join c on c.n = s.n`)
      const now = bench.deps.now()
      for (const period of PERIODS) {
        const bucket = bucketOf(period, now).toISOString()
        const trunc = period === 'all_time' ? sql`${bucket}::timestamptz` : sql`date_trunc(${period}, created_at at time zone 'UTC') at time zone 'UTC'`
        await db.execute(sql`insert into community.point_totals (ecosystem_id, customer_id, period, bucket, total)
          select ${eco}::uuid, customer_id, ${period}, ${trunc}, sum(amount) from community.points where ecosystem_id = ${eco}::uuid group by customer_id, 4`)
      }
      await db.execute(sql`insert into community.point_boards (ecosystem_id, period, bucket, customers)
        select ecosystem_id, period, bucket, count(*) from community.point_totals group by 1, 2, 3`)
      await db.execute(sql`analyze`)
      const loadSec = (performance.now() - started) / 1000
      const [check] = await queryRows<{ ledger: number; board: number }>(
        db,
        sql`select (select max(s) from (select sum(amount)::int as s from community.points group by customer_id) x) as ledger,
                   (select max(total) from community.point_totals where period = 'all_time') as board`,
      )
      if (check!.ledger !== check!.board) throw new Error(`totals disagree with the ledger: ${check!.ledger} vs ${check!.board}`)
      log(`  ${backend}: ${fmt(pointCount)} points over ${fmt(customerCount)} customers loaded in ${fmt(loadSec, 1)} s`)

      const token = bench.customer.token
      const rows: LatencyRow[] = []
      for (const period of PERIODS) {
        for (const page of [1, 200]) {
          const row = await latencyRow(
            `${period}, page ${page}`,
            () => bench.call('GET', `/community/leaderboard?period=${period}&page=${page}&pageSize=20`, { token }),
            requests,
          )
          rows.push(row)
          log(`  ${backend} ${row.query}: p50 ${fmt(row.p50Ms, 1)} ms, p95 ${fmt(row.p95Ms, 1)} ms (${fmt(row.total)} ranked)`)
        }
      }
      return { backend, loadSec, rows }
    } finally {
      await bench.close()
    }
  })
  const pass = backends.every((b) => !b.rows || b.rows.every((r) => r.p95Ms <= TARGET_P95_MS))
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), customers: customerCount, points: pointCount, backends }
}

export function leaderboardTable(result: LeaderboardResult): string {
  const lines = result.backends.flatMap((b) =>
    b.rows
      ? b.rows.map((r) => `| ${b.backend} | ${r.query} | ${fmt(r.total)} | ${fmt(r.p50Ms, 1)} ms | **${fmt(r.p95Ms, 1)} ms** |`)
      : [`| ${b.backend} | ${b.skipped ?? b.error} | | | |`],
  )
  return markdownTable(`| database | period, page (20 a page) | ranked customers | p50 | p95 (≤ ${TARGET_P95_MS} ms) |`, '|---|---|---:|---:|---:|', lines)
}

export const command: BenchCommand<LeaderboardResult> = {
  name: 'leaderboard',
  run: (argv) => benchLeaderboard(benchArgs<LeaderboardOptions>(argv, { customers: 'customers', points: 'points', requests: 'requests' }).opts),
  table: leaderboardTable,
}

if (import.meta.main) await benchMain(command)
