/** One server-sent event as a client sees it; `comment` holds a `: …` line's text instead of an event. */
export interface SseEvent {
  event: string
  id?: string
  data: any
  comment?: string
}

/**
 * Reads a text/event-stream response frame by frame. `next()` resolves the next event (comments
 * too when `comments` is set), or throws after `ms` without one; `none(ms)` checks that nothing
 * arrives for that long; `close()` drops the connection.
 */
export function sseReader(res: Response, options: { comments?: boolean } = {}) {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  const ready: SseEvent[] = []
  let pending: ReturnType<typeof reader.read> | null = null
  let ended = false

  const parse = (frame: string) => {
    const lines = frame.split('\n')
    if (lines.every((l) => l.startsWith(':'))) {
      if (options.comments) ready.push({ event: 'comment', data: null, comment: lines[0]!.slice(1).trim() })
      return
    }
    const field = (name: string) => lines.find((l) => l.startsWith(`${name}: `))?.slice(name.length + 2)
    const data = field('data')
    ready.push({ event: field('event') ?? 'message', id: field('id'), data: data === undefined ? undefined : JSON.parse(data) })
  }

  async function next(ms = 10_000): Promise<SseEvent> {
    const deadline = Date.now() + ms
    while (!ready.length) {
      if (ended) throw new Error('the stream ended')
      pending ??= reader.read()
      const left = deadline - Date.now()
      const result = await Promise.race([pending, Bun.sleep(Math.max(0, left)).then(() => null)])
      if (!result) throw new Error(`no event within ${ms} ms`)
      pending = null
      if (result.done) {
        ended = true
        continue
      }
      // In-process (app.handle) Bun may hand over the strings the server enqueued as they are.
      const chunk: unknown = result.value
      text += typeof chunk === 'string' ? chunk : decoder.decode(chunk as Uint8Array, { stream: true })
      let end: number
      while ((end = text.indexOf('\n\n')) >= 0) {
        parse(text.slice(0, end))
        text = text.slice(end + 2)
      }
    }
    return ready.shift()!
  }

  return {
    next,
    /** The next event that is not `skip` (e.g. the opening `ready`). */
    async nextOf(event: string, ms = 10_000): Promise<SseEvent> {
      for (;;) {
        const e = await next(ms)
        if (e.event === event) return e
      }
    },
    /** Resolves true when nothing arrives for `ms` (the stream staying open), false on any event or end. */
    async none(ms: number): Promise<boolean> {
      try {
        await next(ms)
        return false
      } catch (err) {
        return String(err).includes('no event within')
      }
    },
    /** Whether the server ended the stream (after reading what is left). */
    async ended(ms = 10_000): Promise<boolean> {
      try {
        for (;;) await next(ms)
      } catch (err) {
        return String(err).includes('the stream ended')
      }
    },
    close: () => reader.cancel().catch(() => {}),
  }
}

/**
 * Opens a realtime stream in-process with a bearer token (and X-Ecosystem-Id for accounts):
 * `res` at once, and its events through `sse` (read on first use).
 */
export async function realtimeStream(
  app: { handle(r: Request): Promise<Response> },
  token: string,
  topics: string,
  extra: { headers?: Record<string, string>; since?: string } = {},
) {
  const since = extra.since ? `&since=${encodeURIComponent(extra.since)}` : ''
  const res = await app.handle(
    new Request(`http://localhost/realtime/stream?topics=${encodeURIComponent(topics)}${since}`, {
      headers: { authorization: `Bearer ${token}`, ...extra.headers },
    }),
  )
  let reader: ReturnType<typeof sseReader> | undefined
  return {
    res,
    get sse() {
      reader ??= sseReader(res)
      return reader
    },
  }
}
