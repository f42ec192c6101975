import { LlmError } from './types'

/** One server-sent event: its `event:` name (null when it has none) and its `data:` lines joined by "\n". */
export interface ServerSentEvent {
  event: string | null
  data: string
}

/** The longest event read, in characters (its data, and its line not yet ended); OpenAI's chunks are under a few kB. */
export const MAX_EVENT_CHARS = 1 << 20

const LINE_END = /\r\n|\r|\n/g

/**
 * Server-sent events out of a byte stream, read as the HTML standard's EventSource reads them: lines
 * end in CRLF, CR or LF (a CRLF split between two reads is one end), a blank line dispatches, a
 * line starting with ":" is a comment, an event without data is dropped, and so is an event the
 * stream ends inside. Linear work whatever the reads hold: each read is decoded and scanned once,
 * and a line that spans reads is joined once, when it ends. An event over MAX_EVENT_CHARS (a
 * service that never ends its line, say) is refused rather than held.
 */
export class SseDecoder {
  private readonly text = new TextDecoder()
  /** The line under way: its pieces from earlier reads. */
  private pending: string[] = []
  private skipLineFeed = false
  private event: string | null = null
  private data: string[] = []
  /** Characters held for the event under way: its data lines, and the line under way. */
  private dataChars = 0
  private pendingChars = 0

  /** The events that `bytes` completes, in order; LlmError `malformed` past MAX_EVENT_CHARS. */
  push(bytes: Uint8Array): ServerSentEvent[] {
    let text = this.text.decode(bytes, { stream: true })
    if (this.skipLineFeed && text) {
      this.skipLineFeed = false
      if (text.charCodeAt(0) === 10) text = text.slice(1)
    }
    const events: ServerSentEvent[] = []
    let start = 0
    LINE_END.lastIndex = 0
    for (let end = LINE_END.exec(text); end; end = LINE_END.exec(text)) {
      const tail = text.slice(start, end.index)
      const line = this.pending.length ? this.pending.join('') + tail : tail
      this.pending = []
      this.pendingChars = 0
      this.line(line, events)
      start = LINE_END.lastIndex
      if (end[0] === '\r' && start === text.length) this.skipLineFeed = true
    }
    if (start < text.length) {
      this.pending.push(start ? text.slice(start) : text)
      this.pendingChars += text.length - start
      this.checkSize()
    }
    return events
  }

  private line(line: string, events: ServerSentEvent[]): void {
    if (!line) {
      if (this.data.length) events.push({ event: this.event, data: this.data.join('\n') })
      this.event = null
      this.data = []
      this.dataChars = 0
      return
    }
    const colon = line.indexOf(':')
    if (colon === 0) return
    const field = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1)
    if (field === 'data') {
      this.data.push(value)
      this.dataChars += value.length
      this.checkSize()
    } else if (field === 'event') this.event = value
  }

  private checkSize(): void {
    if (this.dataChars + this.pendingChars > MAX_EVENT_CHARS)
      throw new LlmError('malformed', `The model service sent an event longer than ${MAX_EVENT_CHARS} characters`)
  }
}
