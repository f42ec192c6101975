import { type SQL, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Audience, type RowChange, visibleTo } from '../../platform/changes'
import { type Db, queryRows } from '../../platform/db'
import type { StreamCredential, Tenant } from '../../platform/tenancy'
import { changes, purged } from './schema'

/** A place in the outbox: `(transaction id, sequence)`, the order rows are read and delivered in. */
export type Position = readonly [tx: number, seq: number]
const ORIGIN: Position = [0, 0]
const isAfter = (a: Position, b: Position) => a[0] > b[0] || (a[0] === b[0] && a[1] > b[1])

/** A position as streams send it (`id:`) and take it back (`Last-Event-ID`, `?since=`). */
export const cursorOf = (p: Position) => `${p[0]}-${p[1]}`
export function parseCursor(text: string): Position | null {
  const match = /^(\d{1,15})-(\d{1,15})$/.exec(text)
  return match ? [Number(match[1]), Number(match[2])] : null
}

const CHANNEL = 'ecobase_realtime'
/** Rows read per query. */
const BATCH = 500
/** The safety net under NOTIFY: a reader looks for new rows this often anyway. */
const POLL_MS = 1000
/** How soon a reader looks again when rows wait behind a transaction still open. */
const DEFERRED_MS = 20
/** Frames a stream may hold unsent; one more closes it with `reset` instead of growing memory. */
export const MAX_BUFFER = 1000
/** How often expiry is checked, and how often each credential is asked whether it still holds. */
const SWEEP_MS = 1000
const CHECK_MS = 3000

export interface ChangeData {
  topic: string
  op: RowChange['op']
  id: string
  record?: Record<string, unknown>
  at: string
}

export type Frame =
  | { kind: 'change'; position: Position; data: ChangeData }
  | { kind: 'ready'; position: Position }
  | { kind: 'reset'; position: Position; reason: 'expired' | 'overflow' }
  | { kind: 'closed'; code: 'unauthorized' | 'token_expired'; message: string }
  | { kind: 'shutdown' }

interface ChangeRow {
  tx: string
  seq: number | string
  topic: string
  key: string | null
  ecosystem_id: string
  customer_id: string | null
  audience: Audience
  op: RowChange['op']
  row_id: string
  record: Record<string, unknown> | string | null
  at: string | Date
  ready?: boolean
}

const positionOf = (row: ChangeRow): Position => [Number(row.tx), Number(row.seq)]

function dataOf(row: ChangeRow): ChangeData {
  const data: ChangeData = { topic: row.topic, op: row.op, id: row.row_id, at: new Date(row.at).toISOString() }
  if (row.record !== null) data.record = typeof row.record === 'string' ? JSON.parse(row.record) : row.record
  return data
}

/** What a stream's subscriber may see, decided once when it subscribes. */
interface Reader {
  ecosystemId: string
  customerId: string
  admin: boolean
  member: boolean
}

/** One open stream: its topics, what it has been sent, and the frames waiting for it. */
export class Subscription {
  readonly queue: Frame[] = []
  /** Live frames that arrive while the stream still reads its backlog from the outbox. */
  held: Frame[] | null = null
  ended = false
  private wake: () => void = () => {}

  constructor(
    readonly tenant: Tenant,
    readonly credential: StreamCredential,
    readonly topics: readonly string[],
    readonly reader: Reader,
    /** The last position sent (or skipped as not this stream's). */
    public cursor: Position,
    /** Set when the stream resumes from a cursor: read the outbox from there first. */
    readonly backlog: boolean,
  ) {}

  /** A change read by the replica's reader: kept if this stream may see it and has not had it. */
  offer(frame: Extract<Frame, { kind: 'change' }>, audience: Audience, owner: string | null): void {
    if (this.ended || !visibleTo(audience, this.reader, owner)) return
    if (this.held) {
      this.held.push(frame)
      if (this.held.length > MAX_BUFFER) this.overflow()
      return
    }
    if (!isAfter(frame.position, this.cursor)) return
    this.cursor = frame.position
    this.queue.push(frame)
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

export interface HubDeps extends Pick<Deps, 'database' | 'db' | 'logger'> {
  /** Whether a stream's credential still holds (session not revoked, API token not deleted, still a member). */
  alive(credential: StreamCredential, tenant: Tenant): Promise<boolean>
}

/**
 * The realtime outbox and its fan-out. Writers append changed rows in their own transaction and
 * send one payload-free NOTIFY per transaction. Each replica runs one reader that reads new rows in
 * `(tx, seq)` order, taking a row only once every transaction older than its own has ended (its
 * transaction id is below the snapshot's xmin): rows of transactions that commit late are never
 * skipped, and no position is ever passed twice. Each row goes, in memory, to the streams
 * subscribed to its topic in its ecosystem that its audience admits: no query per subscriber.
 */
export class RealtimeHub {
  private head: Position = ORIGIN
  private readonly byTopic = new Map<string, Set<Subscription>>()
  private readonly streams = new Set<Subscription>()
  private readonly checkedAt = new Map<string, number>()
  private reading: Promise<void> | null = null
  private again = false
  private retry: ReturnType<typeof setTimeout> | null = null
  private sweeping = false
  /** Where the reader reads: a connection of its own once started. */
  private reader: Db


  constructor(private readonly deps: HubDeps) {
    this.reader = deps.db
  }

  /**
   * Appends changed rows to the outbox in the writer's transaction, and the payload-free wake-up in
   * the same statement (one round trip per write); PostgreSQL delivers a transaction's identical
   * notifications once, at its commit.
   */
  async record(tx: Db, ecosystemId: string, topic: string, rows: RowChange[]): Promise<void> {
    const values = rows.map(
      (c) => sql`(${topic}, ${c.key ?? null}, ${ecosystemId}, ${c.customerId}, ${c.audience}, ${c.op}, ${c.id}, ${c.record === undefined ? null : JSON.stringify(c.record)}::jsonb)`,
    )
    await tx.execute(
      sql`with added as (insert into ${changes} (topic, key, ecosystem_id, customer_id, audience, op, row_id, record) values ${sql.join(values, sql`, `)} returning 1)
          select pg_notify(${CHANNEL}, '') from (select count(*) from added) as n`,
    )
  }

  /** Starts this replica's reader (NOTIFY, with a poll under it) and the credential sweep; resolves to their stop. */
  async start(): Promise<() => Promise<void>> {
    const connection = await this.deps.database.dedicated()
    this.reader = connection.db
    this.head = await this.latest()
    const unlisten = await this.deps.database.listen(CHANNEL, () => this.poke())
    const poll = setInterval(() => this.poke(), POLL_MS)
    const sweep = setInterval(() => void this.sweep(), SWEEP_MS)
    return async () => {
      clearInterval(poll)
      clearInterval(sweep)
      if (this.retry) clearTimeout(this.retry)
      await unlisten()
      await this.reading
      this.reader = this.deps.db
      connection.release()
    }
  }

  /** The last position the retention job purged, or null when none was. */
  async horizon(): Promise<Position | null> {
    const [row] = await queryRows<{ tx: string; seq: number | string }>(this.deps.db, sql`select tx::text as tx, seq from ${purged} where id = 1`)
    return row ? [Number(row.tx), Number(row.seq)] : null
  }

  /** Registers a stream: from now on the reader offers it every change of its topics. */
  add(sub: Subscription): void {
    if (sub.backlog) sub.held = []
    this.streams.add(sub)
    for (const topic of sub.topics) {
      const key = `${sub.reader.ecosystemId} ${topic}`
      const set = this.byTopic.get(key) ?? new Set()
      this.byTopic.set(key, set.add(sub))
    }
  }

  remove(sub: Subscription): void {
    sub.ended = true
    this.streams.delete(sub)
    for (const topic of sub.topics) {
      const key = `${sub.reader.ecosystemId} ${topic}`
      const set = this.byTopic.get(key)
      set?.delete(sub)
      if (set?.size === 0) this.byTopic.delete(key)
    }
  }

  /**
   * The backlog of a resuming stream, page by page: its topics' rows after its cursor that the
   * reader has already passed or will pass (older transactions ended). Then the live frames held
   * meanwhile, each sent once.
   */
  async *backlog(sub: Subscription): AsyncGenerator<Frame> {
    const bases = [...new Set(sub.topics.map((t) => t.split(':')[0]!))]
    const keyed = new Set(sub.topics)
    for (;;) {
      const rows = await this.rowsAfter(
        this.deps.db,
        sub.cursor,
        sql`and ${changes.ecosystemId} = ${sub.reader.ecosystemId} and ${changes.topic} in (${sql.join(bases.map((b) => sql`${b}`), sql`, `)}) and tx < pg_snapshot_xmin(pg_current_snapshot())`,
      )
      for (const row of rows) {
        if (sub.ended) return
        sub.cursor = positionOf(row)
        const wanted = keyed.has(row.topic) || (row.key !== null && keyed.has(`${row.topic}:${row.key}`))
        if (wanted && visibleTo(row.audience, sub.reader, row.customer_id)) yield { kind: 'change', position: sub.cursor, data: dataOf(row) }
      }
      if (rows.length < BATCH) break
    }
    const held = sub.held ?? []
    sub.held = null
    for (const frame of held) {
      if (frame.kind !== 'change' || !isAfter(frame.position, sub.cursor)) continue
      sub.cursor = frame.position
      yield frame
    }
  }

  /** Reads now, or once more after the read under way. */
  private poke(): void {
    if (this.reading) {
      this.again = true
      return
    }
    this.reading = this.read()
      .catch((err) => this.deps.logger.error('realtime read failed', { error: String(err) }))
      .finally(() => {
        this.reading = null
      })
  }

  private async read(): Promise<void> {
    do {
      this.again = false
      const rows = await this.rowsAfter(this.reader, this.head, sql``, true)
      let deferred = false
      for (const row of rows) {
        if (!row.ready) {
          deferred = true
          break
        }
        this.head = positionOf(row)
        this.dispatch(row)
      }
      if (deferred) this.retry ??= setTimeout(() => ((this.retry = null), this.poke()), DEFERRED_MS)
      else if (rows.length === BATCH) this.again = true
    } while (this.again)
  }

  private dispatch(row: ChangeRow): void {
    const frame = { kind: 'change' as const, position: positionOf(row), data: dataOf(row) }
    const exact = this.byTopic.get(`${row.ecosystem_id} ${row.topic}`)
    const keyed = row.key === null ? undefined : this.byTopic.get(`${row.ecosystem_id} ${row.topic}:${row.key}`)
    if (exact) for (const sub of exact) sub.offer(frame, row.audience, row.customer_id)
    if (keyed) for (const sub of keyed) sub.offer(frame, row.audience, row.customer_id)
  }

  private rowsAfter(db: Db, after: Position, where: SQL, withReady = false): Promise<ChangeRow[]> {
    const ready = withReady ? sql`, tx < pg_snapshot_xmin(pg_current_snapshot()) as ready` : sql``
    return queryRows<ChangeRow>(
      db,
      sql`select tx::text as tx, seq, topic, key, ecosystem_id, customer_id, audience, op, row_id, record, at${ready}
          from ${changes} where (tx, seq) > (${String(after[0])}::xid8, ${after[1]}) ${where}
          order by tx, seq limit ${BATCH}`,
    )
  }

  /**
   * The newest position every older transaction has passed: a reader, or a stream that starts now,
   * starts there (every change committed later has a greater position).
   */
  async latest(): Promise<Position> {
    const [row] = await queryRows<ChangeRow>(
      this.deps.db,
      sql`select tx::text as tx, seq from ${changes} where tx < pg_snapshot_xmin(pg_current_snapshot()) order by tx desc, seq desc limit 1`,
    )
    return row ? positionOf(row) : ORIGIN
  }

  /**
   * Ends streams whose access token expired (checked in memory every second) or whose credential
   * no longer holds (asked once per credential every few seconds, however many streams share it).
   */
  private async sweep(): Promise<void> {
    if (this.sweeping) return
    this.sweeping = true
    try {
      const now = Date.now()
      const byCredential = Map.groupBy(this.streams, (s) => s.credential.key)
      for (const key of this.checkedAt.keys()) if (!byCredential.has(key)) this.checkedAt.delete(key)
      const due: Subscription[][] = []
      for (const [key, subs] of byCredential) {
        const { expiresAt } = subs[0]!.credential
        if (expiresAt !== null && expiresAt <= now) {
          for (const sub of subs) sub.close({ kind: 'closed', code: 'token_expired', message: 'The access token has expired: reconnect with a fresh one and your cursor' })
        } else if (now - (this.checkedAt.get(key) ?? 0) >= CHECK_MS) {
          this.checkedAt.set(key, now)
          due.push(subs)
        }
      }
      for (let i = 0; i < due.length; i += 50) {
        await Promise.all(
          due.slice(i, i + 50).map(async (subs) => {
            const first = subs[0]!
            if (await this.deps.alive(first.credential, first.tenant).catch(() => true)) return
            for (const sub of subs) sub.close({ kind: 'closed', code: 'unauthorized', message: 'The session or token behind this stream was revoked' })
          }),
        )
      }
    } finally {
      this.sweeping = false
    }
  }
}
