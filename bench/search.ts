/**
 * P6, full-text half: GET /search/chat/messages with 1M chat messages in the database, on embedded
 * PGlite and on PostgreSQL, in-process through `app.handle` (token, tenancy, the page of matches
 * with excerpts and the count of the matches: the server's own cost). Messages and their
 * conversations are written in bulk by SQL: made-up words drawn Zipf-like from a 20,000-word
 * vocabulary, 5–30 words for a user message, 20–80 for an assistant reply, every tenth row a tool
 * result (not indexed). Shapes: `spread`, 1,000 customers of one ecosystem with 1k messages each;
 * `heavy`, one customer holds 100k of the 1M, 900 others 1k each (the heavy one is measured).
 * Queries: a rare word, a common word, two words, the first three letters of a common word. The
 * service's own statements are then run under EXPLAIN ANALYZE to show the plans. Target: p95 ≤ 20 ms.
 *
 *   npx bun bench/search.ts [--db=pglite,postgres] [--shapes=spread,heavy] [--messages=1000000] [--customers=1000]
 *                           [--heavy=100000] [--requests=100] [--budget=30] [--quiet-wait=10]
 */
import { type SQL, sql } from 'drizzle-orm'
import { type Database, queryRows } from '../src/platform/db'
import {
  BACKENDS,
  type Backend,
  type BenchApp,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  fmt,
  inProcessApp,
  listFlag,
  loadAverage,
  markdownTable,
  mean,
  median,
  NOISY_PCT,
  percentile,
  quietGate,
  type RunInfo,
  runInfo,
  timeRequests,
  vocabulary,
  zipfIndex,
  zipfWordSql,
} from './support'

export const TARGET_P95_MS = 20

const VOCABULARY_SIZE = 20_000
const WORDS = vocabulary(VOCABULARY_SIZE)
/** Messages per conversation. */
const CONVERSATION_LENGTH = 20
/** Rows per INSERT. */
const BATCH = 100_000
/** Customers of the `spread` shape whose tokens the measured requests use, drawn at random. */
const SAMPLED_CUSTOMERS = 50

export type Shape = 'spread' | 'heavy'
export const SHAPES: Shape[] = ['spread', 'heavy']
export const QUERY_KINDS = ['rare word', 'common word', 'two words', 'prefix'] as const
export type QueryKind = (typeof QUERY_KINDS)[number]

export interface SearchBenchOptions {
  backends?: Backend[]
  shapes?: Shape[]
  /** Messages in the table, tool rows included. */
  messages?: number
  customers?: number
  /** Messages of the one heavy customer in the `heavy` shape. */
  heavy?: number
  /** Timed requests per query kind (fewer when `budgetSec` runs out first, at least 10). */
  requests?: number
  budgetSec?: number
  /** Seconds to wait for a quiet machine before each query kind (0: never). */
  quietWaitSec?: number
  log?: (line: string) => void
}

interface PlanSummary {
  /** `words`: the query's words and whether the customer has many messages; `search`: the page; `count`: past the last page. */
  statement: 'words' | 'search' | 'count'
  /** Indexes the plan reads, in plan order. */
  indexes: string[]
  executionMs: number
  plan: string
}

interface KindResult {
  kind: QueryKind
  requests: number
  p50Ms: number
  p95Ms: number
  /** `total` of the answers: how many messages matched. */
  matchesMean: number
  matchesMax: number
  /** EXPLAIN ANALYZE of the service's statements for one query of this kind. */
  plans: PlanSummary[]
  example: string
}

interface ShapeResult {
  shape: Shape
  messages: number
  /** Messages of the measured customer(s): the heavy one, or the mean of the sampled ones. */
  customerMessages: number
  loadSec: number
  indexSec: number
  vacuumSec: number
  /** 1-minute load average when the requests started and ended (2 cores; other people's work shares them). */
  loadAverage: [number, number]
  kinds: KindResult[]
  p50Ms: number
  p95Ms: number
}

export interface SearchBenchResult extends RunInfo {
  name: 'search'
  target: { p95Ms: number }
  settings: Required<Omit<SearchBenchOptions, 'log' | 'backends'>>
  backends: { backend: Backend; skipped?: string; shapes?: ShapeResult[]; p50Ms?: number; p95Ms?: number }[]
  pass: boolean
}

export async function benchSearch(options: SearchBenchOptions = {}): Promise<SearchBenchResult> {
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = {
    shapes: options.shapes ?? SHAPES,
    messages: options.messages ?? 1_000_000,
    customers: options.customers ?? 1000,
    heavy: options.heavy ?? 100_000,
    requests: options.requests ?? 100,
    budgetSec: options.budgetSec ?? 30,
    quietWaitSec: options.quietWaitSec ?? 10,
  }
  log(
    `P6 search: GET /search/chat/messages over ${fmt(settings.messages)} messages (${settings.shapes.join(', ')}), ` +
      `${settings.requests} requests per query kind; target p95 ≤ ${TARGET_P95_MS} ms`,
  )
  const backends = await eachBackend<SearchBenchResult['backends'][number]>(options.backends ?? BACKENDS, log, async (backend) => {
    const { shapes, times } = await measure(backend, settings, log)
    return { backend, shapes, p50Ms: median(times), p95Ms: percentile(times, 0.95) }
  })
  const measured = backends.flatMap((b) => b.shapes ?? [])
  return {
    name: 'search',
    target: { p95Ms: TARGET_P95_MS },
    ...runInfo(),
    settings,
    backends,
    pass: measured.length > 0 && measured.every((s) => s.p95Ms <= TARGET_P95_MS),
  }
}

async function measure(backend: Backend, s: SearchBenchResult['settings'], log: (l: string) => void) {
  const bench = await inProcessApp(backend)
  try {
    const { database } = bench
    const ecosystemId = bench.owner.ecosystemId
    // The heavy customer is the bench's own; the others are made here in one statement.
    const others = await queryRows<{ id: string }>(
      database.db,
      sql`insert into customer.customers (ecosystem_id, external_id)
          select ${ecosystemId}, 'bench-search-' || lpad(k::text, 6, '0') from generate_series(1, ${s.customers - 1}::int) k returning id`,
    )
    const customers = [bench.customer.customerId, ...others.map((r) => r.id)]
    const shapes: ShapeResult[] = []
    const times: number[] = []
    for (const shape of s.shapes) {
      const heavy = shape === 'heavy' ? s.heavy : 0
      const load = await loadMessages(database, ecosystemId, customers, s.messages, heavy)
      log(
        `  ${backend.padEnd(8)} ${shape}: ${fmt(s.messages)} messages written in ${load.loadSec.toFixed(1)} s, ` +
          `indexes built in ${load.indexSec.toFixed(1)} s, vacuum + analyze ${load.vacuumSec.toFixed(1)} s`,
      )
      const random = seededRandom(shape === 'heavy' ? 2 : 1)
      const measured = heavy
        ? [customers[0]!]
        : [...new Set(Array.from({ length: SAMPLED_CUSTOMERS }, () => customers[Math.floor(random() * customers.length)]!))]
      const tokens = await Promise.all(measured.map((customerId) => customerToken(bench, customerId)))
      const [own] = await queryRows<{ n: number }>(
        database.db,
        sql`select (count(*) / ${measured.length}::float)::int as n from chat.messages where customer_id in ${measured} and owner_id = ${ecosystemId}`,
      )
      const kinds: KindResult[] = []
      const shapeTimes: number[] = []
      const loadBefore = loadAverage()
      const quiet = quietGate(s.quietWaitSec, NOISY_PCT, (busy, sec) =>
        log(`  ${backend.padEnd(8)} ${shape}: the machine stayed ${busy.toFixed(0)}% busy for ${sec} s; measuring anyway`),
      )
      for (const kind of QUERY_KINDS) {
        const matches: number[] = []
        const search = async (q: string, token: string) => {
          const res = await bench.app.handle(
            new Request(`http://localhost/search/chat/messages?q=${encodeURIComponent(q)}`, { headers: { authorization: `Bearer ${token}` } }),
          )
          const body = (await res.json()) as { total: number; items: unknown[] }
          if (res.status !== 200 || body.items.length !== Math.min(20, body.total))
            throw new Error(`search ${q} answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`)
          return body.total
        }
        await quiet()
        const kt = await timeRequests(
          async () => void matches.push(await search(queryOf(kind, random), tokens[Math.floor(random() * tokens.length)]!)),
          s.requests,
          s.budgetSec,
        )
        const example = queryOf(kind, random)
        const plans = await explainService(database, () => search(example, tokens[0]!))
        const row: KindResult = {
          kind,
          requests: kt.length,
          p50Ms: median(kt),
          p95Ms: percentile(kt, 0.95),
          matchesMean: Math.round(mean(matches)),
          matchesMax: Math.max(...matches),
          plans,
          example,
        }
        kinds.push(row)
        shapeTimes.push(...kt)
        log(
          `  ${backend.padEnd(8)} ${shape.padEnd(6)} ${kind.padEnd(11)}: p50 ${row.p50Ms.toFixed(2)} ms, p95 ${row.p95Ms.toFixed(2)} ms over ${row.requests}, ` +
            `matches mean ${fmt(row.matchesMean)} (max ${fmt(row.matchesMax)}); ` +
            plans.map((p) => `${p.statement} ${p.executionMs.toFixed(1)} ms via ${p.indexes.join(' + ') || 'no index'}`).join(', ') +
            ` (e.g. "${example}")`,
        )
      }
      times.push(...shapeTimes)
      shapes.push({
        shape,
        messages: s.messages,
        customerMessages: own!.n,
        ...load,
        loadAverage: [loadBefore, loadAverage()],
        kinds,
        p50Ms: median(shapeTimes),
        p95Ms: percentile(shapeTimes, 0.95),
      })
    }
    return { shapes, times }
  } finally {
    await bench.close()
  }
}

/**
 * Replaces the ecosystem's chat with `total` messages in conversations of 20, bulk-written by SQL
 * with the table's secondary indexes dropped, which are then rebuilt (as the migrations define
 * them) and the tables vacuumed and analysed, as autovacuum would after a bulk load. With `heavy`,
 * every n-th conversation belongs to `customers[0]` so that it holds about `heavy` messages, and
 * the others are dealt round-robin to the other customers; without, to all of them.
 */
async function loadMessages(database: Database, ecosystemId: string, customers: string[], total: number, heavy: number) {
  const db = database.db
  await db.execute(sql`truncate chat.messages, chat.conversations`)
  const indexes = await queryRows<{ name: string; definition: string }>(
    db,
    sql`select indexname as name, indexdef as definition from pg_indexes
        where schemaname = 'chat' and tablename = 'messages' and indexdef not like 'CREATE UNIQUE INDEX%'`,
  )
  for (const index of indexes) await db.execute(sql.raw(`drop index chat.${index.name}`))

  const ids = sql`${sql.param(customers)}::uuid[]`
  const step = heavy ? Math.max(2, Math.round(total / heavy)) : 0
  // The customer of conversation number `c` (from 0), as an index into `ids`.
  const customerOf = (c: SQL) =>
    heavy
      ? sql`case when ${c} % ${sql.raw(String(step))} = 0 then 1 else 2 + (${c} - ${c} / ${sql.raw(String(step))} - 1) % ${sql.raw(String(customers.length - 1))} end`
      : sql`1 + ${c} % ${sql.raw(String(customers.length))}`
  const conversationId = (c: SQL) => sql`md5('bench-conversation-' || ${c})::uuid`
  const at = (n: SQL) => sql`timestamptz '2026-01-01 00:00:00+00' + ${n} * interval '30 seconds'`
  const words = (count: SQL) => sql`(select string_agg(${zipfWordSql(VOCABULARY_SIZE, sql`w.i`)}, ' ') from generate_series(1, ${count}) w(i))`

  const t0 = performance.now()
  await db.transaction(async (tx) => {
    await tx.execute(sql`select setseed(0.42)`)
    await tx.execute(sql`
      insert into chat.conversations (id, owner_id, customer_id, title, model, created_at, updated_at)
      select ${conversationId(sql`c`)}, ${ecosystemId}, (${ids})[${customerOf(sql`c`)}], ${words(sql`2 + c % 4`)}, 'bench', ${at(sql`c * ${sql.raw(String(CONVERSATION_LENGTH))}`)}, ${at(sql`c * ${sql.raw(String(CONVERSATION_LENGTH))}`)}
      from generate_series(0, ${Math.ceil(total / CONVERSATION_LENGTH) - 1}::int) c`)
    for (let from = 0; from < total; from += BATCH) {
      await tx.execute(sql`
        insert into chat.messages (conversation_id, owner_id, customer_id, role, content, created_at, updated_at)
        select ${conversationId(sql`m.c`)}, ${ecosystemId}, (${ids})[${customerOf(sql`m.c`)}], m.role, ${words(sql`m.length`)}, ${at(sql`m.g`)}, ${at(sql`m.g`)}
        from (
          select g, g / ${sql.raw(String(CONVERSATION_LENGTH))} as c, role,
                 case role when 'user' then 5 + floor(random() * 26)::int when 'assistant' then 20 + floor(random() * 61)::int else 10 end as length
          from generate_series(${from}::int, ${Math.min(total, from + BATCH) - 1}::int) g,
               lateral (select case when g % 10 = 9 then 'tool' when g % 2 = 0 then 'user' else 'assistant' end as role) r
        ) m`)
    }
  })
  const loadSec = (performance.now() - t0) / 1000

  const t1 = performance.now()
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`set local maintenance_work_mem = '256MB'`))
    for (const index of indexes) await tx.execute(sql.raw(index.definition))
  })
  const indexSec = (performance.now() - t1) / 1000
  const t2 = performance.now()
  await db.execute(sql`vacuum analyze chat.messages, chat.conversations`)
  return { loadSec, indexSec, vacuumSec: (performance.now() - t2) / 1000 }
}

async function customerToken(bench: BenchApp, customerId: string): Promise<string> {
  const { token } = await bench.call('POST', '/customer/token', {
    token: bench.owner.token,
    headers: { 'x-ecosystem-id': bench.owner.ecosystemId },
    body: { customerId },
  })
  return token
}

function queryOf(kind: QueryKind, random: () => number): string {
  const common = () => WORDS[Math.floor(random() * 10)]!
  switch (kind) {
    case 'rare word':
      return WORDS[Math.floor(VOCABULARY_SIZE * (0.1 + 0.9 * random()))]!
    case 'common word':
      return common()
    case 'two words': {
      const a = zipfIndex(VOCABULARY_SIZE, random)
      let b = zipfIndex(VOCABULARY_SIZE, random)
      while (b === a) b = zipfIndex(VOCABULARY_SIZE, random)
      return `${WORDS[a]} ${WORDS[b]}`
    }
    case 'prefix':
      return common().slice(0, 3)
  }
}

/** Mulberry32: the same queries in every run, so that runs compare. */
function seededRandom(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * Runs `request` once while recording the statements the service sends (through Drizzle's logger),
 * then runs each under EXPLAIN ANALYZE with the same parameters.
 */
async function explainService(database: Database, request: () => Promise<unknown>): Promise<PlanSummary[]> {
  const session = (database.db as unknown as { session: { logger: { logQuery(query: string, params: unknown[]): void } } }).session
  const previous = session.logger
  const statements: { query: string; params: unknown[] }[] = []
  session.logger = { logQuery: (query, params) => void statements.push({ query, params }) }
  try {
    await request()
  } finally {
    session.logger = previous
  }
  const client = (database.db as unknown as { $client: any }).$client
  const summaries: PlanSummary[] = []
  // The statements on chat's messages (the request's token and tenancy checks are not the search).
  for (const { query, params } of statements.filter((s) => s.query.includes('"chat"."messages"'))) {
    const text = `explain (analyze, buffers) ${query}`
    const rows: Record<string, string>[] = database.kind === 'pglite' ? (await client.query(text, params)).rows : await client.unsafe(text, params)
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n')
    summaries.push({
      statement: query.includes('ts_headline') ? 'search' : query.includes('array(') ? 'words' : 'count',
      indexes: [...plan.matchAll(/Index (?:Only )?Scan (?:Backward )?(?:using|on) (\w+)/g)].map((m) => m[1]!),
      executionMs: Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1]),
      plan,
    })
  }
  return summaries
}

/** Markdown tables for bench/README.md: load times, then latency per query kind. */
export function searchTable(result: SearchBenchResult): string {
  const loads = result.backends.flatMap((b) =>
    b.skipped
      ? [`| ${b.backend} | skipped: ${b.skipped} | | | | | |`]
      : b.shapes!.map(
          (s) =>
            `| ${b.backend} | ${s.shape} | ${fmt(s.customerMessages)} | ${s.loadSec.toFixed(1)} | ${s.indexSec.toFixed(1)} | ${s.vacuumSec.toFixed(1)} | ` +
            `${s.loadAverage.map((l) => l.toFixed(1)).join(' → ')} |`,
        ),
  )
  const rows = result.backends.flatMap((b) =>
    b.skipped
      ? []
      : [
          ...b.shapes!.flatMap((s) => [
            ...s.kinds.map(
              (k) =>
                `| ${b.backend} | ${s.shape} | ${k.kind} | ${k.p50Ms.toFixed(2)} | ${k.p95Ms.toFixed(2)} | ${fmt(k.matchesMean)} | ` +
                `${k.plans.map((p) => `${p.statement}: ${p.indexes.join(' + ') || 'seq scan'}`).join('; ')} |`,
            ),
            `| ${b.backend} | ${s.shape} | **all** | ${s.p50Ms.toFixed(2)} | **${s.p95Ms.toFixed(2)}** | | ${s.p95Ms <= TARGET_P95_MS ? 'pass' : 'above'} |`,
          ]),
          `| ${b.backend} | **overall** | | ${b.p50Ms!.toFixed(2)} | **${b.p95Ms!.toFixed(2)}** | | |`,
        ],
  )
  return [
    markdownTable(
      '| database | shape | messages of the measured customer | data written s | indexes built s | vacuum + analyze s | load average |',
      '|---|---|---:|---:|---:|---:|---|',
      loads,
    ),
    '',
    markdownTable('| database | shape | query | p50 ms | p95 ms | matches (mean) | plan |', '|---|---|---|---:|---:|---:|---|', rows),
  ].join('\n')
}

export function parseArgs(argv: string[]): SearchBenchOptions {
  const { flags, opts } = benchArgs<SearchBenchOptions>(argv, {
    messages: 'messages',
    customers: 'customers',
    heavy: 'heavy',
    requests: 'requests',
    budget: 'budgetSec',
    'quiet-wait': 'quietWaitSec',
  })
  if (flags.has('shapes')) opts.shapes = listFlag(flags.get('shapes')!, SHAPES)
  return opts
}

export const command: BenchCommand<SearchBenchResult> = { name: 'search', run: (argv) => benchSearch(parseArgs(argv)), table: searchTable }

if (import.meta.main) await benchMain(command)
