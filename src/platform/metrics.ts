import type * as Prom from 'prom-client'
import type { LabelValues } from 'prom-client'
import type { Database } from './db'
import type { OutboundKind, OutboundMeter, OutboundOutcome } from './outbound'
import { CounterTally, HistogramTally } from './tally'

/*
 * prom-client's parts from their own files: its index also loads its Pushgateway (node:http and
 * node:https) and its cluster aggregator, neither used here, about 12 ms of every start
 * (bench/README.md, P7, session 62; tests/platform/lazy-packages.test.ts).
 */
const Registry: typeof Prom.Registry = require('prom-client/lib/registry')
const Gauge: typeof Prom.Gauge = require('prom-client/lib/gauge')
const collectDefaultMetrics: typeof Prom.collectDefaultMetrics = require('prom-client/lib/defaultMetrics')

/** What `GET /metrics` answers: Prometheus's text exposition format. */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8'

/** The `route` of a request no route matched (404), or refused before routing (411, 413, 415): its raw path would make the label set unbounded. */
export const UNMATCHED_ROUTE = 'unmatched'

/** The `method` of anything else a client sends: methods are the client's to invent. */
const OTHER_METHOD = 'other'
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])

/**
 * prom-client's default gauges named like counters: Prometheus's naming rules (and `promtool check
 * metrics`) keep `_total` for counters. `nodejs_active_handles`, `_requests` and `_resources` carry
 * the same counts by type.
 */
const MISNAMED_DEFAULTS = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']

/**
 * prom-client's heap-space gauges read `v8.getHeapSpaceStatistics()`, which Bun answers by walking
 * the heap: 30-35 ms of a started server's event loop at every scrape, for spaces that mostly read 0
 * under Bun (bench/README.md, P7 session 63). `nodejs_heap_size_*_bytes` carry the heap's size.
 */
const HEAP_WALKING_DEFAULTS = ['nodejs_heap_space_size_total_bytes', 'nodejs_heap_space_size_used_bytes', 'nodejs_heap_space_size_available_bytes']

/** Statements answer in a millisecond or two; a second is already a problem worth its own bucket. */
const DATABASE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Outbound calls take from milliseconds (a local receiver) to a webhook's or a model service's deadline. */
const OUTBOUND_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30]

/** One sample of a gauge read at scrape time. */
export interface Sample<L extends string> {
  labels?: LabelValues<L>
  value: number
}

/**
 * One app's metrics, in a Registry of its own (never prom-client's global one: apps built side by
 * side in one process, as tests and replicas do, keep theirs apart). The platform's own are here:
 * HTTP requests (counted by the request pipeline, platform/http.ts) and database statements (timed
 * by the connection watch, platform/db/watch.ts). Areas register theirs through their services,
 * with the helpers below; what needs a query is read when Prometheus scrapes, not on a timer.
 */
export class Metrics implements OutboundMeter {
  readonly registry = new Registry()
  private readonly requests: CounterTally<'method' | 'route' | 'status'>
  private readonly requestSeconds: HistogramTally<'method' | 'route'>
  /** Each method, status and route's count and duration series, found with one lookup (the sets are bounded). */
  private readonly byRequest = new Map<string, { count: { inc(): void }; seconds: { observe(seconds: number): void } }>()
  private readonly outboundCalls: CounterTally<'kind' | 'outcome'>
  private readonly outboundSeconds: HistogramTally<'kind'>

  /**
   * `process`: also prom-client's process and runtime metrics (CPU, memory, file descriptors, event
   * loop lag, heap). Only where /metrics is on: the event-loop monitor samples every 10 ms.
   */
  constructor(database: Database, options: { process: boolean }) {
    if (options.process) {
      collectDefaultMetrics({ register: this.registry })
      for (const name of [...MISNAMED_DEFAULTS, ...HEAP_WALKING_DEFAULTS]) this.registry.removeSingleMetric(name)
    }
    this.requests = this.counter({
      name: 'ecobase_http_requests_total',
      help: 'HTTP requests answered, by method, route template and status',
      labelNames: ['method', 'route', 'status'],
    })
    this.requestSeconds = this.histogram({
      name: 'ecobase_http_request_duration_seconds',
      help: 'Time from a request’s arrival to its answer sent (a stream: until it ends), by method and route template',
      labelNames: ['method', 'route'],
    })
    const statements = this.histogram({
      name: 'ecobase_db_statement_duration_seconds',
      help: 'Database statements, from sent (a wait for a pooled connection included) to answered',
      buckets: DATABASE_BUCKETS,
    }).of({})
    const waits = this.histogram({
      name: 'ecobase_db_connection_wait_seconds',
      help: 'How long each transaction waited for its connection (embedded: the one connection; PostgreSQL: a pooled one, and BEGIN)',
      buckets: DATABASE_BUCKETS,
    }).of({})
    database.watch.time({ statement: (seconds) => statements.observe(seconds), connectionWait: (seconds) => waits.observe(seconds) })
    this.sampled({ name: 'ecobase_db_statements_in_flight', help: 'Database statements sent and not yet answered (waits for a connection included)' }, () => [
      { value: database.watch.load().statements },
    ])
    this.sampled({ name: 'ecobase_db_transactions_open', help: 'Transactions holding a database connection' }, () => [
      { value: database.watch.load().transactions },
    ])
    this.outboundCalls = this.counter({
      name: 'ecobase_outbound_requests_total',
      help: 'Requests made through the outbound gate on a tenant’s behalf, by kind (webhook, monitored_site, persona_service) and outcome',
      labelNames: ['kind', 'outcome'],
    })
    this.outboundSeconds = this.histogram({
      name: 'ecobase_outbound_request_duration_seconds',
      help: 'Outbound requests through the gate, from the host’s lookup to the answer’s headers (or the failure), by kind',
      labelNames: ['kind'],
      buckets: OUTBOUND_BUCKETS,
    })
  }

  /** A counter whose label sets come from fixed unions (platform/tally.ts): `of(labels)` once, then `inc()`. */
  counter<L extends string = never>(config: { name: string; help: string; labelNames?: readonly L[] }): CounterTally<L> {
    return new CounterTally(this.registry, config)
  }

  /** A histogram whose label sets come from fixed unions (platform/tally.ts): `of(labels)` once, then `observe(value)`. */
  histogram<L extends string = never>(config: { name: string; help: string; labelNames?: readonly L[]; buckets?: readonly number[] }): HistogramTally<L> {
    return new HistogramTally(this.registry, config)
  }

  /** Counts one call through the outbound gate (platform/outbound.ts) and its duration. */
  outbound(kind: OutboundKind, outcome: OutboundOutcome, seconds: number): void {
    this.outboundCalls.of({ kind, outcome }).inc()
    this.outboundSeconds.of({ kind }).observe(seconds)
  }

  /**
   * A gauge read when Prometheus scrapes. A read that fails (the database not answering) leaves the
   * gauge without samples for that scrape instead of failing the scrape or repeating stale values;
   * `GET /health/ready` says what is down.
   */
  sampled<L extends string = never>(config: { name: string; help: string; labelNames?: readonly L[] }, read: () => Sample<L>[] | Promise<Sample<L>[]>): void {
    new Gauge<L>({
      ...config,
      registers: [this.registry],
      async collect() {
        this.reset()
        let samples: Sample<L>[]
        try {
          samples = await read()
        } catch {
          return
        }
        for (const sample of samples) this.set(sample.labels ?? {}, sample.value)
      },
    })
  }

  /** Counts one answered request; `route` is the matched route's template (undefined: none matched). */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`
    let series = this.byRequest.get(key)
    if (!series) {
      const labels = { method: METHODS.has(method) ? method : OTHER_METHOD, route: route || UNMATCHED_ROUTE }
      series = { count: this.requests.of({ ...labels, status }), seconds: this.requestSeconds.of(labels) }
      // Methods are the client's to invent: those outside the known set share one entry per route and status.
      if (METHODS.has(method)) this.byRequest.set(key, series)
    }
    series.count.inc()
    series.seconds.observe(seconds)
  }

  /** The exposition text of every metric. */
  text(): Promise<string> {
    return this.registry.metrics()
  }
}
