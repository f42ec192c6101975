/**
 * P3: refresh-token rotations per second on the real server: account sessions (POST /auth/refresh)
 * and OAuth grants (grant_type=refresh_token at the token endpoint, POST /api/oauth/signin/exchange).
 * Every rotation uses up a token and returns the next one, so wrk (bench/wrk-pool.lua) drives
 * independent chains — one session or grant each, twice as many as connections — and sends each
 * chain's current token exactly once; only 200s count. Fresh chains for every run. Before
 * measuring, one extra chain checks that a replayed token is refused and ends its chain (reuse
 * detection). Target: ≥ 5,000/s on PostgreSQL (bench/README.md P3, raised from 2,500); embedded PGlite for information.
 *
 *   npx bun bench/refresh.ts [--db=pglite,postgres] [--flows=account,oauth] [--duration=5] [--rounds=3]
 *                            [--warmup=2] [--connections=50] [--chains=100] [--quiet-wait=10]
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
  listFlag,
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
  type Server,
  withServer,
  WRK_FLAGS,
  wrkSettings,
  type WrkSettings,
  wrkWithCpu,
} from './support'

export const TARGET = 5000

export type Flow = 'account' | 'oauth'
export const FLOWS: Flow[] = ['account', 'oauth']

export interface RefreshOptions extends Partial<WrkSettings> {
  backends?: Backend[]
  flows?: Flow[]
  /** Measured runs per flow; the flows' order alternates each round. */
  rounds?: number
  /** Token chains per run (default twice the connections, so no connection waits for a token). */
  chains?: number
  log?: (line: string) => void
}

type Settings = Required<Omit<RefreshOptions, 'log' | 'backends' | 'flows'>> & { flows: Flow[] }

export interface RefreshFlowResult {
  flow: Flow
  path: string
  /** Mean over the rounds of 200s per second. */
  rotationsPerSec: number
  rounds: PoolRound[]
}

export interface RefreshBackendResult {
  backend: Backend
  skipped?: string
  error?: string
  flows?: RefreshFlowResult[]
}

export interface RefreshResult extends RunInfo {
  name: 'refresh'
  target: number
  settings: Settings
  backends: RefreshBackendResult[]
  /** Every flow measured on PostgreSQL reaches the target (PGlite is for information). */
  pass: boolean
  failed: boolean
}

/** How one flow rotates: the route, how its body carries a token, and where the answer has the next one. */
export interface FlowSpec {
  path: string
  contentType: string
  /** The request body for a token (`%s`: the token). */
  body: string
  /** The JSON field of a 200 answer that holds the next token. */
  field: string
  /** The status a replayed token gets. */
  refused: number
  /** Starts `n` sessions or grants and returns their first refresh tokens. */
  start(n: number): Promise<string[]>
}

const JSON_TYPE = 'application/json'
const FORM_TYPE = 'application/x-www-form-urlencoded'

/** `n` calls of `fn`, `width` at a time. */
async function inBatches<T>(n: number, width: number, fn: () => Promise<T>): Promise<T[]> {
  const out: T[] = []
  while (out.length < n) out.push(...(await Promise.all(Array.from({ length: Math.min(width, n - out.length) }, fn))))
  return out
}

const post = (server: Server, path: string, contentType: string, body: string, expect: number, headers: Record<string, string> = {}) =>
  expectStatus(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': contentType, ...headers }, body }, expect) as Promise<Record<string, any>>

/** The account and OAuth flows on a fresh server: one account, and one client application of it. */
export async function flowSpecs(server: Server): Promise<Record<Flow, FlowSpec>> {
  const user = await registerUser(server.url)
  const signIn = JSON.stringify({ email: user.email, password: user.password })
  const redirectUri = 'http://127.0.0.1/callback'
  const asUser = { authorization: `Bearer ${user.token}` }
  const client = await post(server, '/oauth/clients', JSON_TYPE, JSON.stringify({ name: 'Bench App', redirectUris: [redirectUri] }), 201, asUser)
  const clientAuth = `client_id=${encodeURIComponent(client.clientId)}&client_secret=${encodeURIComponent(client.clientSecret)}`

  /** One grant: the user approves (POST /api/oauth/authorize), the client exchanges the code. */
  const grant = async () => {
    const verifier = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')
    const challenge = new Bun.CryptoHasher('sha256').update(verifier).digest('base64url')
    const approval = { response_type: 'code', client_id: client.clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256' }
    const approved = await post(server, '/api/oauth/authorize', JSON_TYPE, JSON.stringify(approval), 200, asUser)
    const form = new URLSearchParams({ grant_type: 'authorization_code', code: approved.code, redirect_uri: redirectUri, code_verifier: verifier })
    const tokens = await post(server, '/api/oauth/signin/exchange', FORM_TYPE, `${form}&${clientAuth}`, 200)
    return tokens.refresh_token as string
  }

  return {
    account: {
      path: '/auth/refresh',
      contentType: JSON_TYPE,
      body: '{"refreshToken":"%s"}',
      field: 'refreshToken',
      refused: 401,
      // Each sign-in costs one argon2id verify: a few at a time keep both cores busy.
      start: (n) => inBatches(n, 4, async () => (await post(server, '/auth/login', JSON_TYPE, signIn, 200)).refreshToken as string),
    },
    oauth: {
      path: '/api/oauth/signin/exchange',
      contentType: FORM_TYPE,
      body: `grant_type=refresh_token&refresh_token=%s&${clientAuth}`,
      field: 'refresh_token',
      refused: 400,
      start: (n) => inBatches(n, 8, grant),
    },
  }
}

/** Rotates one chain, replays its first token and checks that both the replay and the chain are refused. */
async function checkReuseDetection(server: Server, spec: FlowSpec): Promise<void> {
  const [first] = await spec.start(1)
  const body = (token: string) => spec.body.replace('%s', token)
  const next = await post(server, spec.path, spec.contentType, body(first!), 200)
  const second = next[spec.field]
  if (typeof second !== 'string') throw new Error(`${spec.path}: no ${spec.field} in ${JSON.stringify(next)}`)
  await post(server, spec.path, spec.contentType, body(first!), spec.refused)
  await post(server, spec.path, spec.contentType, body(second), spec.refused)
}

/** The wrk options of one run of a flow: `chains` fresh chains, `threads` × `connections`. */
export async function rotations(server: Server, spec: FlowSpec, s: { chains: number; threads: number; connections: number }) {
  const tokens = await spec.start(s.chains)
  return {
    url: `${server.url}${spec.path}`,
    connections: s.connections,
    headers: { 'content-type': spec.contentType },
    ...poolRequests(
      tokens.map((t) => spec.body.replace('%s', t)),
      s.threads,
      { pattern: `"${spec.field}":"([^"]+)"`, next: spec.body },
    ),
  }
}

/** One flow's rotations, with fresh chains for every run (for bench/profile.ts). */
export function refreshLoad(flow: Flow, s = { chains: 100, threads: 2, connections: 50 }): RouteLoad {
  return {
    method: 'POST',
    env: NO_LOGIN_LIMITS,
    async prepare(server) {
      const spec = (await flowSpecs(server))[flow]
      return () => rotations(server, spec, s)
    },
  }
}

export async function benchRefresh(options: RefreshOptions = {}): Promise<RefreshResult> {
  requireWrk()
  const log = options.log ?? ((l: string) => console.log(l))
  const rounds = wrkSettings(options, { durationSec: 5, rounds: 3, warmupSec: 2 })
  const settings: Settings = { flows: options.flows ?? FLOWS, ...rounds, chains: options.chains ?? 2 * rounds.connections }
  log(
    `P3 refresh: rotations/s of ${settings.flows.join(' and ')} refresh tokens, ${settings.chains} chains, wrk ${settings.threads}×${settings.connections}, ` +
      `${settings.rounds} × ${settings.durationSec}s per flow (warm-up ${settings.warmupSec}s), target ≥ ${fmt(TARGET)}/s on PostgreSQL`,
  )
  const results = await eachBackend<RefreshBackendResult>(
    options.backends ?? BACKENDS,
    log,
    async (backend) => ({ backend, flows: await measure(backend, settings, log) }),
    { catchErrors: true },
  )
  const onPostgres = results.find((r) => r.backend === 'postgres')?.flows
  return {
    name: 'refresh',
    target: TARGET,
    ...runInfo(),
    settings,
    backends: results,
    pass: onPostgres?.every((f) => f.rotationsPerSec >= TARGET) ?? false,
    failed: results.some((r) => r.error !== undefined),
  }
}

async function measure(backend: Backend, s: Settings, log: (l: string) => void): Promise<RefreshFlowResult[]> {
  // Every account run signs in `chains` times from one address: the login limits must not answer 429.
  return withServer(
    backend,
    async (server) => {
      const specs = await flowSpecs(server)
      for (const flow of s.flows) await checkReuseDetection(server, specs[flow])

      const run = async (flow: Flow, durationSec: number, before?: () => Promise<void>) => {
        const options = await rotations(server, specs[flow], s)
        await before?.()
        return wrkWithCpu({ ...options, durationSec }, server.pid, server.database)
      }
      if (s.warmupSec > 0) for (const flow of s.flows) await run(flow, s.warmupSec)

      const quiet = roundsGate(backend, s.quietWaitSec, log)
      const rounds = new Map<Flow, PoolRound[]>(s.flows.map((f) => [f, []]))
      for (let i = 0; i < s.rounds; i++) {
        for (const flow of i % 2 === 0 ? s.flows : [...s.flows].reverse()) {
          const round = poolRound(await run(flow, s.durationSec, quiet))
          rounds.get(flow)!.push(round)
          log(
            `  ${backend.padEnd(8)} round ${i + 1} ${flow.padEnd(7)}: ${fmt(round.okPerSec).padStart(6)} rotations/s (200s only; other: ${outcomeText(round.other)}), ` +
              `p50 ${round.p50Ms.toFixed(1)} ms, p99 ${round.p99Ms.toFixed(1)} ms, cpu ${round.serverCpuUs.toFixed(0)} µs` +
              (round.postgresCpuUs === undefined ? '' : ` + pg ${round.postgresCpuUs.toFixed(0)} µs`) +
              noisyText(round.foreignPct),
          )
        }
      }
      return s.flows.map((flow) => {
        const rs = rounds.get(flow)!
        const rotationsPerSec = mean(rs.map((r) => r.okPerSec))
        const verdict = backend === 'postgres' ? (rotationsPerSec >= TARGET ? ' PASS' : ' BELOW TARGET') : ''
        log(`  ${backend.padEnd(8)} ${flow.padEnd(7)} ${fmt(rotationsPerSec)} rotations/s${verdict}`)
        return { flow, path: specs[flow].path, rotationsPerSec, rounds: rs }
      })
    },
    { env: NO_LOGIN_LIMITS },
  )
}

/** Markdown table rows for bench/README.md. */
export function refreshTable(result: RefreshResult): string {
  const rows = result.backends.flatMap((b) =>
    b.skipped || b.error
      ? [`| ${b.backend} | – | – | ${b.skipped ? `skipped: ${b.skipped}` : 'failed (see output)'} | | | | |`]
      : b.flows!.map((f) => {
          const cpu = median(f.rounds.map((r) => r.serverCpuUs)).toFixed(0)
          const pg = f.rounds[0]!.postgresCpuUs === undefined ? '' : ` (+${median(f.rounds.map((r) => r.postgresCpuUs!)).toFixed(0)} pg)`
          const verdict = b.backend === 'postgres' ? (f.rotationsPerSec >= TARGET ? 'pass' : 'below') : 'for information'
          return (
            `| ${b.backend} | ${f.flow} | \`POST ${f.path}\` | **${fmt(f.rotationsPerSec)}** (${rangeText(f.rounds.map((r) => r.okPerSec))}) | ${verdict} | ` +
            `${median(f.rounds.map((r) => r.p50Ms)).toFixed(1)} / ${median(f.rounds.map((r) => r.p99Ms)).toFixed(1)} | ${cpu}${pg} | ${outcomeText(...f.rounds.map((r) => r.other))} |`
          )
        }),
  )
  return markdownTable(
    '| database | flow | route | rotations/s, 200s only (rounds) | ≥ 5k/s | latency p50 / p99 ms | CPU µs/rotation | non-200 / errors |',
    '|---|---|---|---:|---|---|---:|---|',
    rows,
  )
}

export function parseArgs(argv: string[]): RefreshOptions {
  const { flags, opts } = benchArgs<RefreshOptions>(argv, { ...WRK_FLAGS, chains: 'chains' })
  if (flags.has('flows')) opts.flows = listFlag(flags.get('flows')!, FLOWS)
  return opts
}

export const command: BenchCommand<RefreshResult> = { name: 'refresh', run: (argv) => benchRefresh(parseArgs(argv)), table: refreshTable }

if (import.meta.main) await benchMain(command)
