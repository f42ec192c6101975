/**
 * JavaScriptCore counts PGlite's WebAssembly memory into the size of the JavaScript heap, and more
 * than once: the embedded database's 142 MB of memory made 280 MB of the heap's "extra memory"
 * (`heapStats()` of bun:jsc). The engine sizes the young generation it lets fill before collecting
 * from that size, so with PGlite open it collected about 20 times in 8 s of query building against
 * 380 times without, and the garbage of hundreds of requests piled up between collections: the
 * server's peak RSS under load was 50–130 MB higher, and allocating code ran 2–3× slower on cold
 * memory (bench/README.md, P7, session 58).
 *
 * So the embedded server asks for a young-generation collection (`Bun.gc(false)`, ≈ 0.25 ms) every
 * INTERVAL_MS while it is busy. An idle process (the job queue's polls) is left alone.
 */

import type { Metrics } from '../metrics'

const INTERVAL_MS = 100
/** CPU time in one interval (all threads) above which the process counts as busy. */
const BUSY_MS = 10

/** One check: collects when the process used BUSY_MS of CPU time (ms, from `cpuMs`) since the last check. */
export function heapCollector(options: { cpuMs?: () => number; collect: () => void }): { tick(): boolean } {
  const cpuMs = options.cpuMs ?? processCpuMs
  let last = cpuMs()
  return {
    tick() {
      const now = cpuMs()
      const busy = now - last >= BUSY_MS
      last = now
      if (busy) options.collect()
      return busy
    },
  }
}

/**
 * Runs the collector for the process (it does not keep the process alive), counting its
 * collections in `ecobase_heap_collections_total`; returns its stop.
 */
export function collectWhileBusy(metrics: Pick<Metrics, 'counter'>): () => void {
  const collections = metrics
    .counter({ name: 'ecobase_heap_collections_total', help: 'Young-generation collections the embedded server asked for while busy (PGlite only)' })
    .of({})
  const collector = heapCollector({
    collect: () => {
      Bun.gc(false)
      collections.inc()
    },
  })
  const timer = setInterval(() => collector.tick(), INTERVAL_MS)
  timer.unref()
  return () => clearInterval(timer)
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
