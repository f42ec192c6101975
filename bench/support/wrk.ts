/** wrk runs with parsed figures, token pools, and their CPU cost. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onCleanup } from './cleanup'
import { ROOT, fmt } from './utils'
import type { Server } from './server'
import type { CpuCost } from './cpu'

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
  const args = ['wrk', `-t${options.threads ?? 2}`, `-c${options.connections ?? 50}`, `-d${duration}s`, `--timeout`, `${options.timeoutSec ?? 5}s`, '--latency']
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
  writeFileSync(file, `${bodies.join('\n')}\n`)
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
