/**
 * Where the server's CPU goes under load on one route: starts the real server with Bun's sampling
 * profiler (--cpu-prof), drives the route with wrk, stops the server and summarises only the
 * samples taken while wrk ran (boot and registration excluded).
 *
 *   npx bun bench/profile.ts /auth/me [--db=pglite|postgres] [--duration=6] [--top=25]
 *
 * Routes are loaded with GET and an account's bearer token, except those a bench drives its own
 * way (LOADS): POST /auth/login (P2), POST /auth/refresh and POST /api/oauth/signin/exchange (P3,
 * refresh-token chains).
 *
 * Prints: main-thread CPU µs per request, self time by owner (package or src/ file, PGlite's wasm
 * separately), and the hottest functions. The .cpuprofile is kept in bench/results/ for
 * Chrome DevTools / speedscope.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { loginLoad } from './login'
import { refreshLoad } from './refresh'
import { type Backend, cleanup, fmt, hookSignals, registerUser, ROOT, type RouteLoad, sleep, withServer, wrk, wrkWithCpu } from './support'

interface CallFrame {
  functionName: string
  url: string
  lineNumber: number
}
interface ProfileNode {
  id: number
  callFrame: CallFrame
  children?: number[]
}
interface CpuProfile {
  nodes: ProfileNode[]
  startTime: number
  endTime: number
  samples: number[]
  timeDeltas: number[]
}

export interface ProfileSummary {
  path: string
  backend: Backend
  rps: number
  requests: number
  windowMs: number
  busyMs: number
  cpuUsPerRequest: number
  postgresCpuUsPerRequest?: number
  owners: { owner: string; selfPct: number; usPerRequest: number }[]
  inclusive: { owner: string; pct: number }[]
  top: { fn: string; where: string; selfPct: number }[]
}

function ownerOf(url: string): string | null {
  if (!url) return null
  if (url.includes('/node_modules/')) {
    const rest = url.split('/node_modules/').pop()!
    const parts = rest.split('/')
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!
  }
  const path = url.replace(/^file:\/\//, '')
  const root = process.env.BENCH_ROOT ?? ROOT
  if (path.startsWith(root)) return relative(root, path).replace(/:\d+$/, '')
  if (/^(node:|internal:|bun:)/.test(url)) return 'bun runtime (js)'
  return url
}

/** Summarises the samples of `profile` between `fromUs` and `toUs` (epoch microseconds). */
export function summarise(profile: CpuProfile, fromUs: number, toUs: number, top = 25) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)

  const selfOwner = new Map<number, string>()
  const stackOwners = new Map<number, Set<string>>()
  const resolveSelf = (id: number): string => {
    const hit = selfOwner.get(id)
    if (hit) return hit
    const frame = byId.get(id)!.callFrame
    let owner: string
    if (frame.functionName.startsWith('.wasm-function') || frame.functionName === 'wasm-stub') owner = '@electric-sql/pglite (wasm)'
    else {
      owner = ownerOf(frame.url) ?? ''
      if (!owner) {
        const up = parent.get(id)
        owner = up === undefined || byId.get(up)!.callFrame.functionName === '(root)' ? 'native (no JS caller: server, GC…)' : resolveSelf(up)
        if (!owner.endsWith(' (native)') && !owner.startsWith('native')) owner += ' (native)'
      }
    }
    selfOwner.set(id, owner)
    return owner
  }
  const ownersOnStack = (id: number): Set<string> => {
    const hit = stackOwners.get(id)
    if (hit) return hit
    const up = parent.get(id)
    const set = new Set(up === undefined ? [] : ownersOnStack(up))
    const frame = byId.get(id)!.callFrame
    const o = frame.functionName.startsWith('.wasm-function') ? '@electric-sql/pglite' : ownerOf(frame.url)
    if (o) set.add(o)
    stackOwners.set(id, set)
    return set
  }

  let t = profile.startTime
  let count = 0
  let busyUs = 0
  const self = new Map<string, number>()
  const incl = new Map<string, number>()
  const fnSelf = new Map<string, number>()
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i]!
    if (t < fromUs || t > toUs) continue
    const id = profile.samples[i]!
    const frame = byId.get(id)!.callFrame
    if (frame.functionName === '(idle)' || frame.functionName === '(program)') continue
    count++
    const owner = resolveSelf(id)
    self.set(owner, (self.get(owner) ?? 0) + 1)
    for (const o of ownersOnStack(id)) incl.set(o, (incl.get(o) ?? 0) + 1)
    const key = `${frame.functionName || '(anonymous)'}\t${frame.url ? `${ownerOf(frame.url)}:${frame.lineNumber + 1}` : owner}`
    fnSelf.set(key, (fnSelf.get(key) ?? 0) + 1)
  }
  // The sampler ticks every ~1 ms while the thread runs; gaps (idle) show up as longer deltas,
  // so the typical tick is the median delta.
  const deltas = profile.timeDeltas.filter((d) => d > 0).sort((a, b) => a - b)
  const interval = deltas.length ? deltas[deltas.length >> 1]! : 1000
  busyUs = count * interval
  const sorted = (m: Map<string, number>) => [...m.entries()].sort((a, b) => b[1] - a[1])
  return {
    samples: count,
    busyUs,
    self: sorted(self).map(([owner, n]) => ({ owner, n, pct: (100 * n) / count })),
    inclusive: sorted(incl).map(([owner, n]) => ({ owner, pct: (100 * n) / count })),
    top: sorted(fnSelf)
      .slice(0, top)
      .map(([k, n]) => {
        const [fn, where] = k.split('\t') as [string, string]
        return { fn, where, selfPct: (100 * n) / count }
      }),
  }
}

/** GET `path` with an account's bearer token: the default load. */
const bearerGet = (path: string): RouteLoad => ({
  method: 'GET',
  async prepare(server) {
    const { token } = await registerUser(server.url)
    return async () => ({ url: server.url + path, headers: { Authorization: `Bearer ${token}` } })
  },
})

/** Routes the benches drive their own way (POST bodies, token chains). */
const LOADS: Record<string, () => RouteLoad> = {
  '/auth/login': () => loginLoad(),
  '/auth/refresh': () => refreshLoad('account'),
  '/api/oauth/signin/exchange': () => refreshLoad('oauth'),
}

export async function profileRoute(options: {
  path: string
  /** How to drive the route (default: the bench's load for the path, else GET with a bearer token). */
  load?: RouteLoad
  backend?: Backend
  durationSec?: number
  top?: number
  log?: (l: string) => void
}): Promise<ProfileSummary> {
  const log = options.log ?? ((l: string) => console.log(l))
  const backend = options.backend ?? 'pglite'
  const duration = options.durationSec ?? 6
  const load = options.load ?? LOADS[options.path]?.() ?? bearerGet(options.path)
  const dir = mkdtempSync(join(tmpdir(), 'ecobase-prof-'))
  try {
    const window = { from: 0, to: 0 }
    let result!: Awaited<ReturnType<typeof wrkWithCpu>>
    await withServer(
      backend,
      async (server) => {
        const next = await load.prepare(server)
        await wrk({ ...(await next()), durationSec: 1 })
        const measured = await next()
        await sleep(200)
        window.from = Date.now() * 1000
        result = await wrkWithCpu({ ...measured, durationSec: duration }, server.pid, server.database)
        window.to = Date.now() * 1000
      },
      { env: load.env, bunArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--cpu-prof-name=server.cpuprofile'] },
    )
    // the profile is written when the server exits
    for (let i = 0; i < 50 && !readdirSync(dir).includes('server.cpuprofile'); i++) await sleep(100)
    const file = join(dir, 'server.cpuprofile')
    const profile = (await Bun.file(file).json()) as CpuProfile
    const s = summarise(profile, window.from, window.to, options.top ?? 25)
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true })
    const kept = join(ROOT, 'bench', 'results', `profile${options.path.replaceAll('/', '-')}-${backend}.cpuprofile`)
    copyFileSync(file, kept)

    // CPU per request from /proc (exact); the profile only apportions it.
    const cpuUsPerRequest = result.cpu.serverUsPerReq
    const summary: ProfileSummary = {
      path: options.path,
      backend,
      rps: result.rps,
      requests: result.requests,
      windowMs: (window.to - window.from) / 1000,
      busyMs: s.busyUs / 1000,
      cpuUsPerRequest,
      postgresCpuUsPerRequest: result.cpu.postgresUsPerReq,
      owners: s.self.map((o) => ({ owner: o.owner, selfPct: o.pct, usPerRequest: (o.pct / 100) * cpuUsPerRequest })),
      inclusive: s.inclusive.map((o) => ({ owner: o.owner, pct: o.pct })),
      top: s.top,
    }
    log(
      `\n${load.method} ${options.path} on ${backend}: ${fmt(result.rps)} req/s (${(1e6 / result.rps).toFixed(1)} µs/req); ` +
        `server process CPU ${cpuUsPerRequest.toFixed(1)} µs/req` +
        (result.cpu.postgresUsPerReq === undefined ? '' : `, PostgreSQL processes ${result.cpu.postgresUsPerReq.toFixed(1)} µs/req`) +
        `; ${s.samples} samples in the window`,
    )
    log('\nself time by owner                                   %    µs/req')
    for (const o of summary.owners.filter((o) => o.selfPct >= 0.5))
      log(`  ${o.owner.padEnd(48)} ${o.selfPct.toFixed(1).padStart(5)} ${o.usPerRequest.toFixed(1).padStart(7)}`)
    log('\non the stack (inclusive)                             %')
    for (const o of summary.inclusive.filter((o) => o.pct >= 2)) log(`  ${o.owner.padEnd(48)} ${o.pct.toFixed(1).padStart(5)}`)
    log('\nhottest functions (self)                                             %')
    for (const f of summary.top) log(`  ${f.fn.slice(0, 30).padEnd(30)} ${f.where.slice(0, 36).padEnd(36)} ${f.selfPct.toFixed(1).padStart(5)}`)
    log(`\nprofile: ${kept}`)
    return summary
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  hookSignals()
  const args = process.argv.slice(2)
  const opt = (k: string) => args.find((a) => a.startsWith(`--${k}=`))?.split('=')[1]
  const paths = args.filter((a) => a.startsWith('/'))
  try {
    for (const path of paths.length ? paths : ['/auth/me']) {
      await profileRoute({
        path,
        backend: (opt('db') as Backend) ?? 'pglite',
        durationSec: Number(opt('duration') ?? 6),
        top: Number(opt('top') ?? 25),
      })
    }
  } finally {
    await cleanup()
  }
}
