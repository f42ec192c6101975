/**
 * P5: POST /persona_memory/recall latency with 10k and 100k memories of one persona, on embedded
 * PGlite (pgvector, HNSW index) and on PostgreSQL without pgvector (exact scan over real[]),
 * in-process through `app.handle` (the server's own cost: token, tenancy, query embedding, search,
 * recallCount update); and on HNSW, recall@10 of the service's search against an exact scan.
 * Memories are written in bulk by SQL: by default synthetic texts embedded by the local embedder
 * (what the default setup stores); `--data=random` uses isotropic random unit vectors instead, the
 * hardest case for HNSW. Queries are short synthetic texts. Targets: p95 ≤ 15 ms at 100k;
 * recall@10 ≥ 0.95.
 *
 *   npx bun bench/memory-recall.ts [--db=pglite,postgres] [--sizes=10000,100000] [--data=text|random] [--shared-buffers=256MB] [--requests=200] [--queries=100] [--budget=60]
 */
import { sql } from 'drizzle-orm'
import { DEFAULT_SHARED_BUFFERS } from '../src/config'
import type { Deps } from '../src/deps'
import { recall } from '../src/modules/persona_memory/recall'
import { CREATE_HNSW_INDEX, HNSW_INDEX, realArray } from '../src/modules/persona_memory/vectors'
import { queryRows } from '../src/platform/db'
import type { Tenant } from '../src/platform/tenancy'
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
  timeRequests,
  vocabulary,
  zipfIndex,
} from './support'

export const TARGET_P95_MS = 15
export const TARGET_RECALL = 0.95

export interface MemoryRecallOptions {
  backends?: Backend[]
  sizes?: number[]
  /** Timed recalls per size (fewer when `budgetSec` runs out first, at least 10). */
  requests?: number
  /** Queries for recall@10 (HNSW only). */
  queries?: number
  /** Seconds of timed recalls per size at most: the exact scan at 100k takes seconds each. */
  budgetSec?: number
  /** What the memories' vectors are (see insertMemories). */
  data?: Data
  /** PGLITE_SHARED_BUFFERS for the PGlite runs (default: the service's). */
  sharedBuffers?: string
  log?: (line: string) => void
}

interface SizeResult {
  memories: number
  search: 'hnsw' | 'exact scan'
  /** HNSW build after the bulk insert (pgvector only). */
  indexBuildSec?: number
  requests: number
  p50Ms: number
  p95Ms: number
  recallAt10?: number
  /** EXPLAIN of the service's query shows the HNSW index. */
  usesIndex?: boolean
}

export interface MemoryRecallResult extends RunInfo {
  name: 'memory-recall'
  targets: { p95Ms: number; recallAt10: number }
  settings: Required<Omit<MemoryRecallOptions, 'log' | 'backends'>>
  backends: { backend: Backend; skipped?: string; sizes?: SizeResult[] }[]
  pass: boolean
}

type Data = 'text' | 'random'

// 5,000 made-up words drawn Zipf-like, as words in real text are drawn.
const VOCABULARY = vocabulary(5000)
const syntheticText = (words: number) => Array.from({ length: words }, () => VOCABULARY[zipfIndex(VOCABULARY.length)]).join(' ')
/** A recall query: two to six words. */
const randomQuery = () => syntheticText(2 + Math.floor(Math.random() * 5))

export async function benchMemoryRecall(options: MemoryRecallOptions = {}): Promise<MemoryRecallResult> {
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = {
    sizes: options.sizes ?? [10_000, 100_000],
    requests: options.requests ?? 200,
    queries: options.queries ?? 100,
    budgetSec: options.budgetSec ?? 60,
    data: options.data ?? 'text',
    sharedBuffers: options.sharedBuffers ?? DEFAULT_SHARED_BUFFERS,
  }
  log(
    `P5 memory-recall: ${settings.sizes.map((n) => fmt(n)).join(' / ')} memories of one persona (${settings.data} vectors), ${settings.requests} recalls each, PGlite shared_buffers ${settings.sharedBuffers}; targets p95 ≤ ${TARGET_P95_MS} ms (HNSW), recall@10 ≥ ${TARGET_RECALL}`,
  )
  const backends = await eachBackend<MemoryRecallResult['backends'][number]>(options.backends ?? BACKENDS, log, async (backend) => ({
    backend,
    sizes: await measure(backend, settings, log),
  }))
  const hnsw = backends.flatMap((b) => (b.sizes ?? []).filter((s) => s.search === 'hnsw'))
  const largest = hnsw.filter((s) => s.memories === Math.max(...settings.sizes))
  return {
    name: 'memory-recall',
    targets: { p95Ms: TARGET_P95_MS, recallAt10: TARGET_RECALL },
    ...runInfo(),
    settings,
    backends,
    pass: largest.length > 0 && largest.every((s) => s.p95Ms <= TARGET_P95_MS && (s.recallAt10 ?? 0) >= TARGET_RECALL),
  }
}

async function measure(backend: Backend, s: MemoryRecallResult['settings'], log: (l: string) => void): Promise<SizeResult[]> {
  const bench = await inProcessApp(backend, { env: { PGLITE_SHARED_BUFFERS: s.sharedBuffers } })
  try {
    const { app, deps, database } = bench
    const db = database.db
    const { customerId, token } = bench.customer
    const tenant: Tenant = { ecosystemId: bench.owner.ecosystemId, organizationId: bench.owner.organizationId, customerId, actor: { kind: 'customer' } }
    const personaId = crypto.randomUUID()
    const search = database.vector ? 'hnsw' : 'exact scan'

    const results: SizeResult[] = []
    let have = 0
    for (const n of s.sizes) {
      // Bulk loads go faster into a table without the HNSW index, which is then built once.
      if (database.vector) await db.execute(sql.raw(`drop index if exists persona_memory.${HNSW_INDEX}`))
      for (let from = have + 1; from <= n; from += 2_000) await insertMemories(deps, tenant, personaId, s.data, from, Math.min(n, from + 1_999))
      have = n
      let indexBuildSec: number | undefined
      if (database.vector) {
        const t0 = performance.now()
        await db.transaction(async (tx) => {
          await tx.execute(sql.raw(`set local maintenance_work_mem = '512MB'`))
          await tx.execute(sql.raw(CREATE_HNSW_INDEX))
        })
        indexBuildSec = (performance.now() - t0) / 1000
      }
      await db.execute(sql`analyze persona_memory.memories`)

      const request = async () => {
        const res = await app.handle(
          new Request('http://localhost/persona_memory/recall', {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
            body: JSON.stringify({ personaId, query: randomQuery(), limit: 10 }),
          }),
        )
        const body = (await res.json()) as { memories: unknown[] }
        if (res.status !== 200 || body.memories.length !== 10) throw new Error(`recall answered ${res.status} with ${body.memories?.length} memories`)
      }
      const times = await timeRequests(request, s.requests, s.budgetSec)
      const row: SizeResult = { memories: n, search, indexBuildSec, requests: times.length, p50Ms: quantile(times, 0.5), p95Ms: quantile(times, 0.95) }
      if (database.vector) Object.assign(row, await hnswQuality(deps, tenant, personaId, s.queries))
      results.push(row)
      log(
        `  ${backend.padEnd(8)} ${fmt(n).padStart(7)} memories (${search}${indexBuildSec ? `, index built in ${indexBuildSec.toFixed(1)} s` : ''}): ` +
          `recall p50 ${row.p50Ms.toFixed(2)} ms, p95 ${row.p95Ms.toFixed(2)} ms over ${row.requests}` +
          (row.recallAt10 !== undefined ? `; recall@10 ${row.recallAt10.toFixed(3)}, index used: ${row.usesIndex}` : ''),
      )
    }
    return results
  } finally {
    await bench.close()
  }
}

/**
 * Rows `from`..`to`, 90% the customer's own memories and 10% global ones. `text`: synthetic texts
 * (Zipf-distributed words) embedded by the local embedder, as the default setup stores them;
 * `random`: isotropic Gaussian unit vectors made by SQL, the hardest case for HNSW.
 */
async function insertMemories(deps: Deps, t: Tenant, personaId: string, data: Data, from: number, to: number) {
  const owner = sql`case when g % 10 = 0 then null else ${t.customerId}::uuid end, ${personaId}, case when g % 10 = 0 then 'persona' else 'user' end`
  const columns = sql.raw('owner_id, customer_id, persona_id, scope, slug, memory_type, description, body, source, confidence, embedding, embedding_model')
  if (data === 'random') {
    await deps.db.execute(sql`
      insert into persona_memory.memories (${columns})
      select ${t.ecosystemId}, ${owner}, 'bench-' || g, 'user', 'bench memory ' || g, 'a random vector', 'tool', 50, v.e, ${deps.embeddings.model}
      from generate_series(${from}::int, ${to}::int) g,
      lateral (
        select array_agg(x / norm)::real[] as e
        from (select x, sqrt(sum(x * x) over ()) as norm
              from (select sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()) + 0 * g as x from generate_series(1, ${deps.embeddings.dimensions}::int)) gauss) scaled
      ) v`)
    return
  }
  const bodies = Array.from({ length: to - from + 1 }, () => syntheticText(8 + Math.floor(Math.random() * 18)))
  const vectors = await deps.embeddings.embed(bodies)
  const rows = bodies.map((body, i) => ({ g: from + i, body, e: `{${vectors[i]!.map((x) => Math.round(x * 1e6) / 1e6).join(',')}}` }))
  await deps.db.execute(sql`
    insert into persona_memory.memories (${columns})
    select ${t.ecosystemId}, ${owner}, 'bench-' || g, 'user', 'bench memory ' || g, r.body, 'tool', 50, r.e::real[], ${deps.embeddings.model}
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(g int, body text, e text)`)
}

/**
 * recall@10 of the service's search (HNSW) against an exact scan of the same rows, for random
 * query texts; and whether the planner picked the index for the service's query.
 */
async function hnswQuality(deps: Deps, tenant: Tenant, personaId: string, queries: number) {
  const db = deps.db
  let found = 0
  let usesIndex = false
  for (let i = 0; i < queries; i++) {
    const query = randomQuery()
    const approximate = (await recall(deps, tenant, { personaId, query, limit: 10 })).memories.map((m) => m.id)
    const [vector] = await deps.embeddings.embed([query])
    const q = sql`${realArray(vector!)}::vector`
    const exact = await db.transaction(async (tx) => {
      await tx.execute(sql.raw('set local enable_indexscan = off'))
      return queryRows<{ id: string }>(
        tx,
        sql`select id from persona_memory.memories where persona_id = ${personaId} and status = 'active' and deleted_at is null order by embedding <=> ${q} limit 10`,
      )
    })
    const truth = new Set(exact.map((r) => r.id))
    found += approximate.filter((id) => truth.has(id)).length
    if (i === 0) {
      const plan = await queryRows<{ 'QUERY PLAN': string }>(
        db,
        sql`explain select id from persona_memory.memories where owner_id = ${tenant.ecosystemId} and persona_id = ${personaId} and status = 'active'
            and deleted_at is null and (customer_id = ${tenant.customerId} or customer_id is null) and embedding is not null order by embedding <=> ${q} limit 10`,
      )
      usesIndex = plan.some((line) => line['QUERY PLAN'].includes(HNSW_INDEX))
    }
  }
  return { recallAt10: found / (queries * 10), usesIndex }
}

function quantile(xs: number[], q: number): number {
  const sorted = xs.toSorted((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!
}

/** Markdown table rows for bench/README.md. */
export function memoryRecallTable(result: MemoryRecallResult): string {
  const rows = result.backends.flatMap((b) =>
    b.skipped
      ? [`| ${b.backend} | – | skipped: ${b.skipped} | | | | | |`]
      : b.sizes!.map(
          (r) =>
            `| ${b.backend} | ${r.search} | ${fmt(r.memories)} | ${r.p50Ms.toFixed(2)} | ${r.p95Ms.toFixed(2)} | ${r.requests} | ` +
            `${r.recallAt10 === undefined ? 'exact' : r.recallAt10.toFixed(3)} | ${r.indexBuildSec === undefined ? '' : r.indexBuildSec.toFixed(1)} |`,
        ),
  )
  return markdownTable(
    '| database | search | memories | recall p50 ms | p95 ms | recalls | recall@10 | HNSW build s |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    rows,
  )
}

export function parseArgs(argv: string[]): MemoryRecallOptions {
  const { flags, opts } = benchArgs<MemoryRecallOptions>(argv, { requests: 'requests', queries: 'queries', budget: 'budgetSec' })
  if (flags.has('sizes')) opts.sizes = flags.get('sizes')!.split(',').map(Number)
  const data = flags.get('data')
  if (data === 'text' || data === 'random') opts.data = data
  if (flags.has('shared-buffers')) opts.sharedBuffers = flags.get('shared-buffers')
  return opts
}

export const command: BenchCommand<MemoryRecallResult> = { name: 'memory-recall', run: (argv) => benchMemoryRecall(parseArgs(argv)), table: memoryRecallTable }

if (import.meta.main) await benchMain(command)
