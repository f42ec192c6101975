import { apiError, EcobaseError, thrown } from './errors'
import type {
  Api,
  CommunityCategory,
  CommunityReply,
  CommunityThread,
  DataDocument,
  DataDocumentBlock,
  Notification,
  RealtimeStreamEvent,
  UserdataNote,
} from './schema'
import type { Session } from './session'

/** The record each fixed topic's changes carry: what its list route returns. */
export interface TopicRecords {
  'data/documents': DataDocument
  'data/document_blocks': DataDocumentBlock
  'userdata/notes': UserdataNote
  'community/categories': CommunityCategory
  'community/threads': CommunityThread
  'community/replies': CommunityReply
  notifications: Notification
}

/** A topic and its narrower forms: one row (`/<id>`), and rows a filter in the list grammar matches (`?status=eq.open`). */
type Narrowed<T extends string> = T | `${T}/${string}` | `${T}?${string}`

/**
 * A topic to subscribe to: a fixed one, one thread's replies, or a contract table (`contract/<name>`),
 * each narrowed to one row or to a filter if wanted (`data/documents?status=eq.open`).
 */
export type Topic = Narrowed<keyof TopicRecords> | Narrowed<`community/replies:${string}`> | `contract/${string}`

/** The topic a change names: a narrowed subscription's changes name the topic itself (`community/replies`, `contract/orders`). */
type PathOf<T extends string> = T extends `${infer P}?${string}` ? P : T
type RouteOf<P extends string> = P extends keyof TopicRecords
  ? P
  : P extends `community/replies:${string}`
    ? 'community/replies'
    : P extends `contract/${infer Name}/${string}`
      ? `contract/${Name}`
      : P extends `${infer B extends keyof TopicRecords}/${string}`
        ? B
        : P
type BaseOf<T extends Topic> = RouteOf<PathOf<T>>
type RecordOf<B> = B extends keyof TopicRecords ? TopicRecords[B] : Record<string, unknown>

/**
 * One changed row of a subscribed topic, typed by topic (`record` is absent on delete and leave).
 * `leave`: an update moved the row out of a filtered topic; drop it from that list.
 */
export type Change<T extends Topic = Topic> = {
  [B in BaseOf<T>]:
    | { topic: B; op: 'insert' | 'update'; id: string; record: RecordOf<B>; at: string }
    | { topic: B; op: 'delete' | 'leave'; id: string; at: string }
}[BaseOf<T>]

/**
 * What `subscribe` yields: a change, or `reset` — the lists must be reloaded (the stream was away
 * longer than the server keeps changes, fell too far behind, or its cursor is not this instance's:
 * restored or moved). `cursor` resumes after it.
 */
export type RealtimeEvent<T extends Topic = Topic> =
  | { event: 'change'; cursor: string; data: Change<T> }
  | { event: 'reset'; cursor: string; data: { reason: 'expired' | 'overflow' | 'unknown_cursor' } }

export interface SubscribeOptions {
  /** Resume after this cursor (a `cursor` of an earlier event), as if the stream had never dropped. */
  since?: string
  /** Ends the subscription; the iteration then finishes quietly. */
  signal?: AbortSignal
  /** Called with each reconnection's delay, e.g. to show "reconnecting…". */
  onReconnect?: (delayMs: number, error: EcobaseError) => void
}

/** Statuses worth retrying: the server or the network, not the request. */
const TRANSIENT = new Set([0, 408, 425, 429, 500, 502, 503, 504])
const MAX_DELAY_MS = 15_000

/**
 * Realtime change streams as async iterators that survive the network: a dropped stream
 * reconnects with backoff and resumes from its last cursor (no change lost or repeated while the
 * server keeps them); an expired or revoked token is refreshed before reconnecting.
 *
 * ```ts
 * for await (const ev of client.realtime.subscribe(['data/documents', `community/replies:${threadId}`], { signal })) {
 *   if (ev.event === 'reset') reload()
 *   else if (ev.data.topic === 'data/documents' && 'record' in ev.data) upsert(ev.data.record.title)
 * }
 * ```
 */
export function realtimeClient(api: Api, session: Session) {
  return {
    async *subscribe<const T extends Topic>(topics: readonly T[], options: SubscribeOptions = {}): AsyncGenerator<RealtimeEvent<T>> {
      const { signal } = options
      let cursor = options.since
      let failures = 0
      while (!signal?.aborted) {
        let failure: EcobaseError | null = null
        let stopping: number | null = null
        try {
          const res = await api.realtime.stream.get({ query: { topics: topics.join(','), ...(cursor ? { since: cursor } : {}) }, fetch: { signal } })
          failure = apiError(res)
          if (failure && !TRANSIENT.has(failure.status)) throw failure
          for await (const frame of (res.data ?? []) as AsyncIterable<RealtimeStreamEvent>) {
            failures = 0
            if (frame.event === 'error') {
              // The token expired or its session ended: refresh (a revoked session fails there) and reconnect.
              const stale = session.accessToken ?? undefined
              if (!(await session.refresh(stale))) throw new EcobaseError(401, frame.data.code, frame.data.message)
              break
            }
            // The server is stopping: reconnect (another replica answers) after its `retry`, from the last cursor.
            if (frame.event === 'shutdown') {
              stopping = frame.retry
              break
            }
            cursor = String(frame.id)
            if (frame.event === 'change') yield { event: 'change', cursor, data: frame.data as Change<T> }
            else if (frame.event === 'reset') yield { event: 'reset', cursor, data: frame.data }
          }
        } catch (err) {
          if (signal?.aborted) return
          const error = thrown(err)
          if (!TRANSIENT.has(error.status)) throw error
          failure = error
        }
        if (signal?.aborted) return
        // A stream the server ended (an overflow reset, a restart) reconnects soon; failures back off.
        const delay = stopping ?? (failure ? Math.min(MAX_DELAY_MS, 250 * 2 ** failures++) : 250) * (0.5 + Math.random() / 2)
        if (failure) options.onReconnect?.(delay, failure)
        await sleep(delay, signal)
      }
    },
  }
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal?.removeEventListener('abort', done)
      resolve()
    }
    signal?.addEventListener('abort', done)
  })
}
