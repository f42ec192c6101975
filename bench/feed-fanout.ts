/**
 * P12b: site feed fan-out. 1,000 customers each hold `GET /site/feed/stream` open over HTTP (a Bun
 * server around the app, in this process); one transaction then writes one item for every one of
 * them (as an announcement to all would). Reported: time from the commit to each customer's `item`
 * event (p50 / p95 / max), and the write transaction's own time, on PGlite and PostgreSQL.
 * The readers share this process's cores with the server, so the figures are an upper bound.
 *
 *   npx bun bench/feed-fanout.ts [--db=pglite,postgres] [--listeners=1000] [--rounds=3]
 */
import { sql } from 'drizzle-orm'

import { queryRows } from '../src/platform/db'
import {
  BACKENDS,
  type Backend,
  benchArgs,
  benchMain,
  type BenchCommand,
  eachBackend,
  fmt,
  inProcessApp,
  markdownTable,
  percentile,
  type RunInfo,
  runInfo,
  sleep,
} from './support'

export interface FeedFanoutOptions {
  backends?: Backend[]
  listeners?: number
  rounds?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  p50Ms?: number
  p95Ms?: number
  maxMs?: number
  writeMs?: number
}

export interface FeedFanoutResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  listeners: number
  rounds: number
  backends: BackendResult[]
}

const TARGET_P95_MS = 50

/**
 * Opens `GET /site/feed/stream` on a raw socket (Bun's fetch keeps at most 256 requests in flight,
 * and every open stream is one) and calls `onItem` at each `item` event.
 */
function openStream(port: number, token: string, onItem: () => void): Promise<{ end(): void }> {
  return new Promise((resolve, reject) => {
    let text = ''
    let open = false
    void Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open(socket) {
          socket.write(`GET /site/feed/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nAccept: text/event-stream\r\n\r\n`)
        },
        data(socket, data) {
          text += data.toString()
          if (!open) {
            const end = text.indexOf('\r\n\r\n')
            if (end < 0) return
            if (!text.startsWith('HTTP/1.1 200')) return reject(new Error(`stream: ${text.slice(0, 40)}`))
            open = true
            text = text.slice(end + 4)
            resolve({ end: () => socket.end() })
          }
          let at: number
          while ((at = text.indexOf('event: item')) >= 0) {
            onItem()
            text = text.slice(at + 11)
          }
        },
        error: (_socket, err) => reject(err),
      },
    })
  })
}

export async function benchFeedFanout(options: FeedFanoutOptions = {}): Promise<FeedFanoutResult> {
  const listeners = options.listeners ?? 1000
  const rounds = options.rounds ?? 3
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const bench = await inProcessApp(backend)
    const unlisten = await bench.app.followRevocations()
    const server = Bun.serve({ port: 0, idleTimeout: 0, fetch: (req) => bench.app.handle(req) })
    try {
      const eco = bench.owner.ecosystemId
      const asOwner = { token: bench.owner.token, headers: { 'x-ecosystem-id': eco } }
      await bench.deps.db.execute(
        sql`insert into customer.customers (ecosystem_id, external_id) select ${eco}::uuid, 'listener-' || g from generate_series(1, ${listeners}) g`,
      )
      const customers = await queryRows<{ id: string }>(
        bench.deps.db,
        sql`select id from customer.customers where ecosystem_id = ${eco}::uuid and external_id like 'listener-%' order by external_id`,
      )
      const tokens: string[] = []
      for (const c of customers) tokens.push((await bench.call('POST', '/customer/token', { ...asOwner, body: { customerId: c.id } })).token)

      const arrivals: number[][] = []
      let round = -1
      await Promise.all(tokens.map((token) => openStream(server.port!, token, () => arrivals[round]?.push(performance.now()))))
      await sleep(500)

      const latencies: number[] = []
      const writes: number[] = []
      for (round = 0; round < rounds; round++) {
        arrivals[round] = []
        const started = performance.now()
        await bench.deps.db.transaction(async (tx) => {
          for (const c of customers) {
            await bench.app.services.site.feed.record(tx, {
              ecosystemId: eco,
              customerId: c.id,
              source: 'bench',
              entityType: 'bench',
              action: 'created',
              summary: `round ${round}`,
            })
          }
        })
        const committed = performance.now()
        writes.push(committed - started)
        const deadline = committed + 30_000
        while (arrivals[round]!.length < listeners && performance.now() < deadline) await sleep(5)
        if (arrivals[round]!.length < listeners) throw new Error(`round ${round}: ${arrivals[round]!.length} of ${listeners} items arrived within 30 s`)
        latencies.push(...arrivals[round]!.map((t) => t - committed))
        await sleep(300)
      }
      const result = {
        backend,
        p50Ms: percentile(latencies, 0.5),
        p95Ms: percentile(latencies, 0.95),
        maxMs: Math.max(...latencies),
        writeMs: percentile(writes, 0.5),
      }
      log(
        `  ${backend}: commit → item p50 ${fmt(result.p50Ms, 1)} ms, p95 ${fmt(result.p95Ms, 1)} ms, max ${fmt(result.maxMs, 1)} ms; writing ${listeners} items ${fmt(result.writeMs)} ms`,
      )
      return result
    } finally {
      server.stop(true)
      await unlisten()
      await bench.close()
    }
  })
  const pass = backends.every((b) => b.p95Ms === undefined || b.p95Ms <= TARGET_P95_MS)
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), listeners, rounds, backends }
}

export function feedFanoutTable(result: FeedFanoutResult): string {
  const rows = result.backends.map((b) =>
    b.p95Ms === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | | |`
      : `| ${b.backend} | ${fmt(b.p50Ms!, 1)} ms | **${fmt(b.p95Ms, 1)} ms** | ${fmt(b.maxMs!, 1)} ms | ${fmt(b.writeMs!)} ms |`,
  )
  return markdownTable(
    `| database (${fmt(result.listeners)} open streams, ${result.rounds} rounds) | commit → item p50 | p95 (≤ ${TARGET_P95_MS} ms) | max | the writing transaction |`,
    '|---|---:|---:|---:|---:|',
    rows,
  )
}

export const command: BenchCommand<FeedFanoutResult> = {
  name: 'feed-fanout',
  run: (argv) => benchFeedFanout(benchArgs<FeedFanoutOptions>(argv, { listeners: 'listeners', rounds: 'rounds' }).opts),
  table: feedFanoutTable,
}

if (import.meta.main) await benchMain(command)
