import { sse, t } from 'elysia'
import { Int } from './numbers'

/** How long a client whose stream ended for a shutdown waits before it reconnects (the SSE `retry:` field), in ms. */
export const SHUTDOWN_RETRY_MS = 1000

/**
 * The process's shutdown as long-lived requests see it. On SIGTERM boot calls `begin()`: open
 * streams end at once with a last `shutdown` event carrying `retry:`, so their clients reconnect
 * (to another replica, or this one restarted) and resume by cursor, instead of holding the
 * process until the shutdown timeout and being cut without a word.
 */
export class Shutdown {
  private readonly controller = new AbortController()

  /** Aborted when the shutdown begins. */
  get signal(): AbortSignal {
    return this.controller.signal
  }

  get draining(): boolean {
    return this.controller.signal.aborted
  }

  begin(): void {
    this.controller.abort()
  }

  /** A stream's stop signal: its client going, or the shutdown. */
  streamSignal(request: AbortSignal): AbortSignal {
    return AbortSignal.any([request, this.controller.signal])
  }
}

/** The last event of a stream whose server stops, in the OpenAPI description of every stream. */
export const ShutdownEvent = t.Object(
  { event: t.Literal('shutdown'), retry: Int({ description: 'Milliseconds to wait before reconnecting' }), data: t.Object({ message: t.String() }) },
  {
    description: `The server is stopping (SIGTERM): the stream ends at once, with \`retry: ${SHUTDOWN_RETRY_MS}\`. Reconnect (to another replica, or this one restarted) with the last id: nothing is lost`,
  },
)

/** That event, as a stream yields it. */
export const shutdownEvent = () =>
  sse({
    event: 'shutdown',
    retry: SHUTDOWN_RETRY_MS,
    data: { message: 'The server is stopping: reconnect with the last id (EventSource does, after `retry`)' },
  })

/** `work`'s value (or its error), or undefined once `ms` have passed without it (it goes on, unawaited). */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | undefined> {
  const late = Promise.withResolvers<undefined>()
  const timer = setTimeout(() => late.resolve(undefined), ms)
  try {
    return await Promise.race([work, late.promise])
  } finally {
    clearTimeout(timer)
  }
}
