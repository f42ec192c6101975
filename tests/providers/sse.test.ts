import { describe, expect, test } from 'bun:test'
import { type ServerSentEvent, SseDecoder } from '../../src/providers/llm/sse'

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
})
