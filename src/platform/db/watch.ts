import { AsyncLocalStorage } from 'node:async_hooks'
import { SpanKind } from '@opentelemetry/api'
import { startChildSpan, statementSpan } from '../tracing'

/**
 * An open transaction: the connection it holds is its own until it ends. `origin` is captured
 * where it began (its stack names the code), read only when a stall or a violation is reported.
 */
interface Holder {
  readonly watch: ConnectionWatch
  readonly since: number
  readonly origin: Error
  open: boolean
}

/** A statement sent and not yet answered (waiting for the connection included), or a transaction waiting for its connection. */
interface Call {
  readonly since: number
  readonly text: string
}

/** Who is told how long each statement and each transaction's wait for its connection took (the metrics, platform/metrics.ts). */
export interface WatchTimings {
  statement(seconds: number): void
  connectionWait(seconds: number): void
}

export interface HolderReport {
  label: string
  heldMs: number
  stack: string
}

/** What a stalled database is waiting on: the oldest unanswered statement and who holds connections. */
export interface StallReport {
  waitingMs: number
  /** The first words of the longest-waiting statement, and of up to five waiting ones. */
  statement: string
  statements: string[]
  waiting: number
  holders: HolderReport[]
}

export interface WatchOptions {
  /**
   * Throw at once when code holding a transaction sends a statement to the pool (or opens another
   * transaction there): on PGlite's one connection that statement waits for its own caller forever,
   * on PostgreSQL it is a pool deadlock waiting for load. On in tests and with DB_DEBUG=1.
   */
  guard?: boolean
  /** A statement unanswered this long is a stall: logged once, and `stalled()` reports it (GET /health). */
  stallSeconds?: number
  log?: (msg: string, fields: Record<string, unknown>) => void
}

/** Thrown by the re-entrancy guard; its message carries both stacks. */
export class ReentrancyError extends Error {
  override name = 'ReentrancyError'
}

const held = new AsyncLocalStorage<Holder>()
const CHECK_MS = 1000
/** Frames that say nothing about who opened a transaction: the database layer and libraries. */
const PLUMBING = /\/(platform\/db\/|node_modules\/)|\(native\)|^\s*at (async )?(new )?Promise\b/

/**
 * Watches one database's connections: which async context holds one (a transaction, through
 * AsyncLocalStorage), which statements wait, and for how long. Two uses:
 * - the re-entrancy guard: a statement sent to the pool from inside an open transaction's context
 *   throws (guard on) or is logged (guard off) with both stacks, instead of hanging;
 * - the watchdog: a statement unanswered for `stallSeconds` logs one error line naming the holders
 *   (label and stack) and the statement's first words, and `stalled()` answers while it lasts.
 */
export class ConnectionWatch {
  private readonly holders = new Set<Holder>()
  private readonly calls = new Set<Call>()
  private readonly timings = new Set<WatchTimings>()
  private traced = false
  private guard = false
  private stallMs = 30_000
  private log: NonNullable<WatchOptions['log']> = () => {}
  private timer: ReturnType<typeof setInterval> | null = null
  private current: StallReport | null = null

  constructor(options: WatchOptions = {}) {
    this.configure(options)
  }

  configure(options: WatchOptions): void {
    if (options.guard !== undefined) this.guard = options.guard
    if (options.stallSeconds !== undefined) this.stallMs = options.stallSeconds * 1000
    if (options.log) this.log = options.log
    this.timer ??= setInterval(() => this.check(), Math.min(CHECK_MS, this.stallMs))
    this.timer.unref?.()
  }

  /**
   * Runs `fn` (a transaction's body, its connection taken) as the holder of that connection.
   * `origin` was made where the transaction was asked for: its stack names the code.
   */
  hold<T>(origin: Error, fn: () => Promise<T>): Promise<T> {
    const holder: Holder = { watch: this, since: performance.now(), origin, open: true }
    this.holders.add(holder)
    return held.run(holder, async () => {
      try {
        return await fn()
      } finally {
        holder.open = false
        this.holders.delete(holder)
      }
    })
  }

  /**
   * Called before a statement (or a transaction) is sent to the pool rather than to the caller's
   * own transaction: refuses it when the calling context holds a connection of this database.
   */
  enterPool(text: string): void {
    const holder = held.getStore()
    if (!holder?.open || holder.watch !== this) return
    const message =
      `A statement was sent to the pool from inside an open transaction (use its tx): it would wait for the connection its own caller holds. ` +
      `Statement: ${firstWords(text)}\n-- sent from:\n${frames(new Error().stack)}\n-- transaction opened at:\n${frames(holder.origin.stack)}`
    if (this.guard) throw new ReentrancyError(message)
    this.log('database re-entrancy: a statement sent to the pool inside a transaction', {
      statement: firstWords(text),
      holder: labelOf(holder.origin),
      stack: frames(new Error().stack),
    })
  }

  /**
   * Counts a statement (or a transaction's wait for its connection) as waiting from now until the
   * returned function is first called, which tells the timings how long it took.
   */
  begin(text: string, kind: 'statement' | 'connection' = 'statement'): () => void {
    const call: Call = { since: performance.now(), text }
    this.calls.add(call)
    const span = this.traced && kind === 'statement' ? this.statementSpan(text) : undefined
    return () => {
      span?.end()
      if (!this.calls.delete(call) || this.timings.size === 0) return
      const seconds = (performance.now() - call.since) / 1000
      for (const timings of this.timings) {
        if (kind === 'statement') timings.statement(seconds)
        else timings.connectionWait(seconds)
      }
    }
  }

  /** From now on, tells `timings` how long each statement and each wait for a connection took (≈ 0.3 µs a statement, measured). */
  time(timings: WatchTimings): void {
    this.timings.add(timings)
  }

  /**
   * From now on, each statement sent inside a traced request or job is a child span of it, named by
   * its first keyword (platform/tracing.ts): never its text, which may hold values.
   */
  trace(): void {
    this.traced = true
  }

  private statementSpan(text: string) {
    const { name, attributes } = statementSpan(text)
    return startChildSpan(name, SpanKind.CLIENT, attributes)
  }

  /** Statements (and transactions) waiting now, and transactions holding a connection. */
  load(): { statements: number; transactions: number } {
    let transactions = 0
    for (const holder of this.holders) if (holder.open) transactions++
    return { statements: this.calls.size, transactions }
  }

  /** Tracks a statement until it settles; resolves or rejects as `run` does. */
  async track<T>(text: string, run: () => Promise<T>): Promise<T> {
    const done = this.begin(text)
    try {
      return await run()
    } finally {
      done()
    }
  }

  /** The stall under way, or null. */
  stalled(): StallReport | null {
    return this.current
  }

  /** Looks for a statement waiting past the limit; logs a stall once when it starts, and once when it ends. */
  check(now = performance.now()): StallReport | null {
    // Calls are kept in the order they started: the first one is the longest waiting.
    const oldest = this.calls.values().next().value as Call | undefined
    const waitingMs = oldest ? now - oldest.since : 0
    if (!oldest || waitingMs < this.stallMs) {
      if (this.current) this.log('database stall ended', { stalledMs: Math.round(this.current.waitingMs) })
      this.current = null
      return null
    }
    const started = !this.current
    const holders = [...this.holders]
      .filter((h) => h.open)
      .map((h) => ({ label: labelOf(h.origin), heldMs: Math.round(now - h.since), stack: frames(h.origin.stack) }))
    const statements = [...new Set([...this.calls].slice(0, 20).map((c) => firstWords(c.text)))].slice(0, 5)
    this.current = { waitingMs: Math.round(waitingMs), statement: firstWords(oldest.text), statements, waiting: this.calls.size, holders }
    if (started) {
      const first = holders[0]
      this.log('database stalled', {
        waitingMs: this.current.waitingMs,
        statement: this.current.statement,
        statements: this.current.statements,
        waiting: this.current.waiting,
        holder: first ? first.label : 'none',
        heldMs: first?.heldMs ?? null,
        holders: holders.length,
        stack: first?.stack ?? null,
      })
    }
    return this.current
  }

  close(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }
}

/** Frames kept of a transaction's origin: Drizzle's and this module's own take the first ten. */
const ORIGIN_FRAMES = 24

/** Where a transaction (or another hold on the connection) is asked for: the stack, deep enough to reach past the libraries' frames. */
export function originHere(what = 'transaction'): Error {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = ORIGIN_FRAMES
  const origin = new Error(`${what} opened here`)
  Error.stackTraceLimit = limit
  return origin
}

/** The first words of a statement, for a log line: never its values (they are parameters). */
export function firstWords(text: string): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ')
  const head = words.slice(0, 8).join(' ')
  return head.length > 120 ? `${head.slice(0, 120)}…` : words.length > 8 ? `${head} …` : head
}

/**
 * The stack's frames from the first one that is not plumbing, as lines. A statement built by Drizzle
 * runs when awaited, from a microtask: its stack may hold only library frames (the transaction's
 * origin then says where to look), and those are shown.
 */
function frames(stack: string | undefined): string {
  const lines = (stack ?? '')
    .split('\n')
    .slice(1)
    .filter((l) => !l.includes('platform/db/watch.ts'))
  const start = lines.findIndex((l) => !PLUMBING.test(l))
  return lines
    .slice(Math.max(start, 0), Math.max(start, 0) + 12)
    .map((l) => l.trim())
    .join('\n')
}

/** What holds a connection (a transaction, a dump) and where it began: its first frame outside the database layer and libraries. */
function labelOf(origin: Error): string {
  const first = (frames(origin.stack).split('\n')[0] ?? '').replace(/^at /, '').replace(`${process.cwd()}/`, '')
  return `${origin.message.replace(/ opened here$/, '')} at ${first || 'unknown'}`
}

type PgliteTx = { query: (...args: never[]) => Promise<unknown>; exec: (...args: never[]) => Promise<unknown> }
interface PgliteLike {
  query(text: string, ...rest: never[]): Promise<unknown>
  exec(text: string, ...rest: never[]): Promise<unknown>
  transaction<T>(fn: (tx: never) => Promise<T>): Promise<T>
}

/**
 * Puts PGlite's one connection under `watch`: statements and transactions sent to the client (the
 * pool of one) pass the guard and are tracked until answered (a wait for the transaction mutex
 * included); each transaction's body holds the connection, and its statements are tracked too.
 */
export function watchPglite(client: PgliteLike, watch: ConnectionWatch): void {
  const query = client.query.bind(client)
  const exec = client.exec.bind(client)
  const transaction = client.transaction.bind(client)
  client.query = async (text: string, ...rest: never[]) => {
    watch.enterPool(text)
    return watch.track(text, () => query(text, ...rest))
  }
  client.exec = async (text: string, ...rest: never[]) => {
    watch.enterPool(text)
    return watch.track(text, () => exec(text, ...rest))
  }
  client.transaction = async <T>(fn: (tx: never) => Promise<T>) => {
    watch.enterPool('BEGIN')
    const origin = originHere()
    const waiting = watch.begin('BEGIN (waiting for the connection)', 'connection')
    try {
      return await transaction((tx: PgliteTx) => {
        waiting()
        const track = (method: 'query' | 'exec') => {
          const original = tx[method].bind(tx)
          tx[method] = (text: string, ...rest: never[]) => watch.track(text, () => original(text as never, ...rest))
        }
        track('query')
        track('exec')
        return watch.hold(origin, () => fn(tx as never))
      })
    } finally {
      waiting()
    }
  }
}

/** A postgres.js query: a lazy promise that runs when first awaited. */
type PgQuery = { then: (...args: unknown[]) => Promise<unknown> }
interface PostgresLike {
  unsafe(text: string, ...rest: never[]): PgQuery
  begin(...args: unknown[]): Promise<unknown>
  reserve(): Promise<unknown>
}

/** Tracks a postgres.js query from the moment it is awaited (when it is sent) until it settles. */
function trackQuery(watch: ConnectionWatch, text: string, query: PgQuery): PgQuery {
  const then = query.then
  query.then = function (this: PgQuery, ...handlers: unknown[]) {
    const done = watch.begin(text)
    const [onFulfilled, onRejected] = handlers as [((v: unknown) => unknown) | undefined, ((e: unknown) => unknown) | undefined]
    return then.call(
      this,
      (value: unknown) => {
        done()
        return onFulfilled ? onFulfilled(value) : value
      },
      (err: unknown) => {
        done()
        if (onRejected) return onRejected(err)
        throw err
      },
    )
  }
  return query
}

/**
 * Puts a postgres.js pool under `watch`: statements, transactions and reservations taken from the
 * pool pass the guard; statements (the pool's and each transaction's) are tracked until answered,
 * the wait for a free connection included; each transaction's body holds its connection.
 */
export function watchPostgres(client: PostgresLike, watch: ConnectionWatch): void {
  const unsafe = client.unsafe.bind(client)
  const begin = client.begin.bind(client)
  const reserve = client.reserve.bind(client)
  client.unsafe = (text: string, ...rest: never[]) => {
    watch.enterPool(text)
    return trackQuery(watch, text, unsafe(text, ...rest))
  }
  client.begin = async (...args: unknown[]) => {
    watch.enterPool('BEGIN')
    const origin = originHere()
    const fn = args.pop() as (tx: PostgresLike) => Promise<unknown>
    const waiting = watch.begin('BEGIN (waiting for a connection)', 'connection')
    try {
      return await begin(...args, (tx: PostgresLike) => {
        waiting()
        const txUnsafe = tx.unsafe.bind(tx)
        tx.unsafe = (text: string, ...rest: never[]) => trackQuery(watch, text, txUnsafe(text, ...rest))
        return watch.hold(origin, () => fn(tx))
      })
    } finally {
      waiting()
    }
  }
  client.reserve = async () => {
    watch.enterPool('(reserve a connection)')
    return reserve()
  }
}
