import { sql } from 'drizzle-orm'
import type { Database, Db } from './db'
import { afterCommit } from './db/commit'

export interface ReplicaCacheOptions<V> {
  /** The NOTIFY channel every replica listens on; the payload is the changed key (or what `concerns` reads). */
  channel: string
  /** At most this many entries; the least recently used goes first. */
  limit: number
  /** Upper bound on how long an entry is trusted should a NOTIFY be missed (the LISTEN connection dropped). */
  ttlMs: number
  /**
   * Whether a change announced as `changed` concerns the entry `key` holding `value` (default: the
   * change names the key), for a change that clears several entries: an ecosystem's under its id and
   * its rdid, or every customer's standing in an ecosystem.
   */
  concerns?: (changed: string, key: string, value: V) => boolean
}

/** Tells the replicas' caches on `channel` that `key` changed in `tx` (for writers that keep no cache themselves, such as the command line). */
export function announceChange(tx: Db, channel: string, key: string): Promise<unknown> {
  return tx.execute(sql`select pg_notify(${channel}, ${key})`)
}

interface Load<V> {
  promise: Promise<V | undefined>
  /** Changes announced while the load ran: an answer one of them concerns may predate it and is not kept. */
  changes: string[]
}

const byKey = (changed: string, key: string) => changed === key

/**
 * Rows a replica keeps in memory by key, filled on first use and forgotten on every change: on the
 * writing replica once the changing transaction commits, on every other one through a NOTIFY sent
 * in that transaction (delivered at commit). A load that overlaps a change is answered but not
 * kept, so a row read before the commit is never served after it; concurrent loads of one key
 * share one query (unless a load reads in the caller's transaction).
 */
export class ReplicaCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>()
  /** Loads under way that later reads of their key may join. */
  private readonly loads = new Map<string, Load<V>>()
  /** Every load under way, joinable or not, to hear of changes. */
  private readonly running = new Set<Load<V>>()
  private readonly concerns: (changed: string, key: string, value: V) => boolean

  constructor(
    private readonly deps: { database: Pick<Database, 'listen'> },
    private readonly options: ReplicaCacheOptions<V>,
  ) {
    this.concerns = options.concerns ?? byKey
  }

  get size(): number {
    return this.entries.size
  }

  /**
   * The cached value of `key`, else what `load` finds (kept unless undefined). `shared: false` when
   * `load` reads in the caller's transaction: it joins no load under way and none joins it (a read on
   * the pool waiting for it, or it for one on the pool, would wait forever on PGlite's one connection).
   */
  get(key: string, load: () => Promise<V | undefined>, options: { shared?: boolean } = {}): Promise<V | undefined> {
    const shared = options.shared ?? true
    const hit = this.cached(key)
    if (hit !== undefined) return Promise.resolve(hit)
    const running = shared ? this.loads.get(key) : undefined
    if (running) return running.promise
    const started: Load<V> = { changes: [], promise: Promise.resolve(undefined) }
    const done = () => {
      this.running.delete(started)
      if (this.loads.get(key) === started) this.loads.delete(key)
    }
    started.promise = load().then(
      (value) => {
        done()
        if (value !== undefined && !started.changes.some((changed) => this.concerns(changed, key, value))) this.keep(key, value)
        return value
      },
      (err: unknown) => {
        done()
        throw err
      },
    )
    this.running.add(started)
    if (shared) this.loads.set(key, started)
    return started.promise
  }

  /**
   * The value kept for `key` while it is trusted, else undefined, without a promise: for the paths
   * every request takes (a session's liveness, an account's factors), which then await only a miss.
   */
  cached(key: string): V | undefined {
    const entry = this.entries.get(key)
    if (!entry || entry.until <= Date.now()) return undefined
    this.entries.delete(key)
    this.entries.set(key, entry)
    return entry.value
  }

  /** `key` changed in `tx`: every replica forgets it when `tx` commits (this one as the commit returns). */
  async changed(tx: Db, key: string): Promise<void> {
    await announceChange(tx, this.options.channel, key)
    afterCommit(tx, () => this.forget(key))
  }

  /** Follows changes made on other replicas; resolves to its stop. */
  listen(): Promise<() => Promise<void>> {
    return this.deps.database.listen(this.options.channel, (key) => this.forget(key))
  }

  /** Forgets what the change announced as `changed` concerns, here and now. */
  forget(changed: string): void {
    if (this.options.concerns) {
      for (const [key, entry] of this.entries) if (this.concerns(changed, key, entry.value)) this.entries.delete(key)
    } else this.entries.delete(changed)
    for (const load of this.running) load.changes.push(changed)
    // A load under way may predate the change: later reads start their own (which of them the change
    // concerns is known only by key without `concerns`).
    if (this.options.concerns) this.loads.clear()
    else this.loads.delete(changed)
  }

  private keep(key: string, value: V): void {
    this.entries.delete(key)
    while (this.entries.size >= this.options.limit) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { value, until: Date.now() + this.options.ttlMs })
  }
}
