import { type Audience, type RowChange, visibleTo } from '../../platform/changes'
import { matches } from '../../platform/crud/match'
import type { Condition } from '../../platform/crud/query'
import type { StreamCredential, Tenant } from '../../platform/tenancy'
import { isAfter, type Position } from './cursor'

/** Frames a stream may hold unsent; one more closes it with `reset` instead of growing memory. */
export const MAX_BUFFER = 1000
/** Rows a filtered subscription remembers having sent `leave` for (so each leaves once). */
const MAX_LEFT = 10_000

export interface ChangeData {
  topic: string
  /** `leave`: an update moved the row out of a filtered subscription (its record is then absent). */
  op: RowChange['op'] | 'leave'
  id: string
  record?: Record<string, unknown>
  at: string
}

export type Frame =
  /** `committedAt` (ms, the database's clock): set on changes read live, for the delivery lag; a backlog's are old by design. */
  | { kind: 'change'; position: Position; data: ChangeData; committedAt?: number }
  | { kind: 'ready'; position: Position }
  | { kind: 'reset'; position: Position; reason: 'expired' | 'overflow' | 'unknown_cursor' }
  | { kind: 'closed'; code: 'unauthorized' | 'token_expired'; message: string }
  | { kind: 'shutdown' }

/** What a stream's subscriber may see, decided once when it subscribes. */
export interface Reader {
  ecosystemId: string
  customerId: string
  admin: boolean
  member: boolean
}

/**
 * One subscribed topic as the hub routes it: `route` is the topic or `topic:<key>` the outbox rows
 * name; `id` narrows it to one row (`data/documents/<id>`); `filter` to the rows the list grammar's
 * conditions match, decided on the change's record.
 */
export interface TopicSpec {
  route: string
  id?: string
  filter?: readonly Condition[]
}

/** One open stream: its topics, what it has been sent, and the frames waiting for it. */
export class Subscription {
  readonly queue: Frame[] = []
  /** Live frames that arrive while the stream still reads its backlog from the outbox. */
  held: Frame[] | null = null
  ended = false
  private wake: () => void = () => {}
  private readonly specs = new Map<string, TopicSpec[]>()
  /** Rows a filtered topic has sent `leave` for, until they match again. */
  private readonly left = new Set<string>()

  constructor(
    readonly tenant: Tenant,
    readonly credential: StreamCredential,
    topics: readonly TopicSpec[],
    readonly reader: Reader,
    /** The last position sent (or skipped as not this stream's). */
    public cursor: Position,
    /** Set when the stream resumes from a cursor: read the outbox from there first. */
    readonly backlog: boolean,
  ) {
    for (const spec of topics) this.specs.set(spec.route, [...(this.specs.get(spec.route) ?? []), spec])
  }

  /** The routes (`topic` or `topic:<key>`) the hub offers this stream's changes under. */
  get routes(): string[] {
    return [...this.specs.keys()]
  }

  /**
   * What this stream is sent of a change that came under `route`: the change, a `leave` for an
   * update that moved a row it was shown out of a filter, or nothing.
   */
  decide(data: ChangeData, route: string, audience: Audience, owner: string | null): ChangeData | null {
    if (!visibleTo(audience, this.reader, owner)) return null
    const specs = (this.specs.get(route) ?? []).filter((s) => s.id === undefined || s.id === data.id)
    if (!specs.length) return null
    if (data.op === 'delete') {
      this.left.delete(data.id)
      return data
    }
    if (specs.some((s) => !s.filter || (data.record && matches(s.filter, data.record)))) {
      this.left.delete(data.id)
      return data
    }
    if (data.op !== 'update' || this.left.has(data.id)) return null
    this.left.add(data.id)
    if (this.left.size > MAX_LEFT) this.left.delete(this.left.values().next().value!)
    return { topic: data.topic, op: 'leave', id: data.id, at: data.at }
  }

  /** A change read by the replica's reader, under one of this stream's routes: kept if this stream may see it and has not had it. */
  offer(frame: Extract<Frame, { kind: 'change' }>, route: string, audience: Audience, owner: string | null): void {
    if (this.ended) return
    if (!this.held && !isAfter(frame.position, this.cursor)) return
    const data = this.decide(frame.data, route, audience, owner)
    if (!data) return
    const kept = data === frame.data ? frame : { ...frame, data }
    if (this.held) {
      this.held.push(kept)
      if (this.held.length > MAX_BUFFER) this.overflow()
      return
    }
    this.cursor = frame.position
    this.queue.push(kept)
    if (this.queue.length > MAX_BUFFER) this.overflow()
    this.wake()
  }

  /** Ends the stream after `frame` (and whatever is queued before it). */
  close(frame: Frame): void {
    if (this.ended) return
    this.ended = true
    this.queue.push(frame)
    this.wake()
  }

  /** Resolves true after `ms` with nothing new (time for a heartbeat), false as soon as a frame or the end arrives. */
  waitFor(ms: number, signal: AbortSignal): Promise<boolean> {
    return new Promise((resolve) => {
      const done = (beat: boolean) => {
        clearTimeout(timer)
        signal.removeEventListener('abort', aborted)
        this.wake = () => {}
        resolve(beat)
      }
      const aborted = () => done(false)
      const timer = setTimeout(() => done(true), ms)
      signal.addEventListener('abort', aborted)
      this.wake = () => done(false)
    })
  }

  private overflow(): void {
    this.queue.length = 0
    this.held = null
    this.close({ kind: 'reset', position: this.cursor, reason: 'overflow' })
  }
}
