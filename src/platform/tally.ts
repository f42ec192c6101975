import type { Metric, Registry } from 'prom-client'

/** One sample line of a metric, as prom-client's Registry writes it. */
interface Sample {
  metricName?: string
  labels: Record<string, string | number>
  value: number
}

/**
 * Counters and histograms kept as plain numbers per label set and read by prom-client only when
 * Prometheus scrapes. prom-client's own hash a series' labels on every count, also through a child
 * from `labels()` (0.2–0.35 µs a count, measured with 2 million counts on Bun 1.4): every request
 * paid two (its count and its duration) and every statement one, about a tenth of a cached
 * GET /auth/me. Here a count is a Map lookup by the label values and an addition. For label sets
 * drawn from fixed unions only: entries are never dropped.
 */
abstract class Tally<L extends string, C> {
  private readonly cells = new Map<string, { labels: Record<L, string>; cell: C }>()

  constructor(
    registry: Registry,
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly L[],
    readonly type: 'counter' | 'histogram',
  ) {
    registry.registerMetric(this as unknown as Metric)
  }

  /** The series of one label set, found once: keep it where the labels never change. */
  of(labels: Record<L, string | number>): C {
    let key = ''
    for (const name of this.labelNames) key += `${labels[name]}\u0000`
    let found = this.cells.get(key)
    if (!found) {
      const kept = {} as Record<L, string>
      for (const name of this.labelNames) kept[name] = String(labels[name])
      found = { labels: kept, cell: this.cell() }
      this.cells.set(key, found)
    }
    return found.cell
  }

  protected abstract cell(): C
  protected abstract values(labels: Record<L, string>, cell: C): Sample[]

  /** What prom-client's Registry reads of a metric when it writes the exposition. */
  get(): { name: string; help: string; type: string; aggregator: 'sum'; values: Sample[] } {
    const values = [...this.cells.values()].flatMap(({ labels, cell }) => this.values(labels, cell))
    return { name: this.name, help: this.help, type: this.type, aggregator: 'sum', values }
  }
}

class CountCell {
  value = 0

  inc(): void {
    this.value++
  }
}

export class CounterTally<L extends string> extends Tally<L, CountCell> {
  constructor(registry: Registry, config: { name: string; help: string; labelNames?: readonly L[] }) {
    super(registry, config.name, config.help, config.labelNames ?? [], 'counter')
  }

  protected cell(): CountCell {
    return new CountCell()
  }

  protected values(labels: Record<L, string>, cell: CountCell): Sample[] {
    return [{ labels, value: cell.value }]
  }
}

class HistogramCell {
  /** Observations per bucket (not cumulative), the last one past every bound. */
  readonly counts: number[]
  sum = 0
  count = 0

  constructor(private readonly bounds: readonly number[]) {
    this.counts = new Array(bounds.length + 1).fill(0)
  }

  observe(value: number): void {
    let i = 0
    while (i < this.bounds.length && value > this.bounds[i]!) i++
    this.counts[i]!++
    this.sum += value
    this.count++
  }
}

/** prom-client's default buckets, for request durations. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

export class HistogramTally<L extends string> extends Tally<L, HistogramCell> {
  private readonly bounds: readonly number[]

  constructor(registry: Registry, config: { name: string; help: string; labelNames?: readonly L[]; buckets?: readonly number[] }) {
    super(registry, config.name, config.help, config.labelNames ?? [], 'histogram')
    this.bounds = config.buckets ?? DEFAULT_BUCKETS
  }

  protected cell(): HistogramCell {
    return new HistogramCell(this.bounds)
  }

  protected values(labels: Record<L, string>, cell: HistogramCell): Sample[] {
    let cumulative = 0
    const buckets = this.bounds.map((le, i) => {
      cumulative += cell.counts[i]!
      return { metricName: `${this.name}_bucket`, labels: { le, ...labels }, value: cumulative }
    })
    return [
      ...buckets,
      { metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: cell.count },
      { metricName: `${this.name}_sum`, labels, value: cell.sum },
      { metricName: `${this.name}_count`, labels, value: cell.count },
    ]
  }
}
