import { sql } from 'drizzle-orm'
import { fromDrizzle, type JobResult, PgBoss, type Queue, type SendOptions } from 'pg-boss'
import type { Database, Db } from './db'
import { describeError } from './errors'
import type { Logger } from './logger'
import type { Metrics } from './metrics'
import { type TraceCarrier, type Tracing, traceCarrier } from './tracing'

/** The PostgreSQL schema pg-boss keeps its tables in (it creates and migrates them itself at start). */
export const QUEUE_SCHEMA = 'pgboss'

/**
 * A running job's worker marks it alive every HEARTBEAT_SECONDS / 2; a job whose worker was killed
 * (kill -9, a lost machine) misses that, and the next supervision pass, at most SUPERVISE_SECONDS
 * later, hands it back for a retry. So such a job runs again within about 30 s of the crash instead
 * of after pg-boss's 15-minute expiry (the retry's own delay comes on top, 5 s at first).
 */
const HEARTBEAT_SECONDS = 10
/** A queue younger than this at start may have been made after pg-boss read its cache (the clocks of replicas and database may differ a little). */
const RECENT_QUEUE_MS = 60_000
const SUPERVISE_SECONDS = 10

/**
 * Where a job's data carries the trace context of the span that sent it (with tracing on), taken
 * off again before its handler sees the data. pg-boss's own telemetry is off: it would trace each
 * fetched batch of ten as one span, where a job run is what an operator follows.
 */
const TRACE_FIELD = '__trace'

/** One queue's jobs now: ready to run, deferred (a retry or a delayed send not yet due), running; and how long the oldest ready one has waited. */
export interface QueueLoad {
  name: string
  ready: number
  deferred: number
  active: number
  oldestReadySeconds: number
}

/** A job kind with its handler, as a module's setup hands it to the app (which defines it on the queue). */
export type QueueHandler = JobDefinition<object>

/** Types a handler's data where it is written, then erases it for the list of a module's handlers. */
export const defineQueueHandler = <T extends object>(definition: JobDefinition<T>): QueueHandler => definition as QueueHandler

export interface JobDefinition<T extends object> {
  name: string
  /**
   * Retries (default 5, exponential backoff from 5 s), expiry, retention; see pg-boss's queue
   * options. Give `expireInSeconds` near the job's own timeout: a worker that is alive but stuck is
   * given up on after it (default 5 minutes). A worker that died is noticed by its missing heartbeat.
   */
  options?: Omit<Queue, 'name'>
  /** Run the jobs of a fetched batch at once (for handlers that mostly wait on the network). */
  parallel?: boolean
  /** Workers of this kind per replica (default 1), so one slow job does not hold up the others. */
  concurrency?: number
  handle(data: T): Promise<void>
}

/**
 * The durable job queue: pg-boss over the project's own database client (PGlite or PostgreSQL,
 * through its Drizzle adapter), so sends, fan-outs and deliveries are rows in the same database.
 * `send` takes the caller's transaction: a job exists exactly when the change that causes it
 * committed. Jobs outlive restarts and `kill -9`; with several replicas each job runs once
 * (SKIP LOCKED). With JOBS=off a replica enqueues but runs nothing.
 */
export class JobQueue {
  private readonly boss: PgBoss
  private readonly definitions = new Map<string, JobDefinition<object>>()
  private prepared = false

  /**
   * `metrics`: this app's, given the queues' depth and oldest waiting job, read at each scrape.
   * `tracing`: each job run is a span linked to the one that sent the job.
   */
  constructor(
    private readonly database: Database,
    private readonly options: { workers: boolean; logger: Logger; pollingIntervalSeconds?: number; metrics?: Metrics; tracing?: Tracing },
  ) {
    this.boss = new PgBoss({
      db: {
        executeSql: (text, values) => database.unsafe(text, values),
        // Wakes workers the moment a job commits (pg_notify in the enqueuing transaction) instead of at their next poll.
        listen: async (channel, onNotification, onReconnect) => {
          const close = await database.listen(channel, onNotification)
          onReconnect()
          return { close }
        },
      },
      schema: QUEUE_SCHEMA,
      backend: database.kind === 'pglite' ? 'pglite' : 'postgres',
      useListenNotify: true,
      // How often a replica looks for jobs whose heartbeat stopped (a worker killed mid-job) and
      // hands them back for a retry; pg-boss's default of a minute would add up to a minute to that.
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
      openTelemetry: { enabled: false },
      // Recurring work is src/jobs' (croner, under advisory locks), never pg-boss's cron: without
      // its timekeeper a start skips a clock reading and a worker on pg-boss's own queue, and no
      // replica polls that queue every 5 s or runs a cron pass every 30 s for nothing.
      schedule: false,
      // Nothing here reads pg-boss's instance registry (its getInstances), and keeping a row in it
      // costs each replica four statements at start (one at stop) and, at start and every 30 s,
      // its Nurse's v8.getHeapStatistics(), which Bun answers by walking the heap: a 7-30 ms stall
      // of the event loop (bench/README.md, P7 sessions 62-63), plus a 20 ms event-loop timer.
      registerInstance: false,
    })
    this.boss.on('error', (err) => options.logger.error('queue error', describeError(err)))
    if (options.metrics) this.expose(options.metrics)
  }

  /** Jobs can be sent: `prepare` has run and `stop` has not (GET /health/ready). */
  get running(): boolean {
    return this.prepared
  }

  /** Declares a job kind and its handler; areas call it while the app is built, before `start`. */
  define<T extends object>(definition: JobDefinition<T>): void {
    this.definitions.set(definition.name, definition as JobDefinition<object>)
  }

  /** Installs or migrates the queue's tables, brings the declared queues up to date, and starts their workers. */
  async start(): Promise<void> {
    await this.prepare()
    await this.startWorkers()
  }

  /**
   * Installs or migrates the queue's tables and creates the declared queues, or brings their
   * settings up to date: after this, jobs can be sent. One read of the existing queues; a write
   * only for a queue that is missing or whose settings changed (a restart usually has none).
   */
  async prepare(): Promise<void> {
    await this.boss.start()
    const existing = new Map((await this.boss.getQueues()).map((q) => [q.name, q as unknown as Record<string, unknown>]))
    for (const definition of this.definitions.values()) {
      const { policy, ...settings } = {
        retryLimit: 5,
        retryDelay: 5,
        retryBackoff: true,
        notify: true,
        heartbeatSeconds: HEARTBEAT_SECONDS,
        expireInSeconds: 300,
        ...definition.options,
      }
      const current = existing.get(definition.name)
      if (!current) await this.boss.createQueue(definition.name, { policy, ...settings })
      // createQueue leaves an existing queue as it was: an upgraded instance gets today's settings here.
      else if (Object.entries(settings).some(([key, value]) => current[key] !== value)) await this.boss.updateQueue(definition.name, settings)
      // Made by another replica starting beside this one, after pg-boss filled its cache in start().
      else if (new Date(current.createdOn as string).getTime() < Date.now() - RECENT_QUEUE_MS) continue
      // pg-boss reads a queue it has not cached through its own pool, also from inside a caller's
      // transaction, where on PGlite that read would wait for the transaction forever. A queue made
      // or changed now may be missing from its cache (another replica creating it at the same
      // moment): an empty insert outside any transaction caches it before any send needs it.
      await this.boss.insert(definition.name, [])
    }
    this.prepared = true
  }

  /** Starts the workers of every declared kind (none with JOBS=off); `prepare` first. */
  async startWorkers(): Promise<void> {
    if (!this.options.workers) return
    for (const definition of this.definitions.values()) {
      // NOTIFY wakes workers for new jobs; polling still finds retries and delayed jobs at the usual pace.
      const interval = this.options.pollingIntervalSeconds ?? 2
      // A full batch is followed by the next fetch at once: the interval only paces an idle queue.
      // Each job of a batch is settled on its own: one failure retries that job, not its nine neighbours.
      const options = {
        pollingIntervalSeconds: interval,
        notifyPollingIntervalSeconds: interval,
        batchSize: 10,
        burstWhenBatchFull: true,
        localConcurrency: definition.concurrency ?? 1,
        perJobResults: true as const,
      }
      await this.boss.work<object, unknown, typeof options>(definition.name, options, async (jobs) => {
        const settle = async (job: { id: string; data: object }): Promise<JobResult> => {
          try {
            const { [TRACE_FIELD]: carrier, ...data } = job.data as { [TRACE_FIELD]?: TraceCarrier }
            const run = () => definition.handle(carrier ? data : job.data)
            await (this.options.tracing ? this.options.tracing.job(definition.name, job.id, carrier, run) : run())
            return { id: job.id, status: 'completed' }
          } catch (err) {
            return { id: job.id, status: 'failed', output: describeError(err) }
          }
        }
        if (definition.parallel) return Promise.all(jobs.map(settle))
        const results: JobResult[] = []
        for (const job of jobs) results.push(await settle(job))
        return results
      })
    }
  }

  /** Enqueues a job in the caller's transaction: nothing is sent for a change that rolls back. */
  send<T extends object>(tx: Db, name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    if (!this.definitions.has(name)) throw new Error(`no job kind ${name} is defined`)
    return this.boss.send(name, traced(data), { ...options, db: fromDrizzle(tx as Parameters<typeof fromDrizzle>[0], sql) })
  }

  /** Enqueues many jobs of one kind in one statement, in the caller's transaction. */
  async sendMany<T extends object>(tx: Db, name: string, data: T[]): Promise<void> {
    if (!this.definitions.has(name)) throw new Error(`no job kind ${name} is defined`)
    if (data.length === 0) return
    await this.boss.insert(
      name,
      data.map((d) => ({ data: traced(d) })),
      { db: fromDrizzle(tx as Parameters<typeof fromDrizzle>[0], sql) },
    )
  }

  /** Stops taking jobs and waits up to `timeoutMs` for running ones; unfinished ones run again later. */
  stop(timeoutMs = 10_000): Promise<void> {
    this.prepared = false
    return this.boss.stop({ graceful: true, timeout: timeoutMs, close: false })
  }

  /**
   * Every declared queue's load, in one statement over pg-boss's live jobs (finished ones are
   * outside the scan): a queue without jobs answers zeros, so its series exist before its first job.
   */
  async load(): Promise<QueueLoad[]> {
    const { rows } = await this.database.unsafe(
      `select name,
         count(*) filter (where state < 'active' and start_after <= now())::int as ready,
         count(*) filter (where state < 'active' and start_after > now())::int as deferred,
         count(*) filter (where state = 'active')::int as active,
         coalesce(extract(epoch from now() - min(start_after) filter (where state < 'active' and start_after <= now())), 0)::float8 as oldest
       from ${QUEUE_SCHEMA}.job where state <= 'active' and name = any($1::text[]) group by name`,
      [[...this.definitions.keys()]],
    )
    const found = new Map((rows as { name: string; ready: number; deferred: number; active: number; oldest: number }[]).map((r) => [r.name, r]))
    return [...this.definitions.keys()].sort().map((name) => {
      const row = found.get(name)
      return { name, ready: row?.ready ?? 0, deferred: row?.deferred ?? 0, active: row?.active ?? 0, oldestReadySeconds: row?.oldest ?? 0 }
    })
  }

  /** The queues' depth by state and their oldest ready job's wait: one query per scrape, shared by both gauges. */
  private expose(metrics: Metrics): void {
    let reading: Promise<QueueLoad[]> | null = null
    const load = () => {
      reading ??= this.load().finally(() => {
        reading = null
      })
      return reading
    }
    metrics.sampled(
      { name: 'ecobase_queue_jobs', help: 'Jobs in the durable queue, by queue and state (ready, deferred, active)', labelNames: ['queue', 'state'] },
      async () =>
        (await load()).flatMap((q) => (['ready', 'deferred', 'active'] as const).map((state) => ({ labels: { queue: q.name, state }, value: q[state] }))),
    )
    metrics.sampled(
      {
        name: 'ecobase_queue_oldest_ready_job_age_seconds',
        help: 'How long the oldest job ready to run has waited, by queue (0: none waits)',
        labelNames: ['queue'],
      },
      async () => (await load()).map((q) => ({ labels: { queue: q.name }, value: q.oldestReadySeconds })),
    )
  }
}

/** A job's data with the trace context of the active span, when a traced request or job sends it. */
function traced<T extends object>(data: T): T {
  const carrier = traceCarrier()
  return carrier ? { ...data, [TRACE_FIELD]: carrier } : data
}
