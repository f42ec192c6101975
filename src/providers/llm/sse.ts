/** One server-sent event: its `event:` name (null when it has none) and its `data:` lines joined by "\n". */
export interface ServerSentEvent {
  event: string | null
  data: string
}

const LINE_END = /\r\n|\r|\n/g

/**
 * Server-sent events out of a byte stream, read as the HTML standard's EventSource reads them: lines
 * end in CRLF, CR or LF (a CRLF split between two reads is one end), a blank line dispatches, a
 * line starting with ":" is a comment, an event without data is dropped, and so is an event the
 * stream ends inside. Each byte is decoded once and each line cut out once, whatever the reads hold
 * (a burst of 2,000 events in one read is linear work).
 */
export class SseDecoder {
  private readonly text = new TextDecoder()
  private rest = ''
  private skipLineFeed = false
  private event: string | null = null
  private data: string[] = []

  /** The events that `bytes` completes, in order. */
  push(bytes: Uint8Array): ServerSentEvent[] {
    let text = this.text.decode(bytes, { stream: true })
    if (this.skipLineFeed && text) {
      this.skipLineFeed = false
      if (text.charCodeAt(0) === 10) text = text.slice(1)
    }
    if (this.rest) text = this.rest + text
    const events: ServerSentEvent[] = []
    let start = 0
    LINE_END.lastIndex = 0
    for (let end = LINE_END.exec(text); end; end = LINE_END.exec(text)) {
      this.line(text.slice(start, end.index), events)
      start = LINE_END.lastIndex
      if (end[0] === '\r' && start === text.length) this.skipLineFeed = true
    }
    this.rest = text.slice(start)
    return events
  }

  private line(line: string, events: ServerSentEvent[]): void {
    if (!line) {
      if (this.data.length) events.push({ event: this.event, data: this.data.join('\n') })
      this.event = null
      this.data = []
      return
    }
    const colon = line.indexOf(':')
    if (colon === 0) return
    const field = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? '' : line.slice(line.charCodeAt(colon + 1) === 32 ? colon + 2 : colon + 1)
    if (field === 'data') this.data.push(value)
    else if (field === 'event') this.event = value
  }
}
