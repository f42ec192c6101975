/**
 * Issue 24: hostile input at scale, in-process through `app.handle` (the app as boot builds it), on
 * embedded PGlite and on PostgreSQL. Not part of `npm test`. Two phases per database:
 *
 * 1. lists: every table-derived list (data, userdata, community) and a contract's rows, as
 *    ecosystem admin and as customer (what tests/security/authenticated-fuzz.test.ts does, at
 *    scale): Object.prototype names as filter and sort keys, lone surrogates, `in.(` unclosed,
 *    10,000-character values, %00, absurd paging, plus seeded random mixes of those; row bodies
 *    with every field mutated, prototype and surrogate keys, deep nesting; garbage row ids.
 * 2. operations: every operation of the app's own `/openapi/json` (the event stream apart): path
 *    parameters as garbage, a uuid of nothing, the caller's own ids and another tenant's; query
 *    parameters as garbage; a valid-shaped body (built from the operation's schema) with each
 *    field replaced by a wrong type, a huge or empty string, null, nested arrays and objects,
 *    out-of-range numbers, NUL, a lone surrogate (as a JSON escape), `__proto__` / `constructor`,
 *    100-deep nesting; malformed Authorization, X-Ecosystem-Id and Content-Type headers. Each
 *    with no credential, the owner's account token (with and without X-Ecosystem-Id, and with
 *    another tenant's), an `eco_` API token and a customer token.
 *
 * A seeded PRNG (`--seed=`) picks the random mixes, so a run sends the same inputs again (ids the
 * server generates apart). Only counts are kept, and the first examples of each distinct 5xx (with
 * the server's own log line for it). Exit 1 when any answer is ≥ 500 or fewer than
 * `--min-requests` (25,000) were sent on a database.
 *
 *   npx bun bench/fuzz.ts [--db=pglite,postgres] [--seed=24] [--list-random=9000] [--min-requests=25000]
 *   npm run bench -- fuzz
 *
 * FUZZ_DEBUG=1 also prints which setup creations the generic valid-body guess could not make.
 *
 * Databases: PGlite, plus PostgreSQL when TEST_DATABASE_URL or BENCH_PG_URL is set (its server
 * holds a throwaway database, dropped afterwards); `--db=` chooses explicitly.
 */
import { fuzzApp } from './fuzz/app'
import { lists } from './fuzz/lists'
import { operations } from './fuzz/operations'
import { type Finding, FuzzSession, type Tally } from './fuzz/session'
import { fillOwn, Tenants } from './fuzz/tenants'
import { mulberry32 } from './fuzz/values'
import {
  type Backend,
  benchArgs,
  type BenchCommand,
  cleanup,
  fmt,
  hookSignals,
  markdownTable,
  PG_ADMIN_URL,
  postgresAvailable,
  printResult,
  type RunInfo,
  runInfo,
} from './support'

export const MIN_REQUESTS = 25_000

export interface FuzzOptions {
  backends?: Backend[]
  seed?: number
  /** Random list queries and row requests in phase 1, over all targets and both actors. */
  listRandom?: number
  minRequests?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  durationSec?: number
  operations?: number
  phases?: Record<string, Tally>
  total?: Tally
  findings?: Finding[]
  /** 4xx answers outside the `{ error: { code, message } }` shape, by operation and status: count and an example. */
  notErrorShape?: Record<string, { count: number; example: string }>
  /** How deep the run got: operations whose own-id path could not be filled, and those never answered 2xx. */
  coverage?: { ownPathUnknown: string[]; never2xx: string[] }
}
export interface FuzzResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  seed: number
  minRequests: number
  backends: BackendResult[]
}

export async function benchFuzz(options: FuzzOptions = {}): Promise<FuzzResult> {
  const seed = options.seed ?? 24
  const minRequests = options.minRequests ?? MIN_REQUESTS
  const listRandom = options.listRandom ?? 9_000
  const log = (line: string) => console.error(line)
  const wanted = options.backends ?? (process.env.TEST_DATABASE_URL || process.env.BENCH_PG_URL ? ['pglite', 'postgres'] : ['pglite'])
  const results: BackendResult[] = []
  for (const backend of wanted) {
    if (backend === 'postgres' && !(await postgresAvailable())) {
      log(`  postgres: skipped (no PostgreSQL at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`)
      results.push({ backend, skipped: 'PostgreSQL not reachable' })
      continue
    }
    try {
      results.push(await fuzzOne(backend, seed, listRandom, log))
    } catch (err) {
      log(`  ${backend}: FAILED: ${(err as Error).stack ?? err}`)
      results.push({ backend, error: (err as Error).message })
    }
  }
  const measured = results.filter((b) => b.total)
  const fivexx = measured.reduce((n, b) => n + b.total!.classes['5xx'] + b.total!.classes.timeout, 0)
  const enough = measured.length > 0 && measured.every((b) => b.total!.requests >= minRequests)
  const failed = fivexx > 0 || !enough || results.some((b) => b.error)
  return { pass: !failed, failed, run: runInfo(), seed, minRequests, backends: results }
}

async function fuzzOne(backend: Backend, seed: number, listRandom: number, log: (line: string) => void): Promise<BackendResult> {
  const started = performance.now()
  const server = await fuzzApp(backend)
  try {
    const session = new FuzzSession(backend, mulberry32(seed), log, server)
    const tenants = await Tenants.create(session)
    await lists(session, tenants, listRandom)
    const ops = await operations(session, tenants)

    const total = session.total()
    const durationSec = (performance.now() - started) / 1000
    log(`  ${backend}: ${fmt(total.requests)} requests in ${durationSec.toFixed(0)} s, 5xx: ${total.classes['5xx']}, timeouts: ${total.classes.timeout}`)
    for (const f of session.findings.values()) log(`  ${backend}: 5xx ×${f.count}: ${f.key}\n    e.g. ${JSON.stringify(f.examples[0])}`)
    const coverage = {
      ownPathUnknown: ops.filter((op) => op.template.includes('{') && !fillOwn(op.template, tenants.a)).map((op) => `${op.method} ${op.template}`),
      never2xx: ops.map((op) => `${op.method} ${op.template}`).filter((k) => !session.answered2xx.has(k)),
    }
    log(
      `  ${backend}: own ids unknown for ${coverage.ownPathUnknown.length} operations, ${coverage.never2xx.length} of ${ops.length} operations never answered 2xx (see results file)`,
    )
    const { phases, findings, notErrorShape } = session
    return { backend, durationSec, operations: ops.length, phases, total, findings: [...findings.values()], notErrorShape, coverage }
  } finally {
    await server.close()
  }
}

export function fuzzTable(result: FuzzResult): string {
  const line = (label: string, t: Tally, duration = '') => {
    const c = t.classes
    return `| ${label} | ${fmt(t.requests)} | ${fmt(c['2xx'])} | ${fmt(c['3xx'])} | ${fmt(c['4xx'])} | ${c['5xx']} | ${c.timeout} | ${t.notErrorShape} | ${duration} |`
  }
  const rows = result.backends.flatMap((b) =>
    b.total
      ? [
          ...Object.entries(b.phases!).map(([name, t]) => line(`${b.backend}: ${name}`, t)),
          line(`**${b.backend}: all**`, b.total, `${b.durationSec!.toFixed(0)} s (${b.operations} operations)`),
        ]
      : [`| ${b.backend} | ${b.skipped ?? b.error} | | | | | | | |`],
  )
  const table = markdownTable(
    '| database: phase | requests | 2xx | 3xx | 4xx | 5xx | timeouts | 4xx not in error shape | duration |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|',
    rows,
  )
  const findings = result.backends.flatMap((b) =>
    (b.findings ?? []).map((f) => `- ${b.backend} ×${f.count}: ${f.key}\n  e.g. ${JSON.stringify(f.examples[0])}`),
  )
  const verdict = result.pass
    ? `0 responses ≥ 500, ≥ ${fmt(result.minRequests)} requests on each database: pass`
    : 'FAIL (a 5xx or timeout, too few requests, or a database that did not run)'
  return [table, '', `seed ${result.seed}. ${verdict}`, ...findings].join('\n')
}

export const command: BenchCommand<FuzzResult> = {
  name: 'fuzz',
  run: (argv) => benchFuzz(benchArgs<FuzzOptions>(argv, { seed: 'seed', 'list-random': 'listRandom', 'min-requests': 'minRequests' }).opts),
  table: fuzzTable,
}

if (import.meta.main) {
  hookSignals()
  const result = await command.run(process.argv.slice(2))
  printResult(command, result)
  await cleanup()
  process.exit(result.pass ? 0 : 1)
}
