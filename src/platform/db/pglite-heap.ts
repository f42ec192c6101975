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

const INTERVAL_MS = 100
/** CPU time in one interval (all threads) above which the process counts as busy. */
const BUSY_MS = 10

export interface HeapCollectorOptions {
  intervalMs?: number
  busyMs?: number
  /** CPU time the process has used so far, ms. */
  cpuMs?: () => number
  collect?: () => void
}

/** One check: collects when the CPU time since the last check reached `busyMs`. */
export function heapCollector(options: HeapCollectorOptions = {}): { tick(): boolean } {
  const busyMs = options.busyMs ?? BUSY_MS
  const cpuMs = options.cpuMs ?? processCpuMs
  const collect = options.collect ?? (() => Bun.gc(false))
  let last = cpuMs()
  return {
    tick() {
      const now = cpuMs()
      const busy = now - last >= busyMs
      last = now
      if (busy) collect()
      return busy
    },
  }
}

/** Runs the collector for the process (it does not keep the process alive); returns its stop. */
export function collectWhileBusy(options: HeapCollectorOptions = {}): () => void {
  const collector = heapCollector(options)
  const timer = setInterval(() => collector.tick(), options.intervalMs ?? INTERVAL_MS)
  timer.unref()
  return () => clearInterval(timer)
}

function processCpuMs(): number {
  const { user, system } = process.cpuUsage()
  return (user + system) / 1000
}
