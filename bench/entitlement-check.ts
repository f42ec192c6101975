/**
 * B1 (issue 26): what billing's entitlement check adds to the two paths it guards, in-process on
 * PGlite and PostgreSQL. A default plan limits `storage.bytes` and `chat.messages`. Timed: the
 * gate on the presign path (`storage.bytes` reserved: the plan from the per-replica cache, the
 * bytes from this replica's lease, no query; a new lease now and then, in a transaction) and on the chat path (`chat.messages` reserved in the send's
 * transaction: one upsert), each against the whole request it sits in (POST /storage/uploads; a
 * chat send on the built-in dev model, read to its end). Target: ≤ 0.2 ms p50 added on each.
 *
 *   npx bun bench/entitlement-check.ts [--db=pglite,postgres] [--requests=2000]
 */
import { sql } from 'drizzle-orm'
import { CHAT_MESSAGES, STORAGE_BYTES } from '../src/platform/entitlements'
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
} from './support'

const TARGET_MS = 0.2

export interface EntitlementCheckOptions {
  backends?: Backend[]
  requests?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  storageGateMs?: number
  presignMs?: number
  chatGateMs?: number
  /** The same gate's mean: the sends that take a lease (about one in 50 here) included. */
  chatGateMeanMs?: number
  /** The same with no limit on chat.messages: metered after commit, in batches. */
  chatMeterMs?: number
  chatSendMs?: number
}

export interface EntitlementCheckResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  requests: number
  backends: BackendResult[]
}

async function timed(count: number, fn: (i: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = []
  for (let i = 0; i < count; i++) {
    const started = performance.now()
    const inner = await fn(i)
    out.push(typeof inner === 'number' ? inner : performance.now() - started)
  }
  return out
}

export async function benchEntitlementCheck(options: EntitlementCheckOptions = {}): Promise<EntitlementCheckResult> {
  const requests = options.requests ?? 2000
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const bench = await inProcessApp(backend)
    try {
      const eco = bench.owner.ecosystemId
      const asOwner = { token: bench.owner.token, headers: { 'x-ecosystem-id': eco } }
      await bench.call('POST', '/billing/plans', {
        ...asOwner,
        body: {
          key: 'bench',
          name: 'Bench',
          isDefault: true,
          entitlements: [
            { feature: STORAGE_BYTES, limit: 1e12 },
            { feature: CHAT_MESSAGES, limit: 1e9 },
          ],
        },
      })
      const gate = bench.app.services.billing.entitlements
      const who = { ecosystemId: eco, customerId: bench.customer.customerId }
      const warm = Math.ceil(requests / 10)

      // The reserve as the presign runs it: bytes held from this replica's lease (no query), committed
      // once the pending row is written; about one presign in many takes a new lease in a transaction.
      const storageGate = async () => {
        const held = await gate.hold({ ...who, feature: STORAGE_BYTES, amount: 1000 })
        if (held) return held.commit()
        await bench.deps.db.transaction((tx) => gate.require({ ...who, feature: STORAGE_BYTES, amount: 1000, reserve: true, tx }))
      }
      await timed(warm, storageGate)
      const storage = await timed(requests, storageGate)

      const presign = (i: number) =>
        bench.call('POST', '/storage/uploads', {
          token: bench.customer.token,
          body: { filename: `f${i}`, contentType: 'application/octet-stream', sizeBytes: 1000, contentHash: i.toString(16).padStart(64, '0') },
        })
      await timed(warm, (i) => presign(requests + i))
      const presigns = await timed(requests, presign)

      // The reserve as the chat send runs it: inside the send's transaction, timed alone.
      const chatGate = () =>
        bench.deps.db.transaction(async (tx) => {
          await tx.execute(sql`select 1`)
          const started = performance.now()
          await gate.require({ ...who, feature: CHAT_MESSAGES, amount: 1, reserve: true, tx })
          return performance.now() - started
        })
      await timed(warm, chatGate)
      const chat = await timed(requests, chatGate)
      await bench.call('PATCH', '/billing/plans/bench', { ...asOwner, body: { entitlements: [{ feature: STORAGE_BYTES, limit: 1e12 }] } })
      await timed(warm, chatGate)
      const metered = await timed(requests, chatGate)

      const { id } = await bench.call('POST', '/chat/conversations', { token: bench.customer.token, body: {} })
      const send = async (i: number) => {
        const res = await bench.app.handle(
          new Request(`http://localhost/chat/conversations/${id}/messages`, {
            method: 'POST',
            headers: { authorization: `Bearer ${bench.customer.token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ message: `m${i}` }),
          }),
        )
        await res.text()
      }
      const sends = Math.min(requests, 500)
      await timed(Math.ceil(sends / 10), send)
      const chatSends = await timed(sends, send)

      const result = {
        backend,
        storageGateMs: percentile(storage, 0.5),
        presignMs: percentile(presigns, 0.5),
        chatGateMs: percentile(chat, 0.5),
        chatGateMeanMs: chat.reduce((a, b) => a + b, 0) / chat.length,
        chatMeterMs: percentile(metered, 0.5),
        chatSendMs: percentile(chatSends, 0.5),
      }
      log(
        `  ${backend}: storage gate ${fmt(result.storageGateMs * 1000)} µs of a ${fmt(result.presignMs, 2)} ms presign; chat under a hard limit ${fmt(result.chatGateMs * 1000)} µs (mean ${fmt(result.chatGateMeanMs * 1000)} µs), with no limit ${fmt(result.chatMeterMs * 1000)} µs, of a ${fmt(result.chatSendMs, 2)} ms send`,
      )
      return result
    } finally {
      await bench.close()
    }
  })
  const pass = backends.every(
    (b) => b.storageGateMs === undefined || (b.storageGateMs <= TARGET_MS && b.chatGateMs! <= TARGET_MS && b.chatMeterMs! <= TARGET_MS),
  )
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), requests, backends }
}

export function entitlementCheckTable(r: EntitlementCheckResult): string {
  const rows = r.backends.map((b) =>
    b.storageGateMs === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | | |`
      : `| ${b.backend} | **${fmt(b.storageGateMs * 1000)} µs** of ${fmt(b.presignMs!, 2)} ms (${fmt((b.storageGateMs / b.presignMs!) * 100, 1)} %) | **${fmt(b.chatGateMs! * 1000)} µs** of ${fmt(b.chatSendMs!, 2)} ms (${fmt((b.chatGateMs! / b.chatSendMs!) * 100, 1)} %) | ${fmt(b.chatGateMeanMs! * 1000)} µs | **${fmt(b.chatMeterMs! * 1000)} µs** (${fmt((b.chatMeterMs! / b.chatSendMs!) * 100, 1)} %) |`,
  )
  return markdownTable(
    `| database (${fmt(r.requests)} timed each, p50) | storage.bytes gate ÷ POST /storage/uploads (≤ ${TARGET_MS * 1000} µs) | chat.messages under a hard limit ÷ chat send (≤ ${TARGET_MS * 1000} µs) | the same, mean (lease takes included) | chat.messages with no limit (metered) |`,
    '|---|---:|---:|---:|---:|',
    rows,
  )
}

export const command: BenchCommand<EntitlementCheckResult> = {
  name: 'entitlement-check',
  run: (argv) => benchEntitlementCheck(benchArgs<EntitlementCheckOptions>(argv, { requests: 'requests' }).opts),
  table: entitlementCheckTable,
}

if (import.meta.main) await benchMain(command)
