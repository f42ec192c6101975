/**
 * P1: GET /auth/me (JWT + live-session check + user row) ÷ GET /site/version (a static route: no database, no credential), measured
 * with wrk against the same server process in one run, on embedded PGlite and on PostgreSQL.
 * Target: ≥ 0.5.
 *
 *   npx bun bench/auth-me.ts [--db=pglite,postgres] [--duration=5] [--rounds=4] [--warmup=3]
 *                            [--quiet-wait=10] [--root=/other/checkout]
 */
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  expectStatus,
  fmt,
  loadAverage,
  markdownTable,
  mean,
  median,
  NOISY_PCT,
  noisyText,
  registerUser,
  requireWrk,
  roundsGate,
  type RunInfo,
  runInfo,
  withServer,
  WRK_FLAGS,
  wrkSettings,
  type WrkSettings,
  wrkWithCpu,
  type CpuCost,
  type WrkResult,
} from './support'

type Run = WrkResult & { cpu: CpuCost }

export const TARGET = 0.5
/** The route /auth/me is compared with: as cheap as a route of this server gets. */
const BASELINE = '/site/version'

export interface AuthMeOptions extends Partial<WrkSettings> {
  backends?: Backend[]
  /** Measured pairs (base, me); the order alternates each round to cancel drift. */
  rounds?: number
  /** Another checkout to run the server from (A/B comparisons); default BENCH_ROOT or this repo. */
  root?: string
  log?: (line: string) => void
}

export interface AuthMeBackendResult {
  backend: Backend
  skipped?: string
  /** The bench could not run on this backend (server failed to boot, wrk error, …). */
  error?: string
  bootMs?: number
  /** 1-minute load average before the server started (other work on the machine adds noise). */
  loadBefore?: number
  baseRps?: number
  meRps?: number
  /** mean(me) ÷ mean(base) over the rounds. */
  ratio?: number
  /**
   * Cross-check that other load on the machine barely moves: CPU per /site/version request ÷ CPU per
   * /auth/me request (server + PostgreSQL). Equals the throughput ratio when the server is the
   * bottleneck.
   */
  cpuRatio?: number
  roundRatios?: number[]
  /** (last − first) ÷ first of /site/version req/s across rounds; large values mean the server drifted. */
  baseDrift?: number
  /** Highest share of the machine used by unrelated processes during any measured run, %. */
  maxForeignPct?: number
  baseP50Ms?: number
  meP50Ms?: number
  baseP99Ms?: number
  meP99Ms?: number
  /** Server process CPU per request (all threads), µs: median over rounds. */
  baseServerCpuUs?: number
  meServerCpuUs?: number
  /** PostgreSQL processes' CPU per request, µs (PostgreSQL runs only). */
  basePostgresCpuUs?: number
  mePostgresCpuUs?: number
  rounds?: { order: string; base: Run; me: Run }[]
}

export interface AuthMeResult extends RunInfo {
  name: 'auth-me'
  target: number
  settings: Required<Omit<AuthMeOptions, 'log' | 'backends' | 'root'>>
  root?: string
  backends: AuthMeBackendResult[]
  pass: boolean
  /** Some backend could not be measured. */
  failed: boolean
}

export async function benchAuthMe(options: AuthMeOptions = {}): Promise<AuthMeResult> {
  requireWrk()
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = wrkSettings(options, { durationSec: 5, rounds: 4, warmupSec: 3 })
  const backends = options.backends ?? BACKENDS
  log(
    `P1 auth-me: GET /auth/me ÷ GET /site/version, wrk ${settings.threads}×${settings.connections}, ` +
      `${settings.rounds} rounds × ${settings.durationSec}s each endpoint (warm-up ${settings.warmupSec}s), target ≥ ${TARGET}`,
  )

  const results = await eachBackend(backends, log, (backend) => measure(backend, settings, log, options.root), { catchErrors: true })

  const measured = results.filter((r) => r.ratio !== undefined)
  return {
    name: 'auth-me',
    target: TARGET,
    ...runInfo(options.root),
    settings,
    root: options.root,
    backends: results,
    pass: measured.length > 0 && measured.every((r) => r.ratio! >= TARGET),
    failed: results.some((r) => r.error !== undefined),
  }
}

async function measure(
  backend: Backend,
  s: { durationSec: number; rounds: number; warmupSec: number; threads: number; connections: number; quietWaitSec: number },
  log: (line: string) => void,
  root?: string,
): Promise<AuthMeBackendResult> {
  const loadBefore = loadAverage()
  return withServer(
    backend,
    async (server) => {
      const { token } = await registerUser(server.url)
      const auth = { Authorization: `Bearer ${token}` }
      // A 401 would be fast and wrong: make sure /auth/me really answers the user first.
      const me = (await expectStatus(`${server.url}/auth/me`, { headers: auth }, 200)) as { id?: string }
      if (!me?.id) throw new Error(`/auth/me answered no user: ${JSON.stringify(me)}`)

      const run = (path: string, durationSec: number) =>
        wrkWithCpu(
          {
            url: `${server.url}${path}`,
            threads: s.threads,
            connections: s.connections,
            durationSec,
            headers: path === '/auth/me' ? auth : undefined,
          },
          server.pid,
          server.database,
        )
      // Other people's builds and tests share this machine: start each measured run on a quiet one.
      const quiet = roundsGate(backend, s.quietWaitSec, log)
      const quietly = async (path: string) => {
        await quiet()
        return run(path, s.durationSec)
      }
      const base = () => quietly(BASELINE)
      const meRun = () => quietly('/auth/me')

      if (s.warmupSec > 0) {
        await run(BASELINE, s.warmupSec)
        await run('/auth/me', s.warmupSec)
      }

      const rounds: { order: string; base: Run; me: Run }[] = []
      for (let i = 0; i < s.rounds; i++) {
        let h: Run, m: Run
        if (i % 2 === 0) {
          h = await base()
          m = await meRun()
        } else {
          m = await meRun()
          h = await base()
        }
        rounds.push({ order: i % 2 === 0 ? 'base,me' : 'me,base', base: h, me: m })
        const cpu = (r: Run) =>
          `${r.cpu.serverUsPerReq.toFixed(0)} µs` +
          (r.cpu.postgresUsPerReq === undefined ? '' : ` + pg ${r.cpu.postgresUsPerReq.toFixed(0)} µs`) +
          noisyText(r.cpu.foreignPct)
        log(
          `  ${backend.padEnd(8)} round ${i + 1}: base ${fmt(h.rps).padStart(7)} req/s (p50 ${h.latencyMs.p50.toFixed(2)} ms, cpu ${cpu(h)})` +
            `   me ${fmt(m.rps).padStart(7)} req/s (p50 ${m.latencyMs.p50.toFixed(2)} ms, cpu ${cpu(m)})   ratio ${(m.rps / h.rps).toFixed(3)}`,
        )
      }
      const baseRps = mean(rounds.map((r) => r.base.rps))
      const meRps = mean(rounds.map((r) => r.me.rps))
      const ratio = meRps / baseRps
      const roundRatios = rounds.map((r) => r.me.rps / r.base.rps)
      const baseDrift = (rounds.at(-1)!.base.rps - rounds[0]!.base.rps) / rounds[0]!.base.rps
      log(
        `  ${backend.padEnd(8)} base ${fmt(baseRps)} req/s, me ${fmt(meRps)} req/s, ratio ${ratio.toFixed(3)} ` +
          `(rounds ${Math.min(...roundRatios).toFixed(3)}–${Math.max(...roundRatios).toFixed(3)}) ${ratio >= TARGET ? 'PASS' : 'BELOW TARGET'}`,
      )
      if (rounds.length > 1 && Math.abs(baseDrift) > 0.15) {
        log(
          `  ${backend.padEnd(8)} warning: /site/version throughput moved ${(baseDrift * 100).toFixed(0)}% from the first round to the last; ` +
            `the ratio depends on how long the server has been loaded (see bench/README.md, "Known distortions")`,
        )
      }
      const strip = (w: Run) => ({ ...w, raw: undefined }) as unknown as Run
      const med = (f: (r: { base: Run; me: Run }) => number | undefined) => {
        const xs = rounds.map(f).filter((x): x is number => x !== undefined)
        return xs.length ? median(xs) : undefined
      }
      const cost = (r: Run) => r.cpu.serverUsPerReq + (r.cpu.postgresUsPerReq ?? 0)
      const cpuRatio = median(rounds.map((r) => cost(r.base))) / median(rounds.map((r) => cost(r.me)))
      log(
        `  ${backend.padEnd(8)} CPU per request: base ${median(rounds.map((r) => cost(r.base))).toFixed(0)} µs, me ${median(rounds.map((r) => cost(r.me))).toFixed(0)} µs → cpu ratio ${cpuRatio.toFixed(3)}`,
      )
      return {
        backend,
        cpuRatio,
        bootMs: Math.round(server.bootMs),
        loadBefore,
        baseServerCpuUs: med((r) => r.base.cpu.serverUsPerReq),
        meServerCpuUs: med((r) => r.me.cpu.serverUsPerReq),
        basePostgresCpuUs: med((r) => r.base.cpu.postgresUsPerReq),
        mePostgresCpuUs: med((r) => r.me.cpu.postgresUsPerReq),
        baseRps,
        meRps,
        ratio,
        roundRatios,
        baseDrift,
        maxForeignPct: Math.max(...rounds.flatMap((r) => [r.base.cpu.foreignPct ?? 0, r.me.cpu.foreignPct ?? 0])),
        baseP50Ms: median(rounds.map((r) => r.base.latencyMs.p50)),
        meP50Ms: median(rounds.map((r) => r.me.latencyMs.p50)),
        baseP99Ms: median(rounds.map((r) => r.base.latencyMs.p99)),
        meP99Ms: median(rounds.map((r) => r.me.latencyMs.p99)),
        rounds: rounds.map((r) => ({ order: r.order, base: strip(r.base), me: strip(r.me) })),
      }
    },
    { root },
  )
}

const cpuCell = (server?: number, pg?: number) => (server === undefined ? '–' : `${server.toFixed(0)}${pg === undefined ? '' : ` (+${pg.toFixed(0)} pg)`}`)

const driftNote = (drift?: number) => (drift !== undefined && Math.abs(drift) > 0.15 ? ` (base drift ${drift > 0 ? '+' : ''}${(drift * 100).toFixed(0)}%)` : '')

const noiseNote = (pct?: number) => (pct !== undefined && pct > NOISY_PCT ? ` (other load up to ${pct.toFixed(0)}%)` : '')

/** Markdown table rows for bench/README.md. */
export function authMeTable(result: AuthMeResult): string {
  const rows = result.backends.map((b) =>
    b.skipped || b.error
      ? `| ${b.backend} | – | – | ${b.skipped ? `skipped: ${b.skipped}` : 'failed (see output)'} | | | |`
      : `| ${b.backend} | ${fmt(b.baseRps!)} | ${fmt(b.meRps!)} | **${b.ratio!.toFixed(2)}** (${Math.min(...b.roundRatios!).toFixed(2)}–${Math.max(...b.roundRatios!).toFixed(2)}) | ${b.ratio! >= TARGET ? 'pass' : 'below'}${driftNote(b.baseDrift)}${noiseNote(b.maxForeignPct)} | ${cpuCell(b.baseServerCpuUs, b.basePostgresCpuUs)} / ${cpuCell(b.meServerCpuUs, b.mePostgresCpuUs)} | ${b.cpuRatio!.toFixed(2)} |`,
  )
  return markdownTable(
    '| database | /site/version req/s | /auth/me req/s | ratio (rounds) | ≥ 0.5 | CPU µs/req base / me | cpu ratio |',
    '|---|---:|---:|---|---|---|---:|',
    rows,
  )
}

/** bench/results/ file name: runs against another checkout (--root) do not overwrite this one's. */
export function resultName(result: AuthMeResult): string {
  return result.root ? `auth-me-${result.root.replace(/\/+$/, '').split('/').pop()}` : 'auth-me'
}

export function parseArgs(argv: string[]): AuthMeOptions {
  const { flags, opts } = benchArgs<AuthMeOptions>(argv, WRK_FLAGS)
  if (flags.has('root')) opts.root = flags.get('root')
  return opts
}

export const command: BenchCommand<AuthMeResult> = { name: 'auth-me', run: (argv) => benchAuthMe(parseArgs(argv)), table: authMeTable, file: resultName }

if (import.meta.main) await benchMain(command)
