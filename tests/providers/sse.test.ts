import { describe, expect, test } from 'bun:test'
import { LlmError } from '../../src/providers/llm'
import { MAX_EVENT_CHARS, type ServerSentEvent, SseDecoder } from '../../src/providers/llm/sse'

const bytes = (text: string) => new TextEncoder().encode(text)

/** The events `reads` make, read one after another by one decoder. */
function decode(...reads: string[]): ServerSentEvent[] {
  const decoder = new SseDecoder()
  return reads.flatMap((read) => decoder.push(bytes(read)))
}

describe('server-sent events out of a byte stream', () => {
  test('LF, CRLF and a lone CR each end a line; a blank line dispatches', () => {
    expect(decode('data: a\n\ndata: b\r\n\r\ndata: c\r\rdata: d\n\n')).toEqual([
      { event: null, data: 'a' },
      { event: null, data: 'b' },
      { event: null, data: 'c' },
      { event: null, data: 'd' },
    ])
  })

  test('a CRLF split between two reads is one line end, not a line end and a blank line', () => {
    expect(decode('data: a\r', '\ndata: b\r\n\r', '\n')).toEqual([{ event: null, data: 'a\nb' }])
  })

  test('data lines join with LF; the event name is kept; comments and unknown fields are skipped', () => {
    expect(decode(': keep-alive\n', 'event: error\nid: 7\ndata: {"a":\ndata:1}\n\n')).toEqual([{ event: 'error', data: '{"a":\n1}' }])
  })

  test('only the one space after the colon is dropped; a field without a colon is an empty value', () => {
    expect(decode('data:x\n\ndata:  two\n\ndata\n\n')).toEqual([
      { event: null, data: 'x' },
      { event: null, data: ' two' },
      { event: null, data: '' },
    ])
  })

  test('an event without data is dropped, and so is the event the stream ends inside', () => {
    expect(decode('event: ping\n\ndata: whole\n\ndata: cut short\n')).toEqual([{ event: null, data: 'whole' }])
  })

  test('a character whose bytes are split between reads is decoded whole', () => {
    const wire = bytes('data: ✓🙂\n\n')
    const decoder = new SseDecoder()
    const events = Array.from(wire, (byte) => decoder.push(Uint8Array.of(byte))).flat()
    expect(events).toEqual([{ event: null, data: '✓🙂' }])
  })

  test('a line that spans many reads is read whole, each read scanned once (a million characters in 10-character reads)', () => {
    const long = 'x'.repeat(1_000_000)
    const wire = `data: ${long}\n\n`
    const decoder = new SseDecoder()
    const events: ServerSentEvent[] = []
    for (let i = 0; i < wire.length; i += 10) events.push(...decoder.push(bytes(wire.slice(i, i + 10))))
    expect(events).toHaveLength(1)
    expect(events[0]!.data.length).toBe(long.length)
  })

  test('an event longer than the limit is refused as malformed: one line that never ends, or many data lines', () => {
    const unended = new SseDecoder()
    unended.push(bytes(`data: ${'x'.repeat(MAX_EVENT_CHARS / 2)}`))
    const error = (() => {
      try {
        unended.push(bytes('x'.repeat(MAX_EVENT_CHARS / 2 + 10)))
      } catch (err) {
        return err
      }
    })()
    expect(error).toBeInstanceOf(LlmError)
    expect((error as LlmError).kind).toBe('malformed')
    const lines = new SseDecoder()
    const line = `data: ${'y'.repeat(1000)}\n`
    expect(() => {
      for (let i = 0; i <= MAX_EVENT_CHARS / 1000; i++) lines.push(bytes(line))
    }).toThrow(LlmError)
    // Under the limit, an event of many lines is one event.
    expect(decode(`${line.repeat(100)}\n`)[0]!.data.length).toBe(100 * 1000 + 99)
  })
})
