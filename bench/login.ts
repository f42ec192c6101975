/**
 * P2: sign-ins per second (POST /auth/login with the right password) at 50 connections, on the
 * real server, on embedded PGlite and on PostgreSQL. Passwords are argon2id at the cost the server
 * is configured with (OWASP's minimum, m=19 MiB t=2, by default). A few pre-registered accounts
 * take turns; the login limits are set out of reach (NO_LOGIN_LIMITS) and only 200s count.
 * Target: ≥ 35/s.
 *
 *   npx bun bench/login.ts [--db=pglite,postgres] [--accounts=5] [--duration=8] [--rounds=2]
 *                          [--warmup=3] [--connections=50] [--quiet-wait=10]
 */
import { loadConfig } from '../src/config'
import { Passwords } from '../src/modules/auth/passwords'
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  expectStatus,
  fmt,
  machineInfo,
  markdownTable,
  mean,
  median,
  NO_LOGIN_LIMITS,
  noisyText,
  outcomeText,
  poolRequests,
  poolRound,
  type PoolRound,
  rangeText,
  registerUser,
  requireWrk,
  roundsGate,
  type RouteLoad,
  type RunInfo,
  runInfo,
  withServer,
  wrk,
  WRK_FLAGS,
  wrkSettings,
  type WrkSettings,
  wrkWithCpu,
} from './support'

export const TARGET = 35

export interface LoginOptions extends Partial<WrkSettings> {
  backends?: Backend[]
  /** Pre-registered accounts that take turns signing in. */
  accounts?: number
  log?: (line: string) => void
}

export interface LoginBackendResult {
  backend: Backend
  skipped?: string
  error?: string
  /** Mean over the rounds of 200s per second. */
  loginsPerSec?: number
  /** Server CPU counts every thread: argon2id runs off the JS thread. */
  rounds?: PoolRound[]
}

export interface LoginResult extends RunInfo {
  name: 'login'
  target: number
  settings: Required<Omit<LoginOptions, 'log' | 'backends'>>
  /** The argon2id cost the server runs with, and one verify's time in this process (single thread). */
  argon2: { memoryKiB: number; timeCost: number; verifyMs: number; ceilingPerSec: number }
  backends: LoginBackendResult[]
  pass: boolean
  failed: boolean
}

/** argon2id verify time at `cost` with the server's own hasher, one at a time, ms (median of `n`). */
async function verifyTime(cost: { memoryCost: number; timeCost: number }, n = 15): Promise<number> {
  const passwords = new Passwords(cost)
  const password = 'bench-password'
  const hash = await passwords.hash(password)
  const times: number[] = []
  for (let i = 0; i < n; i++) {
    const t = performance.now()
    if (!(await passwords.verify(password, hash))) throw new Error('argon2id verify failed')
    times.push(performance.now() - t)
  }
  return median(times)
}

export async function benchLogin(options: LoginOptions = {}): Promise<LoginResult> {
  requireWrk()
  const log = options.log ?? ((l: string) => console.log(l))
  const settings = { accounts: options.accounts ?? 5, ...wrkSettings(options, { durationSec: 8, rounds: 2, warmupSec: 3 }) }
  // What the server child will run with: this environment plus the bench's overrides.
  const cost = loadConfig({ ...process.env, ...NO_LOGIN_LIMITS }).password
  const machine = machineInfo()
  const verifyMs = await verifyTime(cost)
  const argon2 = { memoryKiB: cost.memoryCost, timeCost: cost.timeCost, verifyMs, ceilingPerSec: (machine.cores * 1000) / verifyMs }
  log(
    `P2 login: POST /auth/login, ${settings.accounts} accounts, argon2id m=${cost.memoryCost} KiB t=${cost.timeCost}, wrk ${settings.threads}×${settings.connections}, ` +
      `${settings.rounds} × ${settings.durationSec}s (warm-up ${settings.warmupSec}s), target ≥ ${TARGET}/s`,
  )
  log(`  argon2id verify alone: ${verifyMs.toFixed(1)} ms on one thread → at most ${fmt(argon2.ceilingPerSec)}/s on ${machine.cores} cores`)

  const results = await eachBackend(options.backends ?? BACKENDS, log, (backend) => measure(backend, settings, log), { catchErrors: true })
  const measured = results.filter((r) => r.loginsPerSec !== undefined)
  return {
    name: 'login',
    target: TARGET,
    ...runInfo(),
    settings,
    argon2,
    backends: results,
    pass: measured.length > 0 && measured.every((r) => r.loginsPerSec! >= TARGET),
    failed: results.some((r) => r.error !== undefined),
  }
}

/**
 * Sign-ins of `accounts` pre-registered accounts taking turns, `threads` × `connections`, without
 * login limits (NO_LOGIN_LIMITS): only 200s count.
 */
export function loginLoad(s = { accounts: 5, threads: 2, connections: 50 }): RouteLoad {
  return {
    method: 'POST',
    env: NO_LOGIN_LIMITS,
    async prepare(server) {
      const accounts = []
      for (let i = 0; i < s.accounts; i++) accounts.push(await registerUser(server.url))
      const bodies = accounts.map(({ email, password }) => JSON.stringify({ email, password }))
      const signedIn = (await expectStatus(
        `${server.url}/auth/login`,
        { method: 'POST', headers: { 'content-type': 'application/json' }, body: bodies[0] },
        200,
      )) as { refreshToken?: string }
      if (!signedIn?.refreshToken) throw new Error(`POST /auth/login answered no tokens: ${JSON.stringify(signedIn)}`)
      const options = {
        url: `${server.url}/auth/login`,
        connections: s.connections,
        headers: { 'content-type': 'application/json' },
        // 50 sign-ins in flight at ~40/s: each waits about a second and more on a busy machine.
        timeoutSec: 10,
        ...poolRequests(bodies, s.threads),
      }
      return async () => options
    },
  }
}

async function measure(backend: Backend, s: Required<Omit<LoginOptions, 'log' | 'backends'>>, log: (l: string) => void): Promise<LoginBackendResult> {
  const load = loginLoad(s)
  return withServer(
    backend,
    async (server) => {
      const options = await (await load.prepare(server))()
      if (s.warmupSec > 0) await wrk({ ...options, durationSec: s.warmupSec })
      const quiet = roundsGate(backend, s.quietWaitSec, log)
      const rounds: PoolRound[] = []
      for (let i = 0; i < s.rounds; i++) {
        await quiet()
        const round = poolRound(await wrkWithCpu({ ...options, durationSec: s.durationSec }, server.pid, server.database))
        rounds.push(round)
        log(
          `  ${backend.padEnd(8)} round ${i + 1}: ${round.okPerSec.toFixed(1)} logins/s (200s only; other: ${outcomeText(round.other)}), ` +
            `p50 ${round.p50Ms.toFixed(0)} ms, p99 ${round.p99Ms.toFixed(0)} ms, ` +
            `server CPU ${(round.serverCpuUs / 1000).toFixed(1)} ms/login` +
            (round.postgresCpuUs === undefined ? '' : ` + pg ${(round.postgresCpuUs / 1000).toFixed(2)} ms`) +
            noisyText(round.foreignPct),
        )
      }
      const loginsPerSec = mean(rounds.map((r) => r.okPerSec))
      log(`  ${backend.padEnd(8)} ${loginsPerSec.toFixed(1)} logins/s ${loginsPerSec >= TARGET ? 'PASS' : 'BELOW TARGET'}`)
      return { backend, loginsPerSec, rounds }
    },
    { env: load.env },
  )
}

/** Markdown table rows for bench/README.md. */
export function loginTable(result: LoginResult): string {
  const rows = result.backends.map((b) =>
    b.skipped || b.error
      ? `| ${b.backend} | – | ${b.skipped ? `skipped: ${b.skipped}` : 'failed (see output)'} | | | | |`
      : `| ${b.backend} | **${b.loginsPerSec!.toFixed(1)}** (${rangeText(
          b.rounds!.map((r) => r.okPerSec),
          1,
        )}) | ${b.loginsPerSec! >= TARGET ? 'pass' : 'below'} | ` +
        `${median(b.rounds!.map((r) => r.p50Ms)).toFixed(0)} / ${median(b.rounds!.map((r) => r.p99Ms)).toFixed(0)} | ` +
        `${(median(b.rounds!.map((r) => r.serverCpuUs)) / 1000).toFixed(1)}` +
        (b.rounds![0]!.postgresCpuUs === undefined ? '' : ` (+${(median(b.rounds!.map((r) => r.postgresCpuUs!)) / 1000).toFixed(2)} pg)`) +
        ` | ${outcomeText(...b.rounds!.map((r) => r.other))} |`,
  )
  const a = result.argon2
  return [
    `argon2id m=${a.memoryKiB} KiB t=${a.timeCost}: one verify ${a.verifyMs.toFixed(1)} ms on one thread → ceiling ${fmt(a.ceilingPerSec)}/s on ${result.machine.cores} cores`,
    '',
    markdownTable(
      '| database | logins/s, 200s only (rounds) | ≥ 35/s | latency p50 / p99 ms | server CPU ms/login | non-200 / errors |',
      '|---|---:|---|---|---:|---|',
      rows,
    ),
  ].join('\n')
}

export function parseArgs(argv: string[]): LoginOptions {
  return benchArgs<LoginOptions>(argv, { ...WRK_FLAGS, accounts: 'accounts' }).opts
}

export const command: BenchCommand<LoginResult> = { name: 'login', run: (argv) => benchLogin(parseArgs(argv)), table: loginTable }

if (import.meta.main) await benchMain(command)
