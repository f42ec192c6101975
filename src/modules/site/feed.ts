import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { constant, type Db } from '../../platform/db'
import { listPage, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import { feedItems } from './schema'
import { siteError } from './errors'

type Row = typeof feedItems.$inferSelect

/** What an area records about a change, in the change's transaction. */
export interface FeedEntry {
  ecosystemId: string
  customerId: string
  source: string
  entityType: string
  entityId?: string | null
  action: string
  /** One line a person reads. */
  summary: string
  actorId?: string | null
  metadata?: Record<string, unknown> | null
}

export interface FeedWriter {
  record(tx: Db, entry: FeedEntry): Promise<void>
}

const CHANNEL = 'site_feed'
/** NOTIFY payloads are at most 8,000 bytes; a larger item is announced by its customer only. */
const MAX_NOTICE_BYTES = 7900
/** How many delivered item numbers a stream remembers, to send none twice. */
const REMEMBERED = 1000
/** Items read per query while a stream catches up. */
const REPLAY_LIMIT = 100
const HEARTBEAT_MS = 25_000

export const feedView = (r: Row) => ({
  id: r.id,
  customerId: r.customerId,
  ownerId: r.ecosystemId,
  source: r.source,
  entityType: r.entityType,
  entityId: r.entityId,
  action: r.action,
  summary: r.summary,
  actorId: r.actorId,
  metadata: r.metadata,
  isRead: r.isRead,
  createdAt: r.createdAt.toISOString(),
  deletedAt: null,
})
export type FeedItemView = ReturnType<typeof feedView>
/** What NOTIFY carries at commit: the item itself, or only whose it is (the stream then reads it). */
type Notice = { c: string; s?: number; i?: FeedItemView }

/**
 * The site activity feed: items per customer written by the areas in the transaction of the change,
 * read and marked read by their customer, and pushed live to open streams on every replica: NOTIFY
 * at commit carries the item to the streams of its customer, so a fan-out to many costs no read.
 */
export class FeedService implements FeedWriter {
  private readonly waiting = new Map<string, Set<(notice: Notice) => void>>()

  constructor(private readonly deps: Pick<Deps, 'database' | 'db' | 'now' | 'shutdown'>) {}

  async record(tx: Db, entry: FeedEntry): Promise<void> {
    const [row] = await tx
      .insert(feedItems)
      .values({
        ecosystemId: entry.ecosystemId,
        customerId: entry.customerId,
        source: entry.source,
        entityType: entry.entityType,
        entityId: entry.entityId ?? null,
        action: entry.action,
        summary: entry.summary,
        actorId: entry.actorId ?? null,
        metadata: entry.metadata ? JSON.stringify(entry.metadata) : null,
      })
      .returning()
    const full = JSON.stringify({ c: entry.customerId, s: row!.seq, i: feedView(row!) } satisfies Notice)
    const notice = Buffer.byteLength(full) <= MAX_NOTICE_BYTES ? full : JSON.stringify({ c: entry.customerId } satisfies Notice)
    await tx.execute(sql`select pg_notify(${CHANNEL}, ${notice})`)
  }

  async list(tenant: Tenant, filter: { unread?: boolean; source?: string }, page: PageParams) {
    const where = and(
      eq(feedItems.customerId, tenant.customerId),
      filter.unread ? eq(feedItems.isRead, constant(false)) : undefined,
      filter.source ? eq(feedItems.source, filter.source) : undefined,
    )
    return listPage(this.deps.db, feedItems, where, [desc(feedItems.createdAt), desc(feedItems.seq)], page, feedView)
  }

  async unreadCount(tenant: Tenant) {
    const [row] = await this.deps.db
      .select({ n: count() })
      .from(feedItems)
      .where(and(eq(feedItems.customerId, tenant.customerId), eq(feedItems.isRead, constant(false))))
    return { count: row?.n ?? 0 }
  }

  async markRead(tenant: Tenant, id: string) {
    const [row] = await this.deps.db
      .update(feedItems)
      .set({ isRead: true, readAt: sql`coalesce(${feedItems.readAt}, ${this.deps.now().toISOString()}::timestamptz)` })
      .where(and(eq(feedItems.customerId, tenant.customerId), eq(feedItems.id, id)))
      .returning()
    if (!row) throw siteError(404, 'not_found', 'No such feed item')
    return feedView(row)
  }

  async markAllRead(tenant: Tenant) {
    const rows = await this.deps.db
      .update(feedItems)
      .set({ isRead: true, readAt: this.deps.now() })
      .where(and(eq(feedItems.customerId, tenant.customerId), eq(feedItems.isRead, constant(false))))
      .returning({ id: feedItems.id })
    return { updated: rows.length }
  }

  /** Wakes this replica's streams when an item commits (on any replica). */
  listen(): Promise<() => Promise<void>> {
    return this.deps.database.listen(CHANNEL, (payload) => {
      const notice = JSON.parse(payload) as Notice
      for (const deliver of this.waiting.get(notice.c) ?? []) deliver(notice)
    })
  }

  /**
   * New items of the caller as they are written: first every item after `lastSeq` (a reconnect's
   * Last-Event-ID), then live. `null` is a heartbeat; `shutdown` the last frame when the server stops.
   */
  async *stream(tenant: Tenant, lastSeq: number | null, request: AbortSignal): AsyncGenerator<{ seq: number; item: FeedItemView } | null | 'shutdown'> {
    const signal = this.deps.shutdown.streamSignal(request)
    const since = lastSeq ?? (await this.latestSeq(tenant.customerId))
    let cursor = since
    // Items carried by notices, and whether one came without its item (then the stream reads).
    const pushed: { seq: number; item: FeedItemView }[] = []
    let pending = true
    let wake: () => void = () => {}
    const notified = (notice: Notice) => {
      if (notice.i && notice.s !== undefined) pushed.push({ seq: notice.s, item: notice.i })
      else pending = true
      wake()
    }
    // Transactions can commit out of `seq` order, so what was sent is remembered rather than inferred from the cursor.
    const sent = new Set<number>()
    const fresh = (seq: number) => {
      if (seq <= since || sent.has(seq)) return false
      sent.add(seq)
      if (sent.size > REMEMBERED) sent.delete(sent.values().next().value!)
      cursor = Math.max(cursor, seq)
      return true
    }
    const waiting = this.waiting.get(tenant.customerId) ?? new Set()
    this.waiting.set(tenant.customerId, waiting.add(notified))
    const aborted = () => wake()
    signal.addEventListener('abort', aborted)
    try {
      while (!signal.aborted) {
        if (pending) {
          pending = false
          const rows = await this.after(tenant.customerId, cursor)
          for (const row of rows) if (fresh(row.seq)) yield { seq: row.seq, item: feedView(row) }
          if (rows.length === REPLAY_LIMIT) pending = true
          continue
        }
        const next = pushed.shift()
        if (next) {
          if (fresh(next.seq)) yield next
          continue
        }
        const heartbeat = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), HEARTBEAT_MS)
          wake = () => {
            clearTimeout(timer)
            resolve(false)
          }
        })
        if (heartbeat) yield null
      }
      if (this.deps.shutdown.draining && !request.aborted) yield 'shutdown'
    } finally {
      signal.removeEventListener('abort', aborted)
      waiting.delete(notified)
      if (waiting.size === 0) this.waiting.delete(tenant.customerId)
    }
  }

  private async latestSeq(customerId: string): Promise<number> {
    const [row] = await this.deps.db
      .select({ seq: feedItems.seq })
      .from(feedItems)
      .where(eq(feedItems.customerId, customerId))
      .orderBy(desc(feedItems.seq))
      .limit(1)
    return row?.seq ?? 0
  }

  private async after(customerId: string, seq: number) {
    return this.deps.db
      .select()
      .from(feedItems)
      .where(and(eq(feedItems.customerId, customerId), gt(feedItems.seq, seq)))
      .orderBy(asc(feedItems.seq))
      .limit(REPLAY_LIMIT)
  }
}

/** For the overview: the ecosystem's newest `limit` feed items, across its customers. */
export function recentActivity(db: Db, ecosystemId: string, limit: number) {
  return db
    .select({
      id: feedItems.id,
      customerId: feedItems.customerId,
      source: feedItems.source,
      action: feedItems.action,
      summary: feedItems.summary,
      createdAt: feedItems.createdAt,
    })
    .from(feedItems)
    .where(eq(feedItems.ecosystemId, ecosystemId))
    .orderBy(desc(feedItems.createdAt), desc(feedItems.id))
    .limit(limit)
}
