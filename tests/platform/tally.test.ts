import { expect, test } from 'bun:test'
import { Histogram, Registry } from 'prom-client'
import { CounterTally, HistogramTally } from '../../src/platform/tally'

const lines = (text: string, name: string) => text.split('\n').filter((l) => l.startsWith(name))

test("a tally's exposition is prom-client's own for the same counts: cumulative buckets, +Inf, sum and count per label set", async () => {
  const ours = new Registry()
  const theirs = new Registry()
  const config = { name: 'x_seconds', help: 'h', labelNames: ['route'] as const, buckets: [0.1, 1, 10] }
  const tally = new HistogramTally(ours, config)
  const reference = new Histogram({ ...config, labelNames: ['route'], registers: [theirs] })
  const counts = new CounterTally(ours, { name: 'x_total', help: 'h', labelNames: ['route', 'status'] as const })
  for (const [route, value] of [
    ['/a', 0.05],
    ['/a', 0.1],
    ['/a', 0.5],
    ['/a', 20],
    ['/b', 3],
  ] as const) {
    tally.of({ route }).observe(value)
    reference.observe({ route }, value)
    counts.of({ route, status: 200 }).inc()
  }
  expect(lines(await ours.metrics(), 'x_seconds')).toEqual(lines(await theirs.metrics(), 'x_seconds'))
  expect(lines(await ours.metrics(), 'x_total')).toEqual(['x_total{route="/a",status="200"} 4', 'x_total{route="/b",status="200"} 1'])
})
