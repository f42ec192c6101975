/**
 * P6 (community and content half): GET /search/threads, /search/replies, /search/documents and
 * /search/notes at 1M rows each, in-process through the real routes, on embedded PGlite and on
 * PostgreSQL. Texts are 8–40 words drawn Zipf-like from a 20,000-word vocabulary, as in bench/search.ts;
 * threads and replies belong to one ecosystem; blocks and notes to one customer (the hardest case
 * for a per-customer search). Queries: a rare word, a common word, two words, a phrase, an
 * exclusion, and a prefix being typed. Target: p95 ≤ 20 ms.
 *
 *   npx bun bench/search-box.ts [--db=pglite,postgres] [--rows=1000000] [--kinds=threads,replies,documents,notes] [--requests=100]
 */
import { type SQL, sql } from 'drizzle-orm'
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
  listFlag,
  markdownTable,
  type RunInfo,
  runInfo,
  vocabulary,
  zipfWordSql,
} from './support'

export const TARGET_P95_MS = 20
const KINDS = ['threads', 'replies', 'documents', 'notes'] as const
type Kind = (typeof KINDS)[number]
const VOCABULARY_SIZE = 20_000
const WORDS = vocabulary(VOCABULARY_SIZE)
const BATCH = 100_000

export interface SearchBoxOptions {
  backends?: Backend[]
  rows?: number
  kinds?: Kind[]
  requests?: number
}

interface Row extends LatencyRow {
  kind: Kind
}

interface BackendResult extends BackendOutcome {
  rows?: Row[]
  loadSec?: number
}

export interface SearchBoxResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  rows: number
  backends: BackendResult[]
}

const QUERIES: [string, string][] = [
  ['rare word', WORDS[15_000]!],
  ['common word', WORDS[3]!],
  ['two words', `${WORDS[40]} ${WORDS[400]}`],
  ['phrase', `"${WORDS[0]} ${WORDS[1]}"`],
  ['exclusion', `${WORDS[50]} -${WORDS[2]}`],
  ['prefix while typing', WORDS[300]!.slice(0, 4)],
]

export async function benchSearchBox(options: SearchBoxOptions = {}): Promise<SearchBoxResult> {
  const rowCount = options.rows ?? 1_000_000
  const kinds = options.kinds ?? [...KINDS]
  const requests = options.requests ?? 100
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const bench = await inProcessApp(backend)
    try {
      const db = bench.deps.db
      const eco = bench.owner.ecosystemId
      const customer = bench.customer.customerId
      const text = (min: number, span: number) =>
        sql`(select string_agg(${zipfWordSql(VOCABULARY_SIZE, sql`w.i`)}, ' ') from generate_series(1, ${min} + floor(random() * ${span})::int + 0 * g) w(i))`
      const started = performance.now()
      const thread = await bench.call('POST', '/community/threads', { token: bench.customer.token, body: { title: 'anchor' } })
      const { id: documentId } = await bench.call('POST', '/data/documents', { token: bench.customer.token, body: { title: 'Bench' } })
      const inserts: Record<Kind, (from: number, to: number) => SQL> = {
        threads: (from, to) => sql`insert into community.threads (owner_id, customer_id, category_id, title, body)
          select ${eco}::uuid, ${customer}::uuid, ${thread.categoryId}::uuid, ${text(3, 6)}, ${text(8, 32)} from generate_series(${from}::int, ${to}::int) g`,
        replies: (from, to) => sql`insert into community.replies (owner_id, customer_id, thread_id, body)
          select ${eco}::uuid, ${customer}::uuid, ${thread.id}::uuid, ${text(8, 32)} from generate_series(${from}::int, ${to}::int) g`,
        documents: (from, to) => sql`insert into data.document_blocks (owner_id, customer_id, document_id, block_type, position, content)
          select ${eco}::uuid, ${customer}::uuid, ${documentId}::uuid, 'paragraph', lpad(g::text, 8, '0'), ${text(8, 32)} from generate_series(${from}::int, ${to}::int) g`,
        notes: (from, to) => sql`insert into userdata.notes (owner_id, customer_id, title, body)
          select ${eco}::uuid, ${customer}::uuid, ${text(2, 4)}, ${text(8, 32)} from generate_series(${from}::int, ${to}::int) g`,
      }
      for (const kind of kinds) {
        for (let from = 1; from <= rowCount; from += BATCH) await db.execute(inserts[kind](from, Math.min(rowCount, from + BATCH - 1)))
        log(`  ${backend}: ${fmt(rowCount)} ${kind} loaded`)
      }
      await db.execute(sql`analyze`)
      const loadSec = (performance.now() - started) / 1000
      const rows: Row[] = []
      for (const kind of kinds) {
        for (const [label, q] of QUERIES) {
          const row = {
            kind,
            ...(await latencyRow(label, () => bench.call('GET', `/search/${kind}?q=${encodeURIComponent(q)}`, { token: bench.customer.token }), requests)),
          }
          rows.push(row)
          log(`  ${backend} ${kind} ${label} (${q}): p50 ${fmt(row.p50Ms, 1)} ms, p95 ${fmt(row.p95Ms, 1)} ms, ${fmt(row.total)} found`)
        }
      }
      return { backend, rows, loadSec }
    } finally {
      await bench.close()
    }
  })
  const pass = backends.every((b) => !b.rows || b.rows.every((r) => r.p95Ms <= TARGET_P95_MS))
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), rows: rowCount, backends }
}

export function searchBoxTable(result: SearchBoxResult): string {
  const lines = result.backends.flatMap((b) =>
    b.rows
      ? b.rows.map((r) => `| ${b.backend} | ${r.kind} | ${r.query} | ${fmt(r.total)} | ${fmt(r.p50Ms, 1)} ms | **${fmt(r.p95Ms, 1)} ms** |`)
      : [`| ${b.backend} | ${b.skipped ?? b.error} | | | | |`],
  )
  return markdownTable(
    `| database (${fmt(result.rows)} rows each) | search | query | found | p50 | p95 (≤ ${TARGET_P95_MS} ms) |`,
    '|---|---|---|---:|---:|---:|',
    lines,
  )
}

export const command: BenchCommand<SearchBoxResult> = {
  name: 'search-box',
  run: (argv) => {
    const { flags, opts } = benchArgs<SearchBoxOptions>(argv, { rows: 'rows', requests: 'requests' })
    const kinds = flags.get('kinds')
    return benchSearchBox({ ...opts, kinds: kinds ? listFlag(kinds, KINDS) : undefined })
  },
  table: searchBoxTable,
}

if (import.meta.main) await benchMain(command)
