/** Whatever a bench starts is stopped by `cleanup()` (also on SIGINT/SIGTERM and on exit). */

const cleanups = new Set<() => Promise<void> | void>()

/** Registers a cleanup step; the returned function runs it once and unregisters it. */
export function onCleanup(fn: () => Promise<void> | void): () => Promise<void> {
  let done = false
  const once = async () => {
    if (done) return
    done = true
    cleanups.delete(once)
    await fn()
  }
  cleanups.add(once)
  return once
}

/** Runs every registered cleanup step (newest first). */
export async function cleanup(): Promise<void> {
  for (const fn of [...cleanups].reverse()) {
    try {
      await fn()
    } catch (err) {
      console.error('bench cleanup:', (err as Error).message)
    }
  }
}

let signalsHooked = false
/** Makes Ctrl-C and SIGTERM stop children and drop temp databases before exiting. */
export function hookSignals(): void {
  if (signalsHooked) return
  signalsHooked = true
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    process.on(sig, async () => {
      console.error(`\nbench: ${sig}, cleaning up`)
      await cleanup()
      process.exit(130)
    })
  }
}
