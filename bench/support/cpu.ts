/** CPU accounting from /proc, and waiting for a quiet machine. */
import { readdirSync, readFileSync } from 'node:fs'
import { ROOT, sleep } from './utils'
import { type WrkOptions, type WrkResult, wrk } from './wrk'
import type { Backend } from './backends'

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
