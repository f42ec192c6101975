import { expect } from 'bun:test'

/** Polls `check` every 100 ms until it holds; throws after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 15_000) {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    if (await check()) return
    await Bun.sleep(100)
  }
  throw new Error('timed out')
}

/**
 * The error `promise` rejects with, whose message contains `message` when given (fails when it resolves). Use it instead of
 * `expect(promise).rejects`: bun:test waits for such a promise in a nested event-loop tick that does
 * not run the rest of the setImmediate batch it was called from, and postgres.js sends a query's
 * second half from setImmediate, so a database call that the promise depends on can stall until the
 * test times out (seen as a 30 s hang on PostgreSQL). tests/test-hygiene.test.ts keeps it that way.
 */
export async function rejection(promise: Promise<unknown>, message?: string): Promise<Error> {
  const outcome = await promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
  if ('value' in outcome) throw new Error(`expected a rejection, got ${JSON.stringify(outcome.value)}`)
  const error = outcome.error instanceof Error ? outcome.error : new Error(String(outcome.error))
  if (message !== undefined) expect(error.message).toContain(message)
  return error
}
