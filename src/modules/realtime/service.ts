import type { RowChange, TopicDefinition } from '../../platform/changes'
import type { Db } from '../../platform/db'
import { splitList } from '../../platform/crud/grammar'
import { parseListQuery, rawQuery, RESERVED_KEYS } from '../../platform/crud/query'
import { AppError } from '../../platform/errors'
import type { Metrics } from '../../platform/metrics'
import { UUID_PATTERN } from '../../platform/params'
import type { Shutdown } from '../../platform/shutdown'
import { isAdmin, meetsLevel, type StreamCredential, type Tenant } from '../../platform/tenancy'
import { realtimeError } from './errors'
import { isAfter, parseCursor } from './cursor'
import type { RealtimeHub } from './hub'
import { type Frame, Subscription, type TopicSpec } from './subscription'
import type { StreamTickets } from './tickets'

export const MAX_TOPICS = 20
const HEARTBEAT_MS = 15_000
/** NOTIFY brings a change in milliseconds; the reader's poll, a commit wait or a slow client in seconds. */
const LAG_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** Streams of changes to the topics modules offer (platform/changes), and the tickets that open them. */
export class RealtimeService {
  private readonly lag: { observe(seconds: number): void }

  constructor(
    private readonly hub: RealtimeHub,
    readonly tickets: StreamTickets,
    /** Every module's topics (asked when a stream subscribes: complete once the app is built). */
    private readonly topics: () => TopicDefinition[],
    private readonly shutdown: Shutdown,
    metrics: Metrics,
  ) {
    metrics.sampled({ name: 'ecobase_realtime_subscribers', help: 'Realtime change streams open on this replica' }, () => [{ value: hub.subscribers }])
    this.lag = metrics
      .histogram({
        name: 'ecobase_realtime_delivery_lag_seconds',
        help: 'From a change’s commit (the database’s clock) to its frame handed to a live stream (a resumed stream’s backlog left out)',
        buckets: LAG_BUCKETS,
      })
      .of({})
  }

  /** This instance's epoch: the first part of every cursor. */
  get epoch(): string {
    return this.hub.epoch
  }

  /** Puts the changes of a `<area>.rows.changed` event in the outbox, in the transaction of the change. */
  record(tx: Db, ecosystemId: string, topic: string, changes: RowChange[]): Promise<void> {
    return this.hub.record(tx, ecosystemId, topic, changes)
  }

  /**
   * Opens a stream on `topics` (comma-separated) for the caller, from `since` (a cursor) or from
   * now. Refusals come before the stream starts: 400 for an unknown topic, filter or cursor, the
   * list route's 403/404 for a topic the caller may not list. A cursor this instance did not send
   * (another epoch, an older form, or past its newest change) and one older than the retention
   * window start the stream from now after a `reset`.
   */
  async subscribe(tenant: Tenant, credential: StreamCredential, topics: string, since: string | null): Promise<Subscription> {
    const wanted = [
      ...new Set(
        splitList(`(${topics})`, 'query.topics')
          .map((t) => t.trim())
          .filter(Boolean),
      ),
    ]
    if (wanted.length === 0 || wanted.length > MAX_TOPICS)
      throw new AppError(400, 'validation_failed', `query.topics: name 1 to ${MAX_TOPICS} topics, comma-separated`)
    const specs: TopicSpec[] = []
    for (const topic of wanted) specs.push(await this.resolve(tenant, topic))
    const cursor = since === null ? null : parseCursor(since)
    if (since !== null && !cursor) throw realtimeError(400, 'invalid_cursor', 'Last-Event-ID / since: not a cursor this service sent (`<epoch>.<pos>.<seq>`)')
    const latest = await this.hub.latest()
    let reset: Extract<Frame, { kind: 'reset' }>['reason'] | null = null
    if (cursor === 'legacy' || (cursor && (cursor.epoch !== this.hub.epoch || isAfter(cursor.position, latest)))) reset = 'unknown_cursor'
    else if (cursor) {
      const horizon = await this.hub.horizon()
      if (horizon && isAfter(horizon, cursor.position)) reset = 'expired'
    }
    const resume = cursor && cursor !== 'legacy' && !reset ? cursor.position : null
    const reader = { ecosystemId: tenant.ecosystemId, customerId: tenant.customerId, admin: isAdmin(tenant), member: tenant.actor.kind === 'user' }
    const sub = new Subscription(tenant, credential, specs, reader, resume ?? latest, resume !== null)
    this.hub.add(sub)
    if (reset) sub.queue.push({ kind: 'reset', position: sub.cursor, reason: reset })
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
      if (sub.backlog)
        for await (const frame of this.hub.backlog(sub)) {
          this.delivered(frame)
          yield frame
        }
      while (!signal.aborted) {
        const next = sub.queue.shift()
        if (next) {
          this.delivered(next)
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

  /** Times a frame handed to its stream from its change's commit: changes read live only (see Frame). */
  private delivered(frame: Frame): void {
    if (frame.kind === 'change' && frame.committedAt !== undefined) this.lag.observe(Math.max(0, Date.now() - frame.committedAt) / 1000)
  }

  /**
   * A topic as written — `<topic>[:<key>][/<id>][?<filters>]` — checked against the topics modules
   * offer and the caller's access (the list route's own refusals), its filters parsed with the list
   * route's grammar and columns.
   */
  private async resolve(tenant: Tenant, topic: string): Promise<TopicSpec> {
    const unknown = () => realtimeError(400, 'unknown_topic', `query.topics: ${JSON.stringify(topic.slice(0, 200))} is not a realtime topic`)
    const question = topic.indexOf('?')
    const path = question < 0 ? topic : topic.slice(0, question)
    // `<topic>/<id>`: one row of the topic.
    const single = ONE_ROW.exec(path)
    const id = single && this.find(single[1]!) ? single[2]!.toLowerCase() : undefined
    const [base = '', keyPart, ...rest] = (id ? single![1]! : path).split(':')
    const definition = this.find(base)
    if (!definition || rest.length || (keyPart !== undefined && (!definition.keyedBy || !keyPart || keyPart.length > 200))) throw unknown()
    if (!meetsLevel(tenant, definition.level)) throw new AppError(403, 'forbidden', `${base} needs the ${definition.level} role`)
    await definition.authorize?.(tenant, base)
    const spec: TopicSpec = { route: keyPart === undefined ? base : `${base}:${keyPart}`, ...(id ? { id } : {}) }
    if (question < 0) return spec
    const where = `query.topics: ${path}`
    if (!definition.filterable) throw new AppError(400, 'validation_failed', `${where}: this topic takes no filter`)
    const raw = rawQuery(`http://filter/?${topic.slice(question + 1)}`)
    const reserved = Object.keys(raw).find((k) => (RESERVED_KEYS as readonly string[]).includes(k))
    if (reserved) throw new AppError(400, 'validation_failed', `${where}: a topic takes filters only, not ${reserved}`)
    const query = parseListQuery(raw, { filterable: await definition.filterable(tenant, base), sortable: [], defaultSort: [] })
    if (!query.filters.length) throw new AppError(400, 'validation_failed', `${where}: an empty filter`)
    return { ...spec, filter: query.filters }
  }

  private find(base: string): TopicDefinition | undefined {
    return this.topics().find((d) =>
      d.topic.endsWith('/*')
        ? base.startsWith(d.topic.slice(0, -1)) && base.length > d.topic.length - 1 && !base.slice(d.topic.length - 1).includes('/')
        : d.topic === base,
    )
  }
}

const ONE_ROW = new RegExp(`^([^:?]+)/(${UUID_PATTERN})$`, 'i')
