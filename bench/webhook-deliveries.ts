/**
 * P12a: outbound webhook deliveries per second to a local receiver, on PGlite and PostgreSQL,
 * in-process: `deliveries` events queued in one transaction for one endpoint, then the app's own
 * queue workers (JOBS=on, as one replica) send them, each signed, its outcome written, until all
 * have succeeded (timed from the commit). As a ratio in the same run: the same number of signed POSTs sent one after another
 * by a bare loop (HMAC + fetch, nothing stored), the floor a queue-backed sender is measured against.
 *
 *   npx bun bench/webhook-deliveries.ts [--db=pglite,postgres] [--deliveries=2000]
 */
import { sql } from 'drizzle-orm'
import { sign } from '../src/modules/integrations/service'
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
  type RunInfo,
  runInfo,
  sleep,
} from './support'
import { customerCreated } from '../src/modules/customer/events'

export interface WebhookDeliveriesOptions {
  backends?: Backend[]
  deliveries?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  perSec?: number
  barePerSec?: number
  enqueueMs?: number
}

export interface WebhookDeliveriesResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  deliveries: number
  backends: BackendResult[]
}

export async function benchWebhookDeliveries(options: WebhookDeliveriesOptions = {}): Promise<WebhookDeliveriesResult> {
  const count = options.deliveries ?? 2000
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    let received = 0
    const receiver = Bun.serve({
      port: 0,
      async fetch(req) {
        await req.arrayBuffer()
        received++
        return new Response(null, { status: 204 })
      },
    })
    // JOBS=on: the app's own queue workers deliver, as on a replica; nothing is due until the events commit.
    const bench = await inProcessApp(backend, { env: { WEBHOOK_PRIVATE_ADDRESSES: 'allow', JOBS: 'on' } })
    try {
      const eco = bench.owner.ecosystemId
      const url = `http://127.0.0.1:${receiver.port}/hook`
      const { secret } = await bench.call('POST', '/integrations/webhooks', {
        token: bench.owner.token,
        headers: { 'x-ecosystem-id': eco },
        body: { url, events: ['customer.created'] },
      })

      const payload = JSON.stringify({ type: 'customer.created', timestamp: new Date().toISOString(), data: { id: crypto.randomUUID() } })
      const bareStarted = performance.now()
      for (let i = 0; i < count; i++) {
        const id = crypto.randomUUID()
        const timestamp = Math.floor(Date.now() / 1000)
        const res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'webhook-id': id,
            'webhook-timestamp': String(timestamp),
            'webhook-signature': sign(secret, id, timestamp, payload),
          },
          body: payload,
        })
        await res.body?.cancel()
      }
      const barePerSec = count / ((performance.now() - bareStarted) / 1000)
      received = 0

      const enqueueStarted = performance.now()
      await bench.deps.db.transaction(async (tx) => {
        for (let i = 0; i < count; i++)
          await bench.app.bus.emit(tx, customerCreated, eco, {
            id: crypto.randomUUID(),
            externalId: null,
            email: null,
            name: null,
            createdAt: new Date().toISOString(),
          })
      })
      const started = performance.now()
      const enqueueMs = started - enqueueStarted
      for (;;) {
        const [row] = await queryRows<{ done: number }>(
          bench.deps.db,
          sql`select count(*)::int as done from integrations.deliveries where status = 'succeeded'`,
        )
        if (row!.done >= count) break
        if (performance.now() - started > 600_000) throw new Error(`${row!.done} of ${count} delivered in 10 min`)
        await sleep(50)
      }
      const perSec = count / ((performance.now() - started) / 1000)
      if (received !== count) throw new Error(`the receiver got ${received} of ${count}`)
      log(`  ${backend}: ${fmt(perSec)} deliveries/s (bare signed POSTs: ${fmt(barePerSec)}/s); queuing ${count} in one transaction ${fmt(enqueueMs)} ms`)
      return { backend, perSec, barePerSec, enqueueMs }
    } finally {
      await bench.close()
      receiver.stop(true)
    }
  })
  return { pass: true, failed: backends.some((b) => b.error), run: runInfo(), deliveries: count, backends }
}

export function webhookDeliveriesTable(result: WebhookDeliveriesResult): string {
  const rows = result.backends.map((b) =>
    b.perSec === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | | |`
      : `| ${b.backend} | **${fmt(b.perSec)}/s** | ${fmt(b.barePerSec!)}/s | ${(b.perSec / b.barePerSec!).toFixed(2)} | ${fmt(b.enqueueMs!)} ms |`,
  )
  return markdownTable(
    `| database (${fmt(result.deliveries)} deliveries, one replica) | delivered, signed and recorded | bare signed POSTs, one after another | ratio | queuing them in one transaction |`,
    '|---|---:|---:|---:|---:|',
    rows,
  )
}

export const command: BenchCommand<WebhookDeliveriesResult> = {
  name: 'webhook-deliveries',
  run: (argv) => benchWebhookDeliveries(benchArgs<WebhookDeliveriesOptions>(argv, { deliveries: 'deliveries' }).opts),
  table: webhookDeliveriesTable,
}

if (import.meta.main) await benchMain(command)
