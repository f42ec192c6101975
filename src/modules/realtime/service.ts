import type { TopicDefinition } from '../../platform/changes'
import { isAdmin } from '../../platform/crud/resource'
import { AppError } from '../../platform/errors'
import type { Shutdown } from '../../platform/shutdown'
import { meetsLevel, type StreamCredential, type Tenant } from '../../platform/tenancy'
import { realtimeError } from './errors'
import { type Frame, parseCursor, type RealtimeHub, Subscription } from './hub'
import type { StreamTickets } from './tickets'

export const MAX_TOPICS = 20
const HEARTBEAT_MS = 15_000

/** Streams of changes to the topics modules offer (platform/changes), and the tickets that open them. */
export class RealtimeService {
  constructor(
    private readonly hub: RealtimeHub,
    readonly tickets: StreamTickets,
    /** Every module's topics (asked when a stream subscribes: complete once the app is built). */
    private readonly topics: () => TopicDefinition[],
    private readonly shutdown: Shutdown,
  ) {}

  /**
   * Opens a stream on `topics` (comma-separated) for the caller, from `since` (a cursor) or from
   * now. Refusals come before the stream starts: 400 for an unknown topic or cursor, the list
   * route's 403/404 for a topic the caller may not list.
   */
  async subscribe(tenant: Tenant, credential: StreamCredential, topics: string, since: string | null): Promise<Subscription> {
    const wanted = [...new Set(topics.split(',').map((t) => t.trim()).filter(Boolean))]
    if (wanted.length === 0 || wanted.length > MAX_TOPICS) throw new AppError(400, 'validation_failed', `query.topics: name 1 to ${MAX_TOPICS} topics, comma-separated`)
    for (const topic of wanted) await this.authorize(tenant, topic)
    const from = since === null ? null : parseCursor(since)
    if (since !== null && !from) throw realtimeError(400, 'invalid_cursor', 'Last-Event-ID / since: not a cursor this service sent (`<tx>-<seq>`)')
    const horizon = from ? await this.hub.horizon() : null
    const expired = Boolean(from && horizon && !(from[0] > horizon[0] || (from[0] === horizon[0] && from[1] > horizon[1])))
    const reader = { ecosystemId: tenant.ecosystemId, customerId: tenant.customerId, admin: isAdmin(tenant), member: tenant.actor.kind === 'user' }
    const sub = new Subscription(tenant, credential, wanted, reader, from && !expired ? from : await this.hub.latest(), Boolean(from && !expired))
    this.hub.add(sub)
    if (expired) sub.queue.push({ kind: 'reset', position: sub.cursor, reason: 'expired' })
    return sub
  }

  /**
   * What a stream sends, in order: `ready` (with the cursor it starts from), its backlog when it
   * resumes, then changes as they commit; null is a heartbeat (every 15 s of silence). Ends after
   * a `closed` frame or an overflow `reset`, when the client goes, or at once with a `shutdown`
   * frame when the server stops.
   */
  async *frames(sub: Subscription, request: AbortSignal): AsyncGenerator<Frame | null> {
    const signal = this.shutdown.streamSignal(request)
    try {
      yield { kind: 'ready', position: sub.cursor }
      if (sub.backlog) for await (const frame of this.hub.backlog(sub)) yield frame
      while (!signal.aborted) {
        const next = sub.queue.shift()
        if (next) {
          yield next
          if (next.kind === 'closed' || (next.kind === 'reset' && next.reason === 'overflow')) return
          continue
        }
        if (sub.ended) return
        if (await sub.waitFor(HEARTBEAT_MS, signal)) yield null
      }
      if (this.shutdown.draining && !request.aborted) yield { kind: 'shutdown' }
    } finally {
      this.hub.remove(sub)
    }
  }

  private async authorize(tenant: Tenant, topic: string): Promise<void> {
    const [base, key, ...rest] = topic.split(':')
    const definition = this.topics().find((d) => (d.topic.endsWith('/*') ? base!.startsWith(d.topic.slice(0, -1)) && base!.length > d.topic.length - 1 : d.topic === base))
    if (!definition || rest.length || (key !== undefined && (!definition.keyedBy || !key || key.length > 200))) {
      throw realtimeError(400, 'unknown_topic', `query.topics: ${JSON.stringify(topic.slice(0, 200))} is not a realtime topic`)
    }
    if (!meetsLevel(tenant, definition.level)) throw new AppError(403, 'forbidden', `${base} needs the ${definition.level} role`)
    await definition.authorize?.(tenant, base!)
  }
}
