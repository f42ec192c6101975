/**
 * Shared pieces for the benches in bench/: a real server child process, wrk runs with parsed
 * figures, and a throwaway PostgreSQL database. Everything here is loopback-only and bounded in
 * time; whatever a bench starts is stopped by `cleanup()` (also on SIGINT/SIGTERM and on exit).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { type SQL, sql } from 'drizzle-orm'
import postgres from 'postgres'
import { createApp } from '../src/app'
import { buildDeps, prepareDatabase } from '../src/boot'
import { loadConfig } from '../src/config'
import type { Deps } from '../src/deps'
import { openPglite, openPostgres, pgliteDir, type Database } from '../src/platform/db'
import { createLogger } from '../src/platform/logger'

export const ROOT = resolve(import.meta.dir, '..')
export const LOOPBACK = '127.0.0.1'

// ---------------------------------------------------------------------------------------------
// cleanup registry

const cleanups = new Set<() => Promise<void> | void>()

/** Registers a cleanup step; the returned function runs it once and unregisters it. */
export function onCleanup(fn: () => Promise<void> | void): () => Promise<void> {
  let done = false
  const once = async () => {
    if (done) return
    done = true
    cleanups.delete(once)
    await fn()
  }
  cleanups.add(once)
  return once
}

/** Runs every registered cleanup step (newest first). */
export async function cleanup(): Promise<void> {
  for (const fn of [...cleanups].reverse()) {
    try {
      await fn()
    } catch (err) {
      console.error('bench cleanup:', (err as Error).message)
    }
  }
}

let signalsHooked = false
/** Makes Ctrl-C and SIGTERM stop children and drop temp databases before exiting. */
export function hookSignals(): void {
  if (signalsHooked) return
  signalsHooked = true
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, async () => {
      console.error(`\nbench: ${sig}, cleaning up`)
      await cleanup()
      process.exit(130)
    })
  }
}

// ---------------------------------------------------------------------------------------------
// small utilities

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

export function freePort(): number {
  const probe = Bun.serve({ hostname: LOOPBACK, port: 0, fetch: () => new Response() })
  const port = probe.port!
  probe.stop(true)
  return port
}

export function fmt(n: number, digits = 0): string {
  return n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** The value below which a share `p` (0–1) of the samples fall (nearest rank). */
export function percentile(xs: number[], p: number): number {
  const sorted = [...xs].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

export const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

// Made-up words for synthetic texts, most frequent first: word i of any vocabulary size is the same.
const SYLLABLES = 'ka lo mi ne ru sa ti vo ze pa qu ri sho tan bel dor fin gal hum jor'.split(' ')
export const vocabulary = (size: number): string[] =>
  Array.from({ length: size }, (_, i) => {
    let word = ''
    for (let x = i + SYLLABLES.length; x > 0; x = Math.floor(x / SYLLABLES.length)) word += SYLLABLES[x % SYLLABLES.length]
    return word
  })

/**
 * A word's index (0 = most frequent) drawn Zipf-like, as words of real text are: P(index i) ∝ about
 * 1/(i + 1). `zipfWordSql` draws the same way in SQL.
 */
export const zipfIndex = (size: number, random: () => number = Math.random) => Math.min(size - 1, Math.floor(Math.exp(random() * Math.log(size))) - 1)

/**
 * SQL for one word of `vocabulary(size)` drawn like `zipfIndex`, spelled from its syllables (an
 * array subscript into a text[] of 20,000 words walks the array: 50× slower). `row` must be a
 * column of the row being generated, so that PostgreSQL draws anew for each row.
 */
export function zipfWordSql(size: number, row: SQL): SQL {
  const n = SYLLABLES.length
  if (size + n > n ** 4) throw new Error(`zipfWordSql: at most ${n ** 4 - n} words`)
  const syllable = (div: number) => sql.raw(`('{${SYLLABLES.join(',')}}'::text[])[1 + x / ${div} % ${n}]`)
  return sql`(select ${syllable(1)} || ${syllable(n)} || case when x >= ${sql.raw(String(n ** 2))} then ${syllable(n ** 2)} else '' end
      || case when x >= ${sql.raw(String(n ** 3))} then ${syllable(n ** 3)} else '' end
    from (select least(${sql.raw(String(size))}, floor(exp(random() * ln(${sql.raw(String(size))})) + 0 * ${row})::int) + ${sql.raw(String(n - 1))} as x) w)`
}

/** Runs `fn` `count` times (after a few warm-up runs) or until `budgetSec` is spent, at least 10; milliseconds each. */
export async function timeRequests(fn: () => Promise<void>, count: number, budgetSec: number): Promise<number[]> {
  for (let i = 0; i < 3; i++) await fn()
  const times: number[] = []
  const deadline = performance.now() + budgetSec * 1000
  while (times.length < count && (times.length < 10 || performance.now() < deadline)) {
    const t0 = performance.now()
    await fn()
    times.push(performance.now() - t0)
  }
  return times
}

/** Writes `data` as JSON to bench/results/<name>.json (git-ignored) and returns the path. */
export function saveResult(name: string, data: unknown): string {
  const dir = join(ROOT, 'bench', 'results')
  mkdirSync(dir, { recursive: true })
  const file = join(dir, `${name}.json`)
  writeFileSync(file, JSON.stringify(data, null, 2) + '\n')
  return file
}

// ---------------------------------------------------------------------------------------------
// the server under test

export interface ServerOptions {
  /** PostgreSQL URL; omitted: embedded PGlite in a fresh temp DATA_DIR. */
  databaseUrl?: string
  /** Extra environment (wins over the defaults below). */
  env?: Record<string, string>
  /** Extra arguments for bun before the entry file, e.g. ['--cpu-prof-md', '--cpu-prof-dir=…']. */
  bunArgs?: string[]
  /** How long to wait for GET /health to answer 200 (PGlite initdb takes a few seconds). */
  bootTimeoutMs?: number
  label?: string
  /** Checkout to run `src/index.ts` from (default: BENCH_ROOT, else this repository), for A/B runs. */
  root?: string
  /** An existing DATA_DIR to reuse (kept on stop), e.g. to measure a restart. */
  dataDir?: string
}

export interface Server {
  url: string
  /** PostgreSQL database name when DATABASE_URL was given. */
  database?: string
  port: number
  pid: number
  dataDir: string
  logFile: string
  /** Milliseconds from spawn to the first 200 from /health. */
  bootMs: number
  /** The last lines the server printed (for error messages). */
  logTail(lines?: number): string
  stop(): Promise<void>
}

/**
 * Starts `bun src/index.ts` as a child process on a free loopback port with a temp DATA_DIR,
 * LOG_LEVEL=warn and JOBS=off, and waits until /health answers 200.
 */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const port = freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-bench-'))
  const logFile = join(dataDir, 'server.log')
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: LOOPBACK,
    DATA_DIR: options.dataDir ?? join(dataDir, 'data'),
    LOG_LEVEL: 'warn',
    JOBS: 'off',
    ...options.env,
  }
  delete env.DATABASE_URL
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl

  const started = performance.now()
  const child = Bun.spawn([process.execPath, ...(options.bunArgs ?? []), 'src/index.ts'], {
    cwd: options.root ?? process.env.BENCH_ROOT ?? ROOT,
    env,
    stdin: 'ignore',
    stdout: Bun.file(logFile),
    stderr: Bun.file(join(dataDir, 'server.err')),
  })
  const logTail = (lines = 20) => {
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '')
    const text = read(logFile) + read(join(dataDir, 'server.err'))
    return text.trimEnd().split('\n').slice(-lines).join('\n')
  }

  const stop = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const exited = await Promise.race([child.exited.then(() => true), sleep(10_000).then(() => false)])
      if (!exited) {
        child.kill('SIGKILL')
        await child.exited
      }
    }
    if (!process.env.BENCH_KEEP_TMP) rmSync(dataDir, { recursive: true, force: true })
  })

  const url = `http://${LOOPBACK}:${port}`
  const deadline = started + (options.bootTimeoutMs ?? 60_000)
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = logTail()
      await stop()
      throw new Error(`server${options.label ? ` (${options.label})` : ''} exited during boot:\n${tail}`)
    }
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) })
      await res.arrayBuffer()
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      const tail = logTail()
      await stop()
      throw new Error(`server${options.label ? ` (${options.label})` : ''} not healthy after ${options.bootTimeoutMs ?? 60_000} ms:\n${tail}`)
    }
    await sleep(50)
  }
  const database = options.databaseUrl ? decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1)) : undefined
  return { url, database, port, pid: child.pid, dataDir, logFile, bootMs: performance.now() - started, logTail, stop }
}

/**
 * Server environment for benches that sign in at full speed from one address: the login limits
 * (LoginLimiter: attempts per client address, failures per e-mail) set out of reach, so they
 * never turn a measurement into 429s.
 */
export const NO_LOGIN_LIMITS = { LOGIN_MAX_ATTEMPTS_PER_IP: '1000000000', LOGIN_MAX_FAILURES_PER_EMAIL: '1000000000' }

/** Registers an account with POST /auth/register and returns `{ token, refreshToken, user }`. */
export async function registerUser(
  baseUrl: string,
  input: { email?: string; password?: string; name?: string } = {},
): Promise<{ token: string; refreshToken: string; user: { id: string; email: string }; email: string; password: string }> {
  const email = input.email ?? `bench-${crypto.randomUUID().slice(0, 8)}@example.com`
  const password = input.password ?? `bench-${crypto.randomUUID()}`
  const res = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name: input.name ?? 'Bench User' }),
    signal: AbortSignal.timeout(30_000),
  })
  const body = (await res.json()) as { token: string; refreshToken: string; user: { id: string; email: string } }
  if (res.status !== 201 || !body.token) throw new Error(`POST /auth/register answered ${res.status}: ${JSON.stringify(body)}`)
  return { ...body, email, password }
}

/** One request, checked: throws unless the status is `expect`. */
export async function expectStatus(url: string, init: RequestInit, expect: number): Promise<unknown> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
  const text = await res.text()
  if (res.status !== expect) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status} (expected ${expect}): ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : undefined
}

// ---------------------------------------------------------------------------------------------
// wrk

export interface WrkOptions {
  url: string
  threads?: number
  connections?: number
  durationSec?: number
  headers?: Record<string, string>
  /** A wrk Lua script (method, body, …). */
  script?: string
  /** Arguments for the script's init(args), passed after `--`. */
  scriptArgs?: string[]
  timeoutSec?: number
  /** Return non-2xx responses and socket errors instead of throwing: the caller counts them (`statuses`). */
  reportErrors?: boolean
}

export interface WrkResult {
  url: string
  requests: number
  seconds: number
  rps: number
  latencyMs: { avg: number; stdev: number; max: number; p50: number; p75: number; p90: number; p99: number }
  non2xx: number
  socketErrors: { connect: number; read: number; write: number; timeout: number }
  /** Responses by HTTP status, when the script prints them (bench/wrk-pool.lua). */
  statuses?: Record<string, number>
  /** Requests bench/wrk-pool.lua sent with no body left in its pool (chains that ended early). */
  starved?: number
  /** CPU time wrk itself used, ms (it shares the machine with the server). */
  wrkCpuMs?: number
  raw: string
}

export function hasWrk(): boolean {
  return Bun.which('wrk') !== null
}

export function requireWrk(): void {
  if (!hasWrk()) throw new Error('wrk not found: install it with `apt-get install -y wrk` (Debian package)')
}

const toMs = (value: string, unit: string) => {
  const v = Number(value)
  switch (unit) {
    case 'us':
      return v / 1000
    case 'ms':
      return v
    case 's':
      return v * 1000
    case 'm':
      return v * 60_000
    default:
      throw new Error(`wrk: unknown time unit ${unit}`)
  }
}
const UNIT_COUNT: Record<string, number> = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9 }

/** Parses wrk's text report (run with --latency). */
export function parseWrk(raw: string, url = ''): WrkResult {
  const time = (re: RegExp) => {
    const m = re.exec(raw)
    return m ? toMs(m[1]!, m[2]!) : NaN
  }
  const done = /(\d+) requests in ([\d.]+)(us|ms|s|m),/.exec(raw)
  const rps = /Requests\/sec:\s+([\d.]+)([kKMG]?)/.exec(raw)
  if (!done || !rps) throw new Error(`cannot parse wrk output:\n${raw}`)
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(raw)
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(raw)
  const lat = /Latency\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)\s+([\d.]+)(us|ms|s|m)/.exec(raw)
  const statuses = [...raw.matchAll(/^status (\d{3}) (\d+)$/gm)]
  const starved = /^starved (\d+)$/m.exec(raw)
  return {
    url,
    requests: Number(done[1]),
    seconds: toMs(done[2]!, done[3]!) / 1000,
    rps: Number(rps[1]) * UNIT_COUNT[rps[2] ?? '']!,
    latencyMs: {
      avg: lat ? toMs(lat[1]!, lat[2]!) : NaN,
      stdev: lat ? toMs(lat[3]!, lat[4]!) : NaN,
      max: lat ? toMs(lat[5]!, lat[6]!) : NaN,
      p50: time(/^\s+50%\s+([\d.]+)(us|ms|s|m)/m),
      p75: time(/^\s+75%\s+([\d.]+)(us|ms|s|m)/m),
      p90: time(/^\s+90%\s+([\d.]+)(us|ms|s|m)/m),
      p99: time(/^\s+99%\s+([\d.]+)(us|ms|s|m)/m),
    },
    non2xx: non2xx ? Number(non2xx[1]) : 0,
    socketErrors: sock
      ? { connect: Number(sock[1]), read: Number(sock[2]), write: Number(sock[3]), timeout: Number(sock[4]) }
      : { connect: 0, read: 0, write: 0, timeout: 0 },
    ...(statuses.length ? { statuses: Object.fromEntries(statuses.map((m) => [m[1]!, Number(m[2])])) } : {}),
    ...(starved ? { starved: Number(starved[1]) } : {}),
    raw,
  }
}

/**
 * Runs wrk against a loopback URL and returns its parsed figures. Throws when any response was
 * not 2xx/3xx or a socket error occurred (a fast 401 must never pass for throughput), unless
 * `reportErrors` is set.
 */
export async function wrk(options: WrkOptions): Promise<WrkResult> {
  requireWrk()
  const u = new URL(options.url)
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname) && !u.hostname.startsWith('127.')) {
    throw new Error(`wrk: refusing a non-loopback target ${options.url}`)
  }
  const duration = options.durationSec ?? 5
  const args = [
    'wrk',
    `-t${options.threads ?? 2}`,
    `-c${options.connections ?? 50}`,
    `-d${duration}s`,
    `--timeout`,
    `${options.timeoutSec ?? 5}s`,
    '--latency',
  ]
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}: ${v}`)
  if (options.script) args.push('-s', options.script)
  args.push(options.url)
  if (options.scriptArgs) args.push('--', ...options.scriptArgs)
  const proc = Bun.spawn(args, { stdout: 'pipe', stderr: 'pipe', stdin: 'ignore' })
  const stop = onCleanup(() => {
    if (proc.exitCode === null) proc.kill('SIGKILL')
  })
  const killer = setTimeout(() => proc.kill('SIGKILL'), (duration + 30) * 1000)
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  clearTimeout(killer)
  await stop()
  if (code !== 0) throw new Error(`wrk exited ${code}: ${err || out}`)
  const result = parseWrk(out, options.url)
  const usage = proc.resourceUsage()
  if (usage) result.wrkCpuMs = Number(usage.cpuTime.user + usage.cpuTime.system) / 1000
  const s = result.socketErrors
  if (!options.reportErrors && (result.non2xx > 0 || s.connect + s.read + s.write + s.timeout > 0)) {
    throw new Error(`wrk ${options.url}: ${result.non2xx} non-2xx responses, socket errors ${JSON.stringify(s)}\n${out}`)
  }
  return result
}

/**
 * wrk options that POST `bodies` through bench/wrk-pool.lua (set the content-type header): sent
 * round-robin, or with `chain` each body once, followed by `chain.next` with `%s` replaced by what
 * `chain.pattern` (a Lua pattern) captures from its 200 response — one refresh-token chain per
 * body. Errors are reported, not thrown: measure through `wrkWithCpu` and read the run with `poolRound`.
 */
export function poolRequests(
  bodies: string[],
  threads: number,
  chain?: { pattern: string; next: string },
): Pick<WrkOptions, 'threads' | 'script' | 'scriptArgs' | 'reportErrors'> {
  if (bodies.some((b) => b.includes('\n'))) throw new Error('wrk-pool: a body must fit on one line')
  const dir = mkdtempSync(join(tmpdir(), 'ecobase-wrk-'))
  onCleanup(() => rmSync(dir, { recursive: true, force: true }))
  const file = join(dir, 'bodies')
  writeFileSync(file, bodies.join('\n') + '\n')
  return {
    threads,
    script: join(ROOT, 'bench', 'wrk-pool.lua'),
    scriptArgs: [String(threads), file, ...(chain ? [chain.pattern, chain.next] : [])],
    reportErrors: true,
  }
}

/** How a bench loads one route, so that bench/profile.ts can drive it the same way. */
export interface RouteLoad {
  method: string
  /** Extra server environment the load needs. */
  env?: Record<string, string>
  /** Prepares `server` (accounts, clients…) and returns a maker of wrk options, called once per run. */
  prepare(server: Server): Promise<() => Promise<WrkOptions>>
}

/** One measured `poolRequests` run (through `wrkWithCpu`): only 200s count as successes. */
export interface PoolRound {
  /** 200 responses per second of the run. */
  okPerSec: number
  /** Every other outcome by HTTP status or socket-error kind, and `starved` requests. */
  other: Record<string, number>
  p50Ms: number
  p99Ms: number
  /** Server process CPU per request (all threads), µs. */
  serverCpuUs: number
  /** PostgreSQL backends' CPU per request, µs (PostgreSQL runs only). */
  postgresCpuUs?: number
  foreignPct?: number
}

export function poolRound(result: WrkResult & { cpu: CpuCost }): PoolRound {
  if (!result.statuses) throw new Error(`wrk: no status counts in the output (not a bench/wrk-pool.lua run?):\n${result.raw}`)
  const other: Record<string, number> = {}
  for (const [status, n] of Object.entries(result.statuses)) if (status !== '200') other[status] = n
  for (const [kind, n] of Object.entries(result.socketErrors)) if (n > 0) other[kind] = n
  if (result.starved) other.starved = result.starved
  return {
    okPerSec: (result.statuses['200'] ?? 0) / result.seconds,
    other,
    p50Ms: result.latencyMs.p50,
    p99Ms: result.latencyMs.p99,
    serverCpuUs: result.cpu.serverUsPerReq,
    postgresCpuUs: result.cpu.postgresUsPerReq,
    foreignPct: result.cpu.foreignPct,
  }
}

/** The summed `other` outcomes of some rounds as text: `401 ×3, timeout ×1`, or `none`. */
export function outcomeText(...others: Record<string, number>[]): string {
  const total: Record<string, number> = {}
  for (const other of others) for (const [k, n] of Object.entries(other)) total[k] = (total[k] ?? 0) + n
  return (
    Object.entries(total)
      .map(([k, n]) => `${k} ×${n}`)
      .join(', ') || 'none'
  )
}

/** `min–max` of some figures, formatted like `fmt`. */
export const rangeText = (xs: number[], digits = 0) => `${fmt(Math.min(...xs), digits)}–${fmt(Math.max(...xs), digits)}`

// ---------------------------------------------------------------------------------------------
// throwaway PostgreSQL database

/** The server that holds throwaway databases; BENCH_PG_URL overrides it. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL ?? `postgres://postgres@${LOOPBACK}:5432/postgres`

export interface TempDatabase {
  name: string
  url: string
  drop(): Promise<void>
}

/** Whether PostgreSQL answers at PG_ADMIN_URL (false instead of throwing). */
export async function postgresAvailable(): Promise<boolean> {
  const sql = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} })
  try {
    await sql`select 1`
    return true
  } catch {
    return false
  } finally {
    await sql.end({ timeout: 2 })
  }
}

/** Creates `ecobase_bench_<pid>_<n>` on the admin server; `drop()` (or cleanup()) removes it. */
let tempDbCount = 0
export async function createTempDatabase(): Promise<TempDatabase> {
  const name = `ecobase_bench_${process.pid}_${++tempDbCount}`
  const admin = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => {} })
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.unsafe(`create database ${name}`)
  } finally {
    await admin.end({ timeout: 5 })
  }
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  const drop = onCleanup(async () => {
    const sql = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => {} })
    try {
      await sql.unsafe(`drop database if exists ${name} with (force)`)
    } finally {
      await sql.end({ timeout: 5 })
    }
  })
  return { name, url: url.toString(), drop }
}

// ---------------------------------------------------------------------------------------------
// backends

export type Backend = 'pglite' | 'postgres'

/** One backend's part of a bench result: measured, or skipped (no PostgreSQL), or failed. */
export interface BackendOutcome {
  backend: Backend
  skipped?: string
  error?: string
}

/** Latency of one kind of request: percentiles in ms and what it found. */
export interface LatencyRow {
  query: string
  p50Ms: number
  p95Ms: number
  total: number
}

/** Times `request` (see `timeRequests`) and returns its percentiles and the `total` it last answered. */
export async function latencyRow(query: string, request: () => Promise<{ total: number }>, count: number, budgetSec = 30): Promise<LatencyRow> {
  let total = 0
  const times = await timeRequests(async () => {
    total = (await request()).total
  }, count, budgetSec)
  return { query, p50Ms: percentile(times, 0.5), p95Ms: percentile(times, 0.95), total }
}
export const BACKENDS: Backend[] = ['pglite', 'postgres']

/**
 * Starts a server on `backend` (a throwaway database for PostgreSQL), runs `fn`, and always stops
 * the server and drops the database afterwards.
 */
export async function withServer<T>(backend: Backend, fn: (server: Server) => Promise<T>, options: ServerOptions = {}): Promise<T> {
  const db = backend === 'postgres' ? await createTempDatabase() : undefined
  try {
    const server = await startServer({ ...options, databaseUrl: db?.url, label: backend })
    try {
      return await fn(server)
    } finally {
      await server.stop()
    }
  } finally {
    await db?.drop()
  }
}

/**
 * Runs `measure` on each backend in turn. PostgreSQL is skipped (and said so) when it does not
 * answer; with `catchErrors`, a backend that fails is logged and recorded as `{ backend, error }`.
 */
export async function eachBackend<R extends { backend: Backend; skipped?: string; error?: string }>(
  backends: Backend[],
  log: (line: string) => void,
  measure: (backend: Backend) => Promise<R>,
  options: { catchErrors?: boolean } = {},
): Promise<R[]> {
  const results: R[] = []
  for (const backend of backends) {
    if (backend === 'postgres' && !(await postgresAvailable())) {
      log(`  ${backend}: skipped (no PostgreSQL at ${PG_ADMIN_URL.replace(/\/\/[^@]*@/, '//')})`)
      results.push({ backend, skipped: 'PostgreSQL not reachable' } as R)
      continue
    }
    try {
      results.push(await measure(backend))
    } catch (err) {
      if (!options.catchErrors) throw err
      log(`  ${backend}: FAILED: ${(err as Error).message}`)
      results.push({ backend, error: (err as Error).message } as R)
    }
  }
  return results
}

/** When, from which commit and on what machine a bench ran: the head of every results file. */
export interface RunInfo {
  at: string
  revision: ReturnType<typeof gitRevision>
  machine: ReturnType<typeof machineInfo>
}

export const runInfo = (root?: string): RunInfo => ({ at: new Date().toISOString(), revision: gitRevision(root), machine: machineInfo() })

/** The CPU and runtime this was measured on, for the results file. */
export function machineInfo() {
  const cpus = (() => {
    try {
      const text = readFileSync('/proc/cpuinfo', 'utf8')
      const model = /model name\s*:\s*(.*)/.exec(text)?.[1]
      return { model, count: (text.match(/^processor\s*:/gm) ?? []).length }
    } catch {
      return { model: undefined, count: navigator.hardwareConcurrency }
    }
  })()
  return { bun: Bun.version, cpu: cpus.model, cores: cpus.count, platform: `${process.platform}-${process.arch}` }
}

// ---------------------------------------------------------------------------------------------
// CPU accounting (Linux /proc)

const CLK_TCK = 100 // sysconf(_SC_CLK_TCK) on Linux x86-64

/** User + system CPU time of a process (all its threads) in ms; NaN when unreadable. */
export function cpuTimeMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK
  } catch {
    return NaN
  }
}

/** CPU time (ms) per pid of every process named `comm` whose command line contains `match`. */
export function cpuTimesByName(comm: string, match?: string): Map<number, number> {
  const out = new Map<number, number>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== comm) continue
      if (match && !readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(match)) continue
    } catch {
      continue
    }
    const ms = cpuTimeMs(Number(entry))
    if (!Number.isNaN(ms)) out.set(Number(entry), ms)
  }
  return out
}

/** CPU used between two `cpuTimesByName` snapshots (processes that exited in between are not counted). */
export function cpuDeltaMs(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0)
  return total
}

/** 1-minute load average, to flag runs disturbed by other work on the machine. */
export function loadAverage(): number {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0])
  } catch {
    return NaN
  }
}

export interface CpuCost {
  /** CPU of the server process (all threads) per completed request, µs. */
  serverUsPerReq: number
  /** CPU of the PostgreSQL backends serving the server's database per completed request, µs. */
  postgresUsPerReq?: number
  /**
   * Share of the machine's CPU capacity used during the run by anything but the server, wrk,
   * PostgreSQL (when measured) and this bench process: other people's tests, builds… Above ~10 %
   * the figures of that run are disturbed.
   */
  foreignPct?: number
}

/** Busy and total jiffies of the whole machine (/proc/stat). */
function machineJiffies(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!
    const v = line.trim().split(/\s+/).slice(1).map(Number)
    const idle = (v[3] ?? 0) + (v[4] ?? 0)
    const total = v.slice(0, 8).reduce((a, b) => a + b, 0)
    return { busy: total - idle, total }
  } catch {
    return null
  }
}

/** Runs wrk and also charges the server's (and optionally PostgreSQL's) CPU time to its requests. */
export async function wrkWithCpu(
  options: WrkOptions,
  serverPid: number,
  /** The PostgreSQL database the server uses: its backend processes' CPU is charged too. */
  postgresDb?: string,
): Promise<WrkResult & { cpu: CpuCost }> {
  // PostgreSQL backends show their database in the process title: "postgres: user db host(port) …"
  const pgMatch = postgresDb ? ` ${postgresDb} ` : undefined
  const m0 = machineJiffies()
  const self0 = process.cpuUsage()
  const s0 = cpuTimeMs(serverPid)
  const p0 = pgMatch ? cpuTimesByName('postgres', pgMatch) : new Map<number, number>()
  const result = await wrk(options)
  const s1 = cpuTimeMs(serverPid)
  const p1 = pgMatch ? cpuTimesByName('postgres', pgMatch) : new Map<number, number>()
  const self = process.cpuUsage(self0)
  const m1 = machineJiffies()
  const pgMs = cpuDeltaMs(p0, p1)
  const withPostgres = pgMatch !== undefined
  const per = (ms: number) => (ms * 1000) / result.requests
  let foreignPct: number | undefined
  if (m0 && m1 && result.wrkCpuMs !== undefined) {
    const busyMs = ((m1.busy - m0.busy) * 1000) / CLK_TCK
    const capacityMs = ((m1.total - m0.total) * 1000) / CLK_TCK
    const known = s1 - s0 + pgMs + result.wrkCpuMs + (self.user + self.system) / 1000
    foreignPct = capacityMs > 0 ? Math.max(0, (100 * (busyMs - known)) / capacityMs) : undefined
  }
  return {
    ...result,
    cpu: { serverUsPerReq: per(s1 - s0), ...(withPostgres ? { postgresUsPerReq: per(pgMs) } : {}), foreignPct },
  }
}

/** The commit the server ran from, and whether its src/ had uncommitted changes. */
export function gitRevision(root = process.env.BENCH_ROOT ?? ROOT): { commit: string | null; dirty: boolean | null } {
  const run = (args: string[]) => {
    const p = Bun.spawnSync(['git', '-C', root, ...args], { stdout: 'pipe', stderr: 'ignore' })
    return p.exitCode === 0 ? p.stdout.toString().trim() : null
  }
  const commit = run(['rev-parse', '--short', 'HEAD'])
  const status = commit === null ? null : run(['status', '--porcelain', '--', 'src', 'package.json', 'drizzle'])
  return { commit, dirty: status === null ? null : status.length > 0 }
}

/** A run during which other processes used more than this share of the machine is flagged, %. */
export const NOISY_PCT = 10

/**
 * Before each measured run, waits up to `seconds` for the machine to go quiet (other people's
 * builds and tests share it). Once a wait times out the machine is busy for a while: it calls
 * `onBusy` and stops waiting (the runs' `foreignPct` flags them). 0 seconds: never waits.
 */
export function quietGate(seconds: number, thresholdPct: number, onBusy: (busyPct: number, seconds: number) => void): () => Promise<void> {
  let waitSec = seconds
  return async () => {
    if (waitSec <= 0) return
    const busy = await waitForQuiet(waitSec * 1000, thresholdPct)
    if (busy >= thresholdPct) {
      onBusy(busy, waitSec)
      waitSec = 0
    }
  }
}

/** `quietGate` for a wrk bench's rounds on `backend`: says once that it stopped waiting. */
export const roundsGate = (backend: Backend, seconds: number, log: (line: string) => void) =>
  quietGate(seconds, NOISY_PCT, (busy, sec) =>
    log(`  ${backend.padEnd(8)} machine still ${busy.toFixed(0)}% busy after ${sec}s; measuring anyway, not waiting again`),
  )

/** A run's log-line suffix when other load disturbed it (`foreignPct` above NOISY_PCT), else ''. */
export const noisyText = (foreignPct?: number) => ((foreignPct ?? 0) > NOISY_PCT ? `, other load ${foreignPct!.toFixed(0)}%!` : '')

/**
 * Waits (at most `maxWaitMs`) until the machine is quiet: less than `thresholdPct` of its CPU busy
 * over a 1 s sample while nothing of ours runs. Returns the last sample's busy share, %.
 */
export async function waitForQuiet(maxWaitMs = 20_000, thresholdPct = 10): Promise<number> {
  const deadline = Date.now() + maxWaitMs
  let busyPct = NaN
  do {
    const a = machineJiffies()
    await sleep(1000)
    const b = machineJiffies()
    if (!a || !b) return NaN
    busyPct = (100 * (b.busy - a.busy)) / Math.max(1, b.total - a.total)
    if (busyPct < thresholdPct) return busyPct
  } while (Date.now() < deadline)
  return busyPct
}

// ---------------------------------------------------------------------------------------------
// in-process app: for benches that time a service path without HTTP, over a fresh database

export interface BenchApp {
  app: ReturnType<typeof createApp>
  deps: Deps
  database: Database
  /** An account owning one ecosystem, and a customer of it with a customer token. */
  owner: { token: string; ecosystemId: string; organizationId: string }
  customer: { customerId: string; token: string }
  /** A JSON request through `app.handle`; throws on any status ≥ 300. */
  call(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<any>
  close(): Promise<void>
}

/** The app as boot builds it, on PGlite (in memory unless `pgliteOnDisk`) or a throwaway PostgreSQL database. */
export async function inProcessApp(backend: Backend, options: { pgliteOnDisk?: boolean; env?: Record<string, string> } = {}): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-bench-app-'))
  const temp = backend === 'postgres' ? await createTempDatabase() : undefined
  // In memory, PGlite keeps its files (WAL included) in this process's memory; on disk, as `npm start` runs it.
  const database = temp ? await openPostgres(temp.url, { max: 10 }) : await openPglite(options.pgliteOnDisk ? { dataDir: pgliteDir(dataDir) } : {})
  const close = async () => {
    await database.close()
    await temp?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost', JOBS: 'off', ...options.env })
    await prepareDatabase(database, config, temp?.url)
    const deps = buildDeps(config, database, { logger: createLogger('silent') })
    const app = createApp(deps)
    // Enqueueing works; with JOBS=off nothing runs unless a bench starts its own workers.
    await deps.queue.start()
    const call: BenchApp['call'] = async (method, path, options = {}) => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.token) headers.authorization = `Bearer ${options.token}`
      if (options.body !== undefined) headers['content-type'] = 'application/json'
      const body = options.body === undefined ? undefined : JSON.stringify(options.body)
      const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
      const json = (await res.json()) as any
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
      return json
    }
    const account = await call('POST', '/auth/register', { body: { email: 'bench@example.com', password: 'bench-password-1', name: 'Bench' } })
    const org = await call('POST', '/registry/organizations', { token: account.token, body: { slug: 'bench', name: 'Bench' } })
    const asOwner = { token: account.token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
    const { customerId } = await call('POST', '/customer/resolve', { ...asOwner, body: { externalId: 'bench-customer' } })
    const { token } = await call('POST', '/customer/token', { ...asOwner, body: { customerId } })
    return {
      app,
      deps,
      database,
      owner: { token: account.token, ecosystemId: org.ecosystem.id, organizationId: org.organization.id },
      customer: { customerId, token },
      call,
      close: async () => {
        await deps.queue.stop(1000)
        await deps.rateLimits.close()
        await close()
      },
    }
  } catch (err) {
    await close()
    throw err
  }
}

// ---------------------------------------------------------------------------------------------
// command line

/** A bench as its own command line (`benchMain`) and bench/run.ts drive it. */
export interface BenchCommand<R extends { pass: boolean; failed?: boolean } = { pass: boolean; failed?: boolean }> {
  name: string
  /** Runs the bench with the options of `--key=value` arguments. */
  run(argv: string[]): Promise<R>
  /** Markdown table rows for bench/README.md. */
  table(result: R): string
  /** The bench/results/ file name, when not `name`. */
  file?(result: R): string
}

/** A bench's `import.meta.main`: runs it with this process's arguments, prints its table, writes its results, exits. */
export async function benchMain<R extends { pass: boolean; failed?: boolean }>(command: BenchCommand<R>): Promise<never> {
  hookSignals()
  printResult(command, await command.run(process.argv.slice(2)))
  await cleanup()
  process.exit(0)
}

/** Prints a bench's table and writes its results to bench/results/ (`saveResult`). */
export function printResult<R extends { pass: boolean; failed?: boolean }>(command: BenchCommand<R>, result: R): void {
  console.log('\n' + command.table(result))
  console.log(`results: ${saveResult(command.file?.(result) ?? command.name, result)}`)
}

/** A markdown table: its header row, its alignment row, then `rows`. */
export const markdownTable = (header: string, align: string, rows: string[]) => [header, align, ...rows].join('\n')

/** Sets `opts[key]` to the number given as `--flag=…` for each `flag: key` of `keys`. */
export function numberFlags<T extends object>(flags: Map<string, string>, opts: T, keys: Record<string, keyof T>): T {
  for (const [flag, key] of Object.entries(keys)) if (flags.has(flag)) (opts as Record<keyof T, number>)[key] = Number(flags.get(flag))
  return opts
}

/** `--key=value` arguments as a map (flags without a value are ignored). */
export function benchFlags(argv: string[]): Map<string, string> {
  const flags = new Map<string, string>()
  for (const arg of argv) {
    const [k, v] = arg.replace(/^--/, '').split('=') as [string, string | undefined]
    if (v !== undefined) flags.set(k, v)
  }
  return flags
}

/**
 * The options of a bench's command line: `--db=pglite,postgres` as `backends`, and the number
 * flags `keys` names (see `numberFlags`); `flags` for the bench's other flags.
 */
export function benchArgs<T extends { backends?: Backend[] }>(argv: string[], keys: Record<string, keyof T>): { flags: Map<string, string>; opts: T } {
  const flags = benchFlags(argv)
  const opts = {} as T
  if (flags.has('db')) opts.backends = backendsFlag(flags.get('db')!)
  return { flags, opts: numberFlags(flags, opts, keys) }
}

/** The number flags of the wrk benches (P1–P3), for `benchArgs`. */
export const WRK_FLAGS = {
  duration: 'durationSec',
  rounds: 'rounds',
  warmup: 'warmupSec',
  threads: 'threads',
  connections: 'connections',
  'quiet-wait': 'quietWaitSec',
} as const

/** The settings of a wrk bench's measured rounds (its WRK_FLAGS). */
export interface WrkSettings {
  /** Seconds per measured wrk run. */
  durationSec: number
  /** Measured runs (of each route or flow the bench alternates). */
  rounds: number
  /** Seconds of warm-up before measuring. */
  warmupSec: number
  threads: number
  connections: number
  /** Before each measured run, wait up to this many seconds for the machine to go quiet (0: don't). */
  quietWaitSec: number
}

/** `options` over the bench's `defaults`, else 2 threads × 50 connections and at most 10 s of waiting for a quiet machine. */
export function wrkSettings(options: Partial<WrkSettings>, defaults: Pick<WrkSettings, 'durationSec' | 'rounds' | 'warmupSec'>): WrkSettings {
  return {
    durationSec: options.durationSec ?? defaults.durationSec,
    rounds: options.rounds ?? defaults.rounds,
    warmupSec: options.warmupSec ?? defaults.warmupSec,
    threads: options.threads ?? 2,
    connections: options.connections ?? 50,
    quietWaitSec: options.quietWaitSec ?? 10,
  }
}

/** A comma-separated flag's values that are among `known`. */
export const listFlag = <T extends string>(value: string, known: readonly T[]): T[] => value.split(',').filter((x): x is T => (known as readonly string[]).includes(x))

/** `--db=pglite,postgres` as backends. */
export const backendsFlag = (value: string): Backend[] => listFlag(value, BACKENDS)
