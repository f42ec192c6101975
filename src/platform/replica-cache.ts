import { sql } from 'drizzle-orm'
import type { Database, Db } from './db'
import { afterCommit } from './db/commit'

export interface ReplicaCacheOptions {
  /** The NOTIFY channel every replica listens on; the payload is the changed key. */
  channel: string
  /** At most this many entries; the least recently used goes first. */
  limit: number
  /** Upper bound on how long an entry is trusted should a NOTIFY be missed (the LISTEN connection dropped). */
  ttlMs: number
}

/** Tells the replicas' caches on `channel` that `key` changed in `tx` (for writers that keep no cache themselves, such as the command line). */
export function announceChange(tx: Db, channel: string, key: string): Promise<unknown> {
  return tx.execute(sql`select pg_notify(${channel}, ${key})`)
}

interface Load<V> {
  promise: Promise<V | undefined>
  /** Set when the key changed while the load ran: its answer may predate the change and is not kept. */
  stale: boolean
}

/**
 * Rows a replica keeps in memory by key, filled on first use and forgotten on every change: on the
 * writing replica once the changing transaction commits, on every other one through a NOTIFY sent
 * in that transaction (delivered at commit). A load that overlaps a change is answered but not
 * kept, so a row read before the commit is never served after it; concurrent loads of one key
 * share one query.
 */
export class ReplicaCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>()
  private readonly loads = new Map<string, Load<V>>()

  constructor(
    private readonly deps: { database: Pick<Database, 'listen'> },
    private readonly options: ReplicaCacheOptions,
  ) {}

  get size(): number {
    return this.entries.size
  }

  /** The cached value of `key`, else what `load` finds (kept unless undefined). */
  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key)
    if (entry && entry.until > Date.now()) {
      this.entries.delete(key)
      this.entries.set(key, entry)
      return Promise.resolve(entry.value)
    }
    const running = this.loads.get(key)
    if (running) return running.promise
    const started: Load<V> = { stale: false, promise: Promise.resolve(undefined) }
    started.promise = load().then(
      (value) => {
        if (this.loads.get(key) === started) this.loads.delete(key)
        if (value !== undefined && !started.stale) this.keep(key, value)
        return value
      },
      (err: unknown) => {
        if (this.loads.get(key) === started) this.loads.delete(key)
        throw err
      },
    )
    this.loads.set(key, started)
    return started.promise
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

  forget(key: string): void {
    this.entries.delete(key)
    const running = this.loads.get(key)
    if (running) {
      running.stale = true
      this.loads.delete(key)
    }
  }

  private keep(key: string, value: V): void {
    this.entries.delete(key)
    while (this.entries.size >= this.options.limit) this.entries.delete(this.entries.keys().next().value!)
    this.entries.set(key, { value, until: Date.now() + this.options.ttlMs })
  }
}
