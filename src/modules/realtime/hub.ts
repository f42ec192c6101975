import { type SQL, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Audience, RowChange } from '../../platform/changes'
import { type Db, queryRows, sqlState } from '../../platform/db'
import { lockInTransaction } from '../../platform/db/locks'
import type { CounterTally } from '../../platform/tally'
import type { StreamCredential, Tenant } from '../../platform/tenancy'
import { isAfter, ORIGIN, type Position } from './cursor'
import type { ChangeData, Frame, Subscription } from './subscription'
import { commits, changes, epoch, purged } from './schema'

const CHANNEL = 'ecobase_realtime'
/**
 * The lock a committing writer holds shared (drizzle/0042's trigger takes
 * `hashtext('ecobase:realtime-commit')`; the name must stay the same): taken exclusively, it waits
 * for every commit under way.
 */
const COMMIT_LOCK = 'ecobase:realtime-commit'
/** Rows read per query. */
const BATCH = 500
/** The safety net under NOTIFY: a reader looks for new rows this often anyway. */
const POLL_MS = 1000
/** How long a reader waits for a missing place's own NOTIFY before it waits on the commit lock. */
const GAP_PATIENCE_MS = 25
/** How soon a reader looks again when a commit under way held it up for longer than it waits. */
const DEFERRED_MS = 20
/** How long a reader waits for the commits under way behind a missing position before it looks again. */
const COMMIT_WAIT = sql`'1s'`
/** How often expiry is checked, and how often each credential is asked whether it still holds. */
const SWEEP_MS = 1000
const CHECK_MS = 3000

interface ChangeRow {
  pos: number | string
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
  /** When its transaction took its place in commit order, in ms since the epoch. */
  committed_ms: number | string
}

const positionOf = (row: { pos: number | string; seq: number | string }): Position => [Number(row.pos), Number(row.seq)]

function dataOf(row: ChangeRow): ChangeData {
  const data: ChangeData = { topic: row.topic, op: row.op, id: row.row_id, at: new Date(row.at).toISOString() }
  if (row.record !== null) data.record = typeof row.record === 'string' ? JSON.parse(row.record) : row.record
  return data
}

export interface HubDeps extends Pick<Deps, 'database' | 'db' | 'logger' | 'metrics'> {
  /** Whether a stream's credential still holds (session not revoked, API token not deleted, still a member). */
  alive(credential: StreamCredential, tenant: Tenant): Promise<boolean>
}

/**
 * The realtime outbox and its fan-out. Writers append changed rows in their own transaction and
 * send one payload-free NOTIFY per transaction; as each commits it takes its place in commit order
 * (realtime.commits, drizzle/0042). Each replica runs one reader that reads new rows in that order.
 * A place missing below a visible one belongs to a commit still under way (the reader takes the
 * commit lock to wait for those, and only those) or to a transaction that rolled back: so a
 * transaction left open anywhere delays no one, and no row is ever passed and then committed. Each
 * row goes, in memory, to the streams subscribed to its topic in its ecosystem that its audience and
 * their filters admit: no query per subscriber.
 */
export class RealtimeHub {
  private head: Position = ORIGIN
  private readonly byTopic = new Map<string, Set<Subscription>>()
  private readonly streams = new Set<Subscription>()
  private readonly checkedAt = new Map<string, number>()
  private reading: Promise<void> | null = null
  private again = false
  private retry: ReturnType<typeof setTimeout> | null = null
  /** Since when the reader has seen a missing place it has not waited out yet. */
  private gapSince: number | null = null
  /** Reads that met a missing place: waited for its NOTIFY (`notify`), or on the commit lock (`lock`). */
  private readonly gapWaits: CounterTally<'wait'>
  private sweeping = false
  /** Where the reader reads: a connection of its own once started. */
  private reader: Db
  /** This instance's epoch (realtime.epoch), in every cursor. */
  epoch = ''

  constructor(private readonly deps: HubDeps) {
    this.reader = deps.db
    this.gapWaits = deps.metrics.counter({
      name: 'ecobase_realtime_gap_waits_total',
      help: 'Reads of the realtime outbox that met a commit still under way: waited for its NOTIFY (wait="notify"), or on the commit lock, holding every committing writer (wait="lock")',
      labelNames: ['wait'],
    })
  }

  /**
   * Appends changed rows to the outbox in the writer's transaction, and the payload-free wake-up in
   * the same statement (one round trip per write); PostgreSQL delivers a transaction's identical
   * notifications once, at its commit.
   */
  async record(tx: Db, ecosystemId: string, topic: string, rows: RowChange[]): Promise<void> {
    const values = rows.map(
      (c) =>
        sql`(${topic}, ${c.key ?? null}, ${ecosystemId}, ${c.customerId}, ${c.audience}, ${c.op}, ${c.id}, ${c.record === undefined ? null : JSON.stringify(c.record)}::jsonb)`,
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
    this.epoch = await this.readEpoch()
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
    const [row] = await queryRows<{ pos: string; seq: number | string }>(this.deps.db, sql`select pos, seq from ${purged} where id = 1`)
    return row ? positionOf(row) : null
  }

  /** Streams open on this replica. */
  get subscribers(): number {
    return this.streams.size
  }

  /** Registers a stream: from now on the reader offers it every change of its topics. */
  add(sub: Subscription): void {
    if (sub.backlog) sub.held = []
    this.streams.add(sub)
    for (const route of sub.routes) {
      const key = `${sub.reader.ecosystemId} ${route}`
      const set = this.byTopic.get(key) ?? new Set()
      this.byTopic.set(key, set.add(sub))
    }
  }

  remove(sub: Subscription): void {
    sub.ended = true
    this.streams.delete(sub)
    for (const route of sub.routes) {
      const key = `${sub.reader.ecosystemId} ${route}`
      const set = this.byTopic.get(key)
      set?.delete(sub)
      if (set?.size === 0) this.byTopic.delete(key)
    }
  }

  /**
   * The backlog of a resuming stream, page by page: its topics' rows after its cursor up to where the
   * reader has passed (later ones reach it live). Then the live frames held meanwhile, each sent once.
   */
  async *backlog(sub: Subscription): AsyncGenerator<Frame> {
    const routes = sub.routes
    const bases = [...new Set(routes.map((r) => r.split(':')[0]!))]
    const upTo = this.head
    for (;;) {
      const rows = await this.rowsAfter(
        this.deps.db,
        sub.cursor,
        sql`and c.ecosystem_id = ${sub.reader.ecosystemId} and c.topic in (${sql.join(
          bases.map((b) => sql`${b}`),
          sql`, `,
        )}) and (k.pos, c.seq) <= (${upTo[0]}, ${upTo[1]})`,
      )
      for (const row of rows) {
        if (sub.ended) return
        sub.cursor = positionOf(row)
        const route = routes.includes(row.topic) ? row.topic : row.key !== null && routes.includes(`${row.topic}:${row.key}`) ? `${row.topic}:${row.key}` : null
        const data = route === null ? null : sub.decide(dataOf(row), route, row.audience, row.customer_id)
        if (data) yield { kind: 'change', position: sub.cursor, data }
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

  /**
   * Reads the rows after the head in commit order and hands on those before the first missing place.
   * A missing place is a commit under way (almost always: its NOTIFY wakes the reader again within a
   * millisecond or two, so the reader first just waits for that, up to GAP_PATIENCE_MS) or a
   * rollback. A place still missing after that: the reader waits for the commits under way (the
   * commit lock, which holds every committing writer while it waits, so only then; at most a second
   * before it looks again) and reads once more; what is still missing then never comes, and the head
   * moves past it.
   */
  private async read(): Promise<void> {
    do {
      this.again = false
      let rows = await this.rowsAfter(this.reader, this.head, sql``)
      const gap = gapAt(this.head, rows)
      if (gap >= 0) {
        this.deliver(rows.slice(0, gap))
        this.gapSince ??= Date.now()
        const waited = Date.now() - this.gapSince
        if (waited < GAP_PATIENCE_MS) {
          this.gapWaits.of({ wait: 'notify' }).inc()
          this.later(GAP_PATIENCE_MS - waited)
          return
        }
        this.gapWaits.of({ wait: 'lock' }).inc()
        if (!(await this.awaitCommits(this.reader))) {
          this.later(DEFERRED_MS)
          return
        }
        rows = await this.rowsAfter(this.reader, this.head, sql``)
      }
      this.gapSince = null
      this.deliver(rows)
      if (rows.length === BATCH) this.again = true
    } while (this.again)
  }

  private deliver(rows: ChangeRow[]): void {
    for (const row of rows) {
      this.head = positionOf(row)
      this.dispatch(row)
    }
  }

  /** Reads again in `ms`, unless a read is already due (a NOTIFY reads at once anyway). */
  private later(ms: number): void {
    this.retry ??= setTimeout(() => {
      this.retry = null
      this.poke()
    }, ms)
  }

  /** Waits until every commit under way has ended (true), or a second has passed (false). */
  private async awaitCommits(db: Db): Promise<boolean> {
    try {
      await db.transaction(async (tx) => {
        await tx.execute(sql`set local lock_timeout = ${COMMIT_WAIT}`)
        await lockInTransaction(tx, COMMIT_LOCK)
      })
      return true
    } catch (err) {
      if (sqlState(err) === '55P03') return false
      throw err
    }
  }

  private dispatch(row: ChangeRow): void {
    const frame = { kind: 'change' as const, position: positionOf(row), data: dataOf(row), committedAt: Number(row.committed_ms) }
    const exact = this.byTopic.get(`${row.ecosystem_id} ${row.topic}`)
    const keyed = row.key === null ? undefined : `${row.topic}:${row.key}`
    const narrow = keyed === undefined ? undefined : this.byTopic.get(`${row.ecosystem_id} ${keyed}`)
    if (exact) for (const sub of exact) sub.offer(frame, row.topic, row.audience, row.customer_id)
    if (narrow) for (const sub of narrow) sub.offer(frame, keyed!, row.audience, row.customer_id)
  }

  private rowsAfter(db: Db, after: Position, where: SQL): Promise<ChangeRow[]> {
    return queryRows<ChangeRow>(
      db,
      sql`select k.pos, c.seq, c.topic, c.key, c.ecosystem_id, c.customer_id, c.audience, c.op, c.row_id, c.record, c.at,
                 (extract(epoch from k.committed_at) * 1000)::float8 as committed_ms
          from ${commits} k join ${changes} c on c.tx = k.tx
          where (k.pos, c.seq) > (${after[0]}, ${after[1]}) ${where}
          order by k.pos, c.seq limit ${BATCH}`,
    )
  }

  /**
   * The newest place every change committed so far is at or before: a stream that starts now starts
   * there, so each change acknowledged before it is at or before it, and each later one after it
   * (the `ready` contract). Places missing below it are waited for (commits under way) first.
   */
  async latest(): Promise<Position> {
    const horizon = (await this.horizon()) ?? ORIGIN
    const floor = Math.max(this.head[0], horizon[0])
    const read = async () => {
      const [row] = await queryRows<{ pos: string; seq: number | string; places: number }>(
        this.deps.db,
        sql`select k.pos, (select max(c.seq) from ${changes} c where c.tx = k.tx) as seq,
                   (select count(*)::int from ${commits} where pos > ${floor} and pos <= k.pos) as places
            from ${commits} k order by k.pos desc limit 1`,
      )
      return row
    }
    let row = await read()
    // A place missing between what is known settled and the newest: wait for the commits under way.
    if (row && Number(row.pos) > floor && row.places !== Number(row.pos) - floor && (await this.awaitCommits(this.deps.db))) row = await read()
    const newest: Position = row ? positionOf(row) : ORIGIN
    return isAfter(horizon, newest) ? horizon : newest
  }

  /** This instance's epoch; made when missing (a database created before epochs). */
  private async readEpoch(): Promise<string> {
    const [row] = await queryRows<{ value: string }>(this.deps.db, sql`select value from ${epoch} where id = 1`)
    return row?.value ?? renewEpoch(this.deps.db)
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
          for (const sub of subs)
            sub.close({ kind: 'closed', code: 'token_expired', message: 'The access token has expired: reconnect with a fresh one and your cursor' })
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

/**
 * The index of the first row read after `head` that skips a place in commit order (a commit under way,
 * or a rollback), or -1. Places are consecutive numbers; a transaction's rows share one.
 */
function gapAt(head: Position, rows: ChangeRow[]): number {
  let last = head[0]
  for (const [i, row] of rows.entries()) {
    const pos = Number(row.pos)
    if (pos > last + 1 && !(last === 0 && head[1] === 0 && pos === 1)) return i
    last = pos
  }
  return -1
}

/**
 * Gives the instance a new epoch: cursors streams sent before no longer resume here (they reset with
 * `unknown_cursor`). A restore does it, since the restored history is not the one they followed.
 */
export async function renewEpoch(db: Db): Promise<string> {
  const value = crypto.getRandomValues(new Uint8Array(4)).reduce((hex, b) => hex + b.toString(16).padStart(2, '0'), '')
  await db.insert(epoch).values({ id: 1, value }).onConflictDoUpdate({ target: epoch.id, set: { value } })
  return value
}
