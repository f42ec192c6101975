/**
 * RL1 (issue 46): what the API rate limits add to a request, in-process on PGlite with the memory
 * store. Two apps in one process, one with the limits on (budgets out of reach) and one with
 * RATE_LIMITS=off, called alternately in rounds: `GET /auth/me` with an account token (counted by
 * the auth guard) and `GET /site/version` without credentials (counted per address before the
 * route). Then the limiter alone (`ApiLimits.admit`) on the memory store and, when Redis answers at
 * REDIS_URL (default redis://127.0.0.1:6379), on Redis. Target: ≤ 50 µs p50 added per request.
 *
 *   npx bun bench/rate-limit.ts [--requests=4000] [--rounds=8]
 */
import { ApiLimits } from '../src/platform/api-limits'
import { memoryRateLimitStore, type RateLimitStore, redisRateLimitStore } from '../src/platform/rate-limit'
import {
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  type BenchApp,
  fmt,
  inProcessApp,
  markdownTable,
  percentile,
  type RunInfo,
  runInfo,
} from './support'

const TARGET_US = 50

export interface RateLimitOptions {
  requests?: number
  rounds?: number
}

interface PathResult {
  path: string
  onUs: number
  offUs: number
}

export interface RateLimitResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  requests: number
  paths: PathResult[]
  /** The limiter alone, p50 per call, by store; Redis absent when it does not answer. */
  limiter: { store: string; us: number }[]
}

const timeEach = async (count: number, fn: () => Promise<unknown>, into: number[]) => {
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    await fn()
    into.push((performance.now() - started) * 1000)
  }
}

const get = (bench: BenchApp, path: string, token?: string) => async () => {
  const res = await bench.app.handle(new Request(`http://localhost${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }))
  if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`)
  await res.arrayBuffer()
}

/** `ApiLimits.admit` on `store`, with the app's configuration (budgets out of reach). */
async function limiterAlone(bench: BenchApp, store: RateLimitStore, count: number): Promise<number> {
  const limits = new ApiLimits({ ...bench.deps, rateLimits: store }, () => null, [])
  const subject = { kind: 'u' as const, id: crypto.randomUUID() }
  const samples: number[] = []
  const admit = async () => limits.admit(subject, 'GET', '/auth/me', {})
  await timeEach(Math.ceil(count / 10), admit, [])
  await timeEach(count, admit, samples)
  return percentile(samples, 0.5)
}

async function redisAnswers(url: string): Promise<RateLimitStore | null> {
  const store = redisRateLimitStore(url, `ecobase:bench:${crypto.randomUUID()}:`)
  try {
    await Promise.race([store.peek('ping'), new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 2000))])
    return store
  } catch {
    await store.close()
    return null
  }
}

export async function benchRateLimit(options: RateLimitOptions = {}): Promise<RateLimitResult> {
  const requests = options.requests ?? 4000
  const rounds = options.rounds ?? 8
  const log = (line: string) => console.error(line)
  const on = await inProcessApp('pglite')
  const off = await inProcessApp('pglite', { env: { RATE_LIMITS: 'off' } })
  try {
    const paths: PathResult[] = []
    for (const [path, token] of [
      ['/auth/me', true],
      ['/site/version', false],
    ] as const) {
      const calls = [get(on, path, token ? on.owner.token : undefined), get(off, path, token ? off.owner.token : undefined)] as const
      const samples: [number[], number[]] = [[], []]
      for (const [i, call] of calls.entries()) await timeEach(Math.ceil(requests / 10), call, samples[i]!)
      samples[0].length = samples[1].length = 0
      // Alternate in rounds, so a busy moment of the machine lands on both sides alike.
      for (let round = 0; round < rounds; round++) for (const [i, call] of calls.entries()) await timeEach(Math.ceil(requests / rounds), call, samples[i]!)
      const result = { path, onUs: percentile(samples[0], 0.5), offUs: percentile(samples[1], 0.5) }
      log(`  GET ${path}: ${fmt(result.onUs, 1)} µs with limits, ${fmt(result.offUs, 1)} µs without (p50)`)
      paths.push(result)
    }
    const limiter = [{ store: 'memory', us: await limiterAlone(on, memoryRateLimitStore(), requests) }]
    const redis = await redisAnswers(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379')
    if (redis) {
      limiter.push({ store: 'redis (loopback)', us: await limiterAlone(on, redis, requests) })
      await redis.close()
    }
    for (const l of limiter) log(`  the limiter alone, ${l.store}: ${fmt(l.us, 1)} µs p50`)
    const pass = paths.every((p) => p.onUs - p.offUs <= TARGET_US) && limiter[0]!.us <= TARGET_US
    return { pass, run: runInfo(), requests, paths, limiter }
  } finally {
    await on.close()
    await off.close()
  }
}

export function rateLimitTable(r: RateLimitResult): string {
  const rows = [
    ...r.paths.map((p) => `| GET ${p.path} (in-process) | ${fmt(p.onUs, 1)} µs | ${fmt(p.offUs, 1)} µs | **${fmt(p.onUs - p.offUs, 1)} µs** |`),
    ...r.limiter.map((l) => `| \`ApiLimits.admit\` alone, ${l.store} store | ${fmt(l.us, 1)} µs | | **${fmt(l.us, 1)} µs** |`),
  ]
  return markdownTable(`| path (${fmt(r.requests)} timed each, p50) | limits on | RATE_LIMITS=off | added (≤ ${TARGET_US} µs) |`, '|---|---:|---:|---:|', rows)
}

export const command: BenchCommand<RateLimitResult> = {
  name: 'rate-limit',
  run: (argv) => benchRateLimit(benchArgs<RateLimitOptions & { backends?: Backend[] }>(argv, { requests: 'requests', rounds: 'rounds' }).opts),
  table: rateLimitTable,
}

if (import.meta.main) await benchMain(command)
