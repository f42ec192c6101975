/**
 * P19: this checkout (head) against a base commit on the hot paths, in one run. The base is built
 * in a git worktree of its own (npm ci there); a server of each runs side by side on each
 * database, and every round measures each path on both, in alternating order, so that the
 * machine's drift (other people's tests on the shared 2-core machine) falls on both alike.
 * Prints head ÷ base per path (for latency, base ÷ head: above 1 is always "head is faster") and
 * names every path where head is below 0.9× its base; then exits 1.
 *
 *   npm run bench -- compare --base <commit> [--db=postgres,pglite] [--paths=me,login,…] [--rounds=3]
 *                            [--duration=4] [--samples=60] [--keep-base] [--quiet-wait=5]
 *
 * Paths: me (P1 GET /auth/me), login (P2 sign-in, argon2id, 50 connections), refresh-account and
 * refresh-oauth (P3 rotations), chat (P4 first token through POST …/messages, p50), relay (P4 a
 * 2,000-token reply the upstream sends at once, tokens per second relayed), list (P9 a derived list
 * with a filter and a sort), presign (POST /storage/uploads).
 */
import { existsSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Backend,
  BACKENDS,
  backendsFlag,
  benchFlags,
  cleanup,
  createTempDatabase,
  customerOf,
  eachBackend,
  expectStatus,
  fmt,
  hookSignals,
  markdownTable,
  median,
  NO_LOGIN_LIMITS,
  noisyText,
  onCleanup,
  poolRequests,
  registerUser,
  requireWrk,
  ROOT,
  roundsGate,
  runInfo,
  type RunInfo,
  saveResult,
  type Server,
  startServer,
  type WrkOptions,
  type WrkResult,
  wrkWithCpu,
} from './support'
import { flowSpecs, rotations } from './refresh'
import { relayRate, startUpstream, timeStream } from './chat-latency'

/** A head below this share of its base on a path is named (bench/README.md, P19). */
export const THRESHOLD = 0.9

export const PATHS = ['me', 'login', 'refresh-account', 'refresh-oauth', 'chat', 'relay', 'list', 'presign'] as const
export type PathId = (typeof PATHS)[number]

const WHAT: Record<PathId, { label: string; unit: string; latency?: true }> = {
  me: { label: 'P1 GET /auth/me', unit: 'req/s' },
  login: { label: 'P2 POST /auth/login (argon2id)', unit: 'sign-ins/s' },
  'refresh-account': { label: 'P3 POST /auth/refresh', unit: 'rotations/s' },
  'refresh-oauth': { label: 'P3 OAuth refresh_token grant', unit: 'rotations/s' },
  chat: { label: 'P4 chat first token, p50', unit: 'ms', latency: true },
  relay: { label: 'P4 chat reply of 2,000 tokens at once, relayed', unit: 'tokens/s' },
  list: { label: 'P9 GET /userdata/notes?filter&sort', unit: 'req/s' },
  presign: { label: 'POST /storage/uploads (presign)', unit: 'req/s' },
}

export interface CompareOptions {
  base: string
  backends?: Backend[]
  paths?: PathId[]
  rounds?: number
  durationSec?: number
  /** First-token samples per side and round (chat). */
  samples?: number
  keepBase?: boolean
  quietWaitSec?: number
  log?: (line: string) => void
}

/** One measurement of a path on one side: its figure, and the CPU per request (server, plus PostgreSQL's backends) where wrk drove it. */
interface Reading {
  value: number
  cpuUs?: number
  foreignPct?: number
}

export interface PathResult {
  path: PathId
  base: Reading[]
  head: Reading[]
  /** head ÷ base per round (base ÷ head for latency): above 1, head is faster. */
  ratios: number[]
  ratio: number
  /** base CPU ÷ head CPU per request (server and PostgreSQL), median over the rounds (wrk paths). */
  cpuRatio?: number
  slower: boolean
  error?: string
}

export interface CompareBackendResult {
  backend: Backend
  skipped?: string
  error?: string
  paths?: PathResult[]
}

export interface CompareResult extends RunInfo {
  name: 'compare'
  base: { ref: string; commit: string }
  head: { commit: string | null; dirty: boolean | null }
  settings: Required<Omit<CompareOptions, 'log' | 'base' | 'backends' | 'keepBase'>>
  backends: CompareBackendResult[]
  /** Every path measured on both sides at ≥ THRESHOLD× its base. */
  pass: boolean
  failed: boolean
}

const git = (args: string[], cwd = ROOT) => {
  const p = Bun.spawnSync(['git', ...args], { cwd, stdout: 'pipe', stderr: 'pipe' })
  if (p.exitCode !== 0) throw new Error(`git ${args.join(' ')}: ${p.stderr.toString().trim()}`)
  return p.stdout.toString().trim()
}

/**
 * The base commit checked out in a git worktree under the temp directory, with its own
 * `npm ci` (which builds its seed database and console). A finished one is reused; it is removed
 * afterwards unless `keep`.
 */
async function buildBase(ref: string, keep: boolean, log: (l: string) => void): Promise<{ root: string; commit: string }> {
  const commit = git(['rev-parse', '--verify', `${ref}^{commit}`])
  const root = join(tmpdir(), `ecobase-compare-${commit.slice(0, 12)}`)
  const ready = join(root, '.compare-ready')
  if (!existsSync(ready)) {
    if (existsSync(root)) git(['worktree', 'remove', '--force', root])
    git(['worktree', 'add', '--detach', root, commit])
    log(`  base ${commit.slice(0, 10)}: npm ci in ${root} …`)
    const started = performance.now()
    const ci = Bun.spawn(['npm', 'ci', '--no-audit', '--no-fund'], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
    const [out, err, code] = await Promise.all([new Response(ci.stdout).text(), new Response(ci.stderr).text(), ci.exited])
    if (code !== 0) throw new Error(`npm ci of the base failed (${code}):\n${(out + err).trim().split('\n').slice(-20).join('\n')}`)
    writeFileSync(ready, commit)
    log(`  base ${commit.slice(0, 10)}: built in ${((performance.now() - started) / 1000).toFixed(0)} s`)
  } else log(`  base ${commit.slice(0, 10)}: reusing ${root}`)
  if (!keep) onCleanup(() => void git(['worktree', 'remove', '--force', root]))
  return { root, commit }
}

/** A server of one side on `backend`, with what every path needs prepared on it. */
interface SideServer {
  server: Server
  /** One measurement; `short` for the warm-up (a third of a run). */
  measure: Record<PathId, (short?: boolean) => Promise<Reading>>
}

const WRK = { threads: 2, connections: 50 }
/** The relay path: streams per side and round, and the reply's tokens. */
const RELAY_STREAMS = 3
const RELAY_TOKENS = 2000

/** Successful (2xx) responses per second of a run, and its CPU per request. */
function reading(result: WrkResult & { cpu: { serverUsPerReq: number; postgresUsPerReq?: number; foreignPct?: number } }, statuses?: string[]): Reading {
  const ok = statuses && result.statuses ? statuses.reduce((n, s) => n + (result.statuses![s] ?? 0), 0) : result.requests
  const other = result.statuses ? Object.entries(result.statuses).filter(([s]) => !statuses?.includes(s)) : []
  if (other.length) throw new Error(`${result.url}: unexpected answers ${other.map(([s, n]) => `${s} ×${n}`).join(', ')}`)
  return { value: ok / result.seconds, cpuUs: result.cpu.serverUsPerReq + (result.cpu.postgresUsPerReq ?? 0), foreignPct: result.cpu.foreignPct }
}

/** Starts one side's server and prepares accounts, an OAuth client, a customer with notes, for every path. */
async function sideServer(backend: Backend, root: string, label: string, upstream: string, s: { durationSec: number; samples: number }): Promise<SideServer> {
  const db = backend === 'postgres' ? await createTempDatabase() : undefined
  if (db) onCleanup(() => db.drop())
  const server = await startServer({
    root,
    label,
    databaseUrl: db?.url,
    env: { ...NO_LOGIN_LIMITS, OPENAI_BASE_URL: upstream, CHAT_TIMEOUT_SECONDS: '30' },
  })
  const run = (options: WrkOptions, short = false) => {
    const durationSec = options.durationSec ?? s.durationSec
    return wrkWithCpu({ ...options, durationSec: short ? Math.max(1, Math.round(durationSec / 3)) : durationSec }, server.pid, server.database)
  }
  const owner = await registerUser(server.url)
  const customer = await customerOf(server.url, owner.token)
  const asCustomer = { 'content-type': 'application/json', authorization: `Bearer ${customer.token}` }
  const flows = await flowSpecs(server)

  // Sign-ins: five accounts taking turns (P2).
  const accounts = await Promise.all(Array.from({ length: 5 }, () => registerUser(server.url)))
  const logins = poolRequests(
    accounts.map((a) => JSON.stringify({ email: a.email, password: a.password })),
    WRK.threads,
  )

  // A derived list over 2,000 notes: a time range, newest first (P9's first query).
  await Promise.all(
    Array.from({ length: 20 }, async (_, batch) => {
      for (let i = 0; i < 100; i++) {
        const n = batch * 100 + i
        const occurredAt = new Date(Date.now() - n * 60_000).toISOString()
        await expectStatus(
          `${server.url}/userdata/notes`,
          { method: 'POST', headers: asCustomer, body: JSON.stringify({ title: `note ${n}`, body: `body of note ${n}`, occurredAt }) },
          201,
        )
      }
    }),
  )
  const since = new Date(Date.now() - 24 * 3600 * 1000).toISOString()
  const list = `${server.url}/userdata/notes?occurredAt=gte.${since}&sort=-occurredAt`

  // Presigns of small files, each body a different file.
  const presigns = poolRequests(
    Array.from({ length: 2000 }, (_, i) =>
      JSON.stringify({ filename: `f${i}.bin`, contentType: 'application/octet-stream', sizeBytes: 1, contentHash: i.toString(16).padStart(64, '0') }),
    ),
    WRK.threads,
  )

  /** A send to a fresh conversation whose reply the upstream sends as `model` says (bench-<tokens>). */
  const send = async (model: string) => {
    const conversation = (await expectStatus(
      `${server.url}/chat/conversations`,
      { method: 'POST', headers: asCustomer, body: JSON.stringify({ model }) },
      201,
    )) as { id: string }
    const started = performance.now()
    const res = await fetch(`${server.url}/chat/conversations/${conversation.id}/messages`, {
      method: 'POST',
      headers: asCustomer,
      body: JSON.stringify({ message: 'hello' }),
    })
    if (res.status !== 200) throw new Error(`chat send answered ${res.status}: ${await res.text()}`)
    return timeStream(res, started, 'event: token', /^event: token$/gm)
  }

  return {
    server,
    measure: {
      me: async (short) => reading(await run({ url: `${server.url}/auth/me`, ...WRK, headers: { authorization: `Bearer ${owner.token}` } }, short)),
      // 50 sign-ins in flight at ~40/s: each waits about a second, more on a busy machine.
      login: async (short) =>
        reading(
          await run(
            {
              url: `${server.url}/auth/login`,
              connections: WRK.connections,
              timeoutSec: 10,
              headers: { 'content-type': 'application/json' },
              ...logins,
              durationSec: Math.max(s.durationSec, 6),
            },
            short,
          ),
          ['200'],
        ),
      'refresh-account': async (short) => reading(await run(await rotations(server, flows.account, { chains: 100, ...WRK }), short), ['200']),
      'refresh-oauth': async (short) => reading(await run(await rotations(server, flows.oauth, { chains: 100, ...WRK }), short), ['200']),
      list: async (short) => reading(await run({ url: list, ...WRK, headers: { authorization: asCustomer.authorization } }, short)),
      presign: async (short) =>
        reading(
          await run(
            {
              url: `${server.url}/storage/uploads`,
              connections: WRK.connections,
              headers: { 'content-type': 'application/json', authorization: asCustomer.authorization },
              ...presigns,
            },
            short,
          ),
          ['201'],
        ),
      chat: async (short) => {
        const times: number[] = []
        for (let i = 0; i < (short ? Math.ceil(s.samples / 3) : s.samples); i++) times.push((await send('bench-1')).firstMs)
        return { value: median(times) }
      },
      relay: async (short) => ({ value: await relayRate(send, short ? 1 : RELAY_STREAMS, RELAY_TOKENS) }),
    },
  }
}

export async function benchCompare(options: CompareOptions): Promise<CompareResult> {
  requireWrk()
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = {
    paths: options.paths ?? [...PATHS],
    rounds: options.rounds ?? 3,
    durationSec: options.durationSec ?? 4,
    samples: options.samples ?? 60,
    quietWaitSec: options.quietWaitSec ?? 5,
  }
  const head = runInfo()
  log(
    `P19 compare: head (${head.revision.commit}${head.revision.dirty ? ', uncommitted changes' : ''}) against ${options.base}, ` +
      `${settings.rounds} rounds of ${settings.paths.join(', ')}; wrk ${WRK.threads}×${WRK.connections}, ${settings.durationSec} s a run; slower than ${THRESHOLD}× is named`,
  )
  const base = await buildBase(options.base, options.keepBase ?? false, log)
  const upstream = await startUpstream()
  onCleanup(() => upstream.stop())

  const results = await eachBackend<CompareBackendResult>(
    options.backends ?? BACKENDS,
    log,
    async (backend) => {
      // Both servers stay up for the whole backend: the idle one costs next to nothing.
      const sides = {
        base: await sideServer(backend, base.root, `base ${backend}`, upstream.url, settings),
        head: await sideServer(backend, ROOT, `head ${backend}`, upstream.url, settings),
      }
      try {
        return { backend, paths: await measureBackend(backend, sides, settings, log) }
      } finally {
        await sides.base.server.stop()
        await sides.head.server.stop()
      }
    },
    { catchErrors: true },
  )
  const measured = results.flatMap((r) => r.paths ?? [])
  return {
    name: 'compare',
    ...head,
    base: { ref: options.base, commit: base.commit },
    head: head.revision,
    settings,
    backends: results,
    pass: measured.length > 0 && measured.every((p) => !p.slower && !p.error),
    failed: results.some((r) => r.error !== undefined) || measured.some((p) => p.error !== undefined),
  }
}

async function measureBackend(
  backend: Backend,
  sides: Record<'base' | 'head', SideServer>,
  s: { paths: PathId[]; rounds: number; quietWaitSec: number },
  log: (l: string) => void,
): Promise<PathResult[]> {
  const results = new Map<PathId, PathResult>(s.paths.map((p) => [p, { path: p, base: [], head: [], ratios: [], ratio: NaN, slower: false }]))
  // Warm-up: each path once on each side, not counted.
  for (const path of s.paths) {
    for (const side of ['base', 'head'] as const) {
      await sides[side].measure[path](true).catch((err: Error) => {
        results.get(path)!.error = `${side}: ${err.message.split('\n')[0]}`
      })
    }
  }
  const quiet = roundsGate(backend, s.quietWaitSec, log)
  for (let round = 0; round < s.rounds; round++) {
    for (const path of s.paths) {
      const r = results.get(path)!
      if (r.error) continue
      const order = round % 2 === 0 ? (['base', 'head'] as const) : (['head', 'base'] as const)
      try {
        for (const side of order) {
          await quiet()
          r[side].push(await sides[side].measure[path]())
        }
      } catch (err) {
        r.error = (err as Error).message.split('\n')[0]
        continue
      }
      const [b, h] = [r.base.at(-1)!, r.head.at(-1)!]
      const ratio = WHAT[path].latency ? b.value / h.value : h.value / b.value
      r.ratios.push(ratio)
      log(
        `  ${backend.padEnd(8)} round ${round + 1} ${path.padEnd(15)} base ${fmt(b.value, WHAT[path].latency ? 2 : 0)} / head ${fmt(h.value, WHAT[path].latency ? 2 : 0)} ${WHAT[path].unit}: ` +
          `${ratio.toFixed(2)}×` +
          (b.cpuUs && h.cpuUs ? `, CPU µs/req ${b.cpuUs.toFixed(0)} / ${h.cpuUs.toFixed(0)}` : '') +
          noisyText(Math.max(b.foreignPct ?? 0, h.foreignPct ?? 0)),
      )
    }
  }
  return [...results.values()].map((r) => {
    if (r.error || r.ratios.length === 0) {
      log(`  ${backend.padEnd(8)} ${r.path}: FAILED: ${r.error ?? 'not measured'}`)
      return { ...r, error: r.error ?? 'not measured' }
    }
    const ratio = median(r.ratios)
    const cpu = r.base.every((x) => x.cpuUs) && r.head.every((x) => x.cpuUs) ? median(r.base.map((x, i) => x.cpuUs! / r.head[i]!.cpuUs!)) : undefined
    return { ...r, ratio, cpuRatio: cpu, slower: ratio < THRESHOLD }
  })
}

/** The ratio table, then the paths where head is slower than THRESHOLD× its base. */
export function compareTable(result: CompareResult): string {
  const rows = result.backends.flatMap((b) =>
    b.skipped || b.error
      ? [`| ${b.backend} | – | | | ${b.skipped ? `skipped: ${b.skipped}` : `failed: ${b.error}`} | | |`]
      : b.paths!.map((p) => {
          const what = WHAT[p.path]
          const digits = what.latency ? 2 : 0
          const mean = (xs: Reading[]) => xs.reduce((a, x) => a + x.value, 0) / xs.length
          if (p.error) return `| ${b.backend} | ${what.label} | | | failed: ${p.error} | | |`
          return (
            `| ${b.backend} | ${what.label} | ${fmt(mean(p.base), digits)} | ${fmt(mean(p.head), digits)} ${what.unit} | **${p.ratio.toFixed(2)}×** (${Math.min(...p.ratios).toFixed(2)}–${Math.max(...p.ratios).toFixed(2)}) | ` +
            `${p.cpuRatio === undefined ? '' : `${p.cpuRatio.toFixed(2)}×`} | ${p.slower ? '**slower**' : 'ok'} |`
          )
        }),
  )
  const slower = result.backends.flatMap((b) =>
    (b.paths ?? []).filter((p) => p.slower || p.error).map((p) => `${b.backend} ${WHAT[p.path].label} (${p.error ? 'failed' : `${p.ratio.toFixed(2)}×`})`),
  )
  return [
    `head ${result.head.commit}${result.head.dirty ? ' (uncommitted changes)' : ''} against base ${result.base.commit.slice(0, 10)} (${result.base.ref}); ratio: head ÷ base (latency: base ÷ head), median of the rounds; CPU: base ÷ head CPU per request (server, and PostgreSQL's backends of its database)`,
    '',
    markdownTable('| database | path | base | head | ratio (rounds) | CPU | verdict |', '|---|---|---:|---:|---|---:|---|', rows),
    '',
    slower.length ? `Slower than ${THRESHOLD}× the base: ${slower.join('; ')}` : `No path below ${THRESHOLD}× the base.`,
  ].join('\n')
}

/** `--key=value` and `--key value` arguments (a bare `--keep-base` is a switch). */
export function parseArgs(argv: string[]): CompareOptions {
  const flags = benchFlags(argv)
  for (let i = 0; i < argv.length - 1; i++) {
    const arg = argv[i]!
    if (arg.startsWith('--') && !arg.includes('=') && !argv[i + 1]!.startsWith('--')) flags.set(arg.slice(2), argv[i + 1]!)
  }
  const base = flags.get('base')
  if (!base) throw new Error('compare: name the base, e.g. `npm run bench -- compare --base main`')
  const number = (key: string) => (flags.has(key) ? Number(flags.get(key)) : undefined)
  const paths = flags.get('paths')?.split(',')
  const unknown = paths?.filter((p) => !(PATHS as readonly string[]).includes(p))
  if (unknown?.length) throw new Error(`compare: unknown paths ${unknown.join(', ')}; known: ${PATHS.join(', ')}`)
  return {
    base,
    backends: flags.has('db') ? backendsFlag(flags.get('db')!) : undefined,
    paths: paths as PathId[] | undefined,
    rounds: number('rounds'),
    durationSec: number('duration'),
    samples: number('samples'),
    quietWaitSec: number('quiet-wait'),
    keepBase: argv.includes('--keep-base'),
  }
}

/** `npm run bench -- compare …`: prints the table, writes bench/results/compare.json, exits 1 when a path is slower or failed. */
export async function compareMain(argv: string[]): Promise<number> {
  hookSignals()
  let options: CompareOptions
  try {
    options = parseArgs(argv)
  } catch (err) {
    console.error((err as Error).message)
    return 2
  }
  const result = await benchCompare(options)
  console.log(`\n${compareTable(result)}`)
  console.log(`results: ${saveResult('compare', result)}`)
  await cleanup()
  return result.pass && !result.failed ? 0 : 1
}

if (import.meta.main) process.exit(await compareMain(process.argv.slice(2)))
