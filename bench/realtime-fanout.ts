/**
 * P13: realtime fan-out. One server process on PostgreSQL; 100 ecosystems of 100 customers, each
 * customer holding `GET /realtime/stream?topics=userdata/notes,community/threads` open (10,000
 * streams on raw sockets from this process). A writer in this process commits 1,000 changes/s,
 * one per transaction, through the server's own outbox writer (RealtimeHub.record: the insert and
 * the NOTIFY a write through the API makes) on its own connections: a note of one customer (only
 * that customer's stream may get it) or, for `--shared` of them, a thread (all 100 streams of the
 * ecosystem get it). Reported: commit → event p50/p95/max, the server's RSS growth from before the
 * streams opened to the end of the load, its CPU, and deliveries to a stream not entitled to them
 * (must be 0) or missing (must be 0). With `--filter=1` (the default) every subscription carries a
 * filter in the list grammar that its changes match (`?or=(title.like.change*,title.is.null)`),
 * decided in memory for each change and stream.
 *
 * PostgreSQL only: an embedded PGlite belongs to the server process, so no second writer can
 * reach it. The readers share this process's cores with the server: the figures are an upper bound.
 *
 *   npx bun bench/realtime-fanout.ts [--subscribers=10000] [--ecosystems=100] [--rate=1000] [--duration=20] [--shared=0.02] [--filter=1]
 */
import { readFileSync } from 'node:fs'
import postgres from 'postgres'
import { drizzle } from 'drizzle-orm/postgres-js'
import { trackCommits } from '../src/platform/db/commit'
import type { Database, Db } from '../src/platform/db'
import { RealtimeHub } from '../src/modules/realtime/hub'
import { Metrics } from '../src/platform/metrics'
import {
  benchFlags,
  benchMain,
  type BenchCommand,
  cpuTimeMs,
  createTempDatabase,
  fmt,
  LOOPBACK,
  markdownTable,
  numberFlags,
  percentile,
  postgresAvailable,
  registerUser,
  type RunInfo,
  runInfo,
  sleep,
  startServer,
} from './support'

export interface RealtimeFanoutOptions {
  subscribers?: number
  ecosystems?: number
  rate?: number
  duration?: number
  shared?: number
  /** 1: every subscription filters its topics (a list-grammar `or` tree its changes match); 0: none. */
  filter?: number
}

/** The server's METRICS_TOKEN, to read its gap-wait counts at the end. */
const METRICS_TOKEN = 'bench-realtime-fanout-metrics'

export interface RealtimeFanoutResult {
  pass: boolean
  failed?: boolean
  skipped?: string
  run: RunInfo
  subscribers: number
  ecosystems: number
  rate: number
  durationSec: number
  sharedFraction: number
  filtered: boolean
  changes?: number
  deliveries?: number
  expectedDeliveries?: number
  misdelivered?: number
  p50Ms?: number
  p95Ms?: number
  maxMs?: number
  achievedRate?: number
  rssBeforeMb?: number
  rssAfterMb?: number
  serverCpuPct?: number
  connectSec?: number
  /** Reads that met a commit under way: waited for its NOTIFY, and waited on the commit lock (the server's ecobase_realtime_gap_waits_total). */
  gapWaitsNotify?: number
  gapWaitsLock?: number
}

const TARGET_P95_MS = 100
const TARGET_RSS_MB = 300

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

/** Runs `fn` over `items` with at most `limit` at a time. */
async function pooled<T, R>(items: T[], limit: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length)
  let next = 0
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++
        out[i] = await fn(items[i]!, i)
      }
    }),
  )
  return out
}

interface Subscriber {
  ecosystemId: string
  customerId: string
}

/**
 * A stream on a raw socket (Bun's fetch keeps at most 256 requests in flight). Decodes HTTP
 * chunked framing and SSE frames; calls `onChange` with each change's `data` text. Payloads are
 * ASCII, so characters count as bytes.
 */
function openStream(port: number, token: string, topics: string, onChange: (data: string) => void): Promise<{ end(): void }> {
  return new Promise((resolve, reject) => {
    let raw = ''
    let body = ''
    let open = false
    const frames = () => {
      let end: number
      while ((end = body.indexOf('\n\n')) >= 0) {
        const frame = body.slice(0, end)
        body = body.slice(end + 2)
        if (frame.startsWith('id: ') && frame.includes('\nevent: change\n')) onChange(frame.slice(frame.indexOf('\ndata: ') + 7))
      }
    }
    void Bun.connect({
      hostname: LOOPBACK,
      port,
      socket: {
        open(socket) {
          socket.write(
            `GET /realtime/stream?topics=${encodeURIComponent(topics)} HTTP/1.1\r\nHost: ${LOOPBACK}\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`,
          )
        },
        data(socket, data) {
          raw += data.toString()
          if (!open) {
            const end = raw.indexOf('\r\n\r\n')
            if (end < 0) return
            if (!raw.startsWith('HTTP/1.1 200')) return reject(new Error(`stream: ${raw.slice(0, 200)}`))
            open = true
            raw = raw.slice(end + 4)
            resolve({ end: () => socket.end() })
          }
          for (;;) {
            const line = raw.indexOf('\r\n')
            if (line < 0) break
            const size = parseInt(raw.slice(0, line), 16)
            if (raw.length < line + 2 + size + 2) break
            body += raw.slice(line + 2, line + 2 + size)
            raw = raw.slice(line + 2 + size + 2)
          }
          frames()
        },
        error: (_socket, err) => reject(err),
      },
    })
  })
}

export async function benchRealtimeFanout(options: RealtimeFanoutOptions = {}): Promise<RealtimeFanoutResult> {
  const subscribers = options.subscribers ?? 10_000
  const ecosystems = options.ecosystems ?? 100
  const rate = options.rate ?? 1000
  const durationSec = options.duration ?? 20
  const sharedFraction = options.shared ?? 0.02
  const filtered = (options.filter ?? 1) !== 0
  const narrow = filtered ? '?or=(title.like.change*,title.is.null)' : ''
  const topics = `userdata/notes${narrow},community/threads${narrow}`
  const base = { run: runInfo(), subscribers, ecosystems, rate, durationSec, sharedFraction, filtered }
  const log = (line: string) => console.error(line)
  if (!(await postgresAvailable())) return { ...base, pass: false, skipped: 'PostgreSQL not reachable' }

  const db = await createTempDatabase()
  const server = await startServer({ databaseUrl: db.url, label: 'postgres', env: { ACCESS_TOKEN_TTL_SECONDS: '7200', METRICS_TOKEN } })
  const client = postgres(db.url, { max: 16, onnotice: () => {} })
  const streams: { end(): void }[] = []
  try {
    const call = async (method: string, path: string, token: string, body?: unknown, ecosystem?: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...(ecosystem ? { 'x-ecosystem-id': ecosystem } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`)
      return (await res.json()) as any
    }
    const owner = await registerUser(server.url)
    log(`  setting up ${ecosystems} ecosystems × ${subscribers / ecosystems} customers`)
    const ecos: string[] = await pooled(
      Array.from({ length: ecosystems }, (_, i) => i),
      8,
      async (i) => {
        const org = await call('POST', '/registry/organizations', owner.token, { slug: `rt-${i}-${crypto.randomUUID().slice(0, 6)}`, name: `Realtime ${i}` })
        return org.ecosystem.id as string
      },
    )
    const perEco = Math.ceil(subscribers / ecosystems)
    await client`insert into customer.customers (ecosystem_id, external_id)
      select e, 'sub-' || g from unnest(${ecos}::uuid[]) e, generate_series(1, ${perEco}) g`
    const rows = await client<
      { id: string; ecosystem_id: string }[]
    >`select id, ecosystem_id from customer.customers where external_id like 'sub-%' order by ecosystem_id, id limit ${subscribers}`
    const subs: (Subscriber & { token: string })[] = await pooled(rows, 32, async (r) => ({
      ecosystemId: r.ecosystem_id,
      customerId: r.id,
      token: (await call('POST', '/customer/token', owner.token, { customerId: r.id }, r.ecosystem_id)).token as string,
    }))
    const customersOf = new Map<string, string[]>()
    for (const s of subs) customersOf.set(s.ecosystemId, [...(customersOf.get(s.ecosystemId) ?? []), s.customerId])

    await sleep(2000)
    const rssBeforeMb = rssMb(server.pid)
    log(`  server RSS before the streams: ${fmt(rssBeforeMb)} MB; opening ${subs.length} streams`)

    // What arrives: per change number, the arrival times; and deliveries to a stream that should not have it.
    const arrivals = new Map<number, number[]>()
    let misdelivered = 0
    const connectStarted = performance.now()
    await pooled(subs, 200, async (sub) => {
      streams.push(
        await openStream(server.port, sub.token, topics, (data) => {
          const now = performance.now()
          const change = JSON.parse(data) as { topic: string; id: string; record?: { ownerId: string; customerId: string } }
          const n = Number(change.id.slice(6))
          const entitled = change.record?.ownerId === sub.ecosystemId && (change.topic === 'community/threads' || change.record?.customerId === sub.customerId)
          if (!entitled) misdelivered++
          const list = arrivals.get(n) ?? []
          list.push(now)
          arrivals.set(n, list)
        }),
      )
    })
    const connectSec = (performance.now() - connectStarted) / 1000
    log(`  ${streams.length} streams open in ${fmt(connectSec, 1)} s; writing ${rate} changes/s for ${durationSec} s`)
    await sleep(2000)

    // The server's own outbox writer, on this process's connections.
    const writerDb = trackCommits(drizzle(client) as unknown as Db)
    const hub = new RealtimeHub({
      database: {} as Database,
      db: writerDb,
      logger: { error: log } as never,
      // The writer's own metrics are not read: a registry with no database behind it.
      metrics: new Metrics({ watch: { time: () => {} } } as unknown as Database, { process: false }),
      alive: async () => true,
    })
    const committed = new Map<number, number>()
    const expected = new Map<number, number>()
    const cpuBefore = cpuTimeMs(server.pid)
    const started = performance.now()
    const total = rate * durationSec
    let n = 0
    const inFlight = new Set<Promise<void>>()
    while (n < total) {
      const due = Math.floor(((performance.now() - started) / 1000) * rate)
      while (n < Math.min(due, total)) {
        const i = n++
        const eco = ecos[i % ecos.length]!
        const customers = customersOf.get(eco)!
        const customer = customers[Math.floor(Math.random() * customers.length)]!
        const shared = Math.random() < sharedFraction
        expected.set(i, shared ? customers.length : 1)
        const id = `bench-${i}`
        const record = { id, ownerId: eco, customerId: customer, title: `change ${i}`, body: 'x'.repeat(200), createdAt: new Date().toISOString() }
        const write = writerDb
          .transaction((tx) =>
            hub.record(tx, eco, shared ? 'community/threads' : 'userdata/notes', [
              { op: 'insert', id, customerId: customer, audience: shared ? 'shared' : 'own', record },
            ]),
          )
          .then(() => void committed.set(i, performance.now()))
        inFlight.add(write)
        void write.finally(() => inFlight.delete(write))
      }
      await sleep(2)
    }
    await Promise.all(inFlight)
    const writeSec = (performance.now() - started) / 1000
    const expectedDeliveries = [...expected.values()].reduce((a, b) => a + b, 0)
    const deadline = performance.now() + 30_000
    const delivered = () => [...arrivals.values()].reduce((a, b) => a + b.length, 0)
    while (delivered() < expectedDeliveries && performance.now() < deadline) await sleep(50)
    const cpuMs = cpuTimeMs(server.pid) - cpuBefore
    const elapsedMs = performance.now() - started
    const rssAfterMb = rssMb(server.pid)

    // Latencies of the changes after the first two seconds (the server warming up).
    const latencies: number[] = []
    const warm = Math.floor(rate * 2)
    for (const [i, times] of arrivals) if (i >= warm) for (const t of times) latencies.push(Math.max(0, t - committed.get(i)!))
    const exposition = await (await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text()
    const gapWaits = (wait: string) => Number(new RegExp(`^ecobase_realtime_gap_waits_total\\{wait="${wait}"\\} (\\S+)$`, 'm').exec(exposition)?.[1] ?? 0)
    const result: RealtimeFanoutResult = {
      ...base,
      pass: false,
      changes: total,
      deliveries: delivered(),
      expectedDeliveries,
      misdelivered,
      p50Ms: percentile(latencies, 0.5),
      p95Ms: percentile(latencies, 0.95),
      maxMs: Math.max(...latencies),
      achievedRate: total / writeSec,
      rssBeforeMb,
      rssAfterMb,
      serverCpuPct: (cpuMs / elapsedMs) * 100,
      connectSec,
      gapWaitsNotify: gapWaits('notify'),
      gapWaitsLock: gapWaits('lock'),
    }
    result.pass = result.p95Ms! <= TARGET_P95_MS && rssAfterMb - rssBeforeMb <= TARGET_RSS_MB && misdelivered === 0 && result.deliveries === expectedDeliveries
    log(
      `  commit → event p50 ${fmt(result.p50Ms!, 1)} ms, p95 ${fmt(result.p95Ms!, 1)} ms, max ${fmt(result.maxMs!)} ms; ${result.deliveries} of ${expectedDeliveries} deliveries, ${misdelivered} misdelivered; RSS ${fmt(rssBeforeMb)} → ${fmt(rssAfterMb)} MB; server CPU ${fmt(result.serverCpuPct!)} %`,
    )
    return result
  } finally {
    for (const s of streams) s.end()
    await client.end({ timeout: 5 })
    await server.stop()
    await db.drop()
  }
}

export function realtimeFanoutTable(r: RealtimeFanoutResult): string {
  if (r.skipped) return `P13 skipped: ${r.skipped}`
  return markdownTable(
    `| ${fmt(r.subscribers)} streams, ${r.ecosystems} ecosystems, ${fmt(r.rate)} changes/s (${fmt(r.achievedRate!)} achieved) for ${r.durationSec} s, ${fmt(r.sharedFraction * 100)} % shared${r.filtered ? ', every stream filtered' : ''} | value | target |`,
    '|---|---:|---:|',
    [
      `| commit → event p50 | ${fmt(r.p50Ms!, 1)} ms | |`,
      `| commit → event p95 | **${fmt(r.p95Ms!, 1)} ms** | ≤ ${TARGET_P95_MS} ms |`,
      `| max | ${fmt(r.maxMs!)} ms | |`,
      `| deliveries (expected) | ${fmt(r.deliveries!)} (${fmt(r.expectedDeliveries!)}) | all |`,
      `| delivered to a stream not entitled | **${r.misdelivered}** | 0 |`,
      `| server RSS before → after | ${fmt(r.rssBeforeMb!)} → ${fmt(r.rssAfterMb!)} MB (**+${fmt(r.rssAfterMb! - r.rssBeforeMb!)} MB**) | ≤ +${TARGET_RSS_MB} MB |`,
      `| server CPU during the load | ${fmt(r.serverCpuPct!)} % of one core | |`,
      `| opening the streams | ${fmt(r.connectSec!, 1)} s | |`,
      `| reads that met a commit under way: waited for its NOTIFY / on the commit lock | ${fmt(r.gapWaitsNotify ?? 0)} / ${fmt(r.gapWaitsLock ?? 0)} | |`,
    ],
  )
}

export const command: BenchCommand<RealtimeFanoutResult> = {
  name: 'realtime-fanout',
  run: (argv) =>
    benchRealtimeFanout(
      numberFlags(benchFlags(argv), {} as RealtimeFanoutOptions, {
        subscribers: 'subscribers',
        ecosystems: 'ecosystems',
        rate: 'rate',
        duration: 'duration',
        shared: 'shared',
        filter: 'filter',
      }),
    ),
  table: realtimeFanoutTable,
}

if (import.meta.main) await benchMain(command)
