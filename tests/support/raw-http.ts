import { connect } from 'node:net'

/**
 * One raw HTTP/1.1 connection to 127.0.0.1: what is written goes as is; `response()` reads one
 * answer (an interim `100 Continue` is one too), or null once the server closed the connection.
 */
export function rawConnection(port: number) {
  const socket = connect(port, '127.0.0.1')
  let received = ''
  let closed = false
  let wake = () => {}
  socket.on('data', (chunk) => {
    received += chunk.toString()
    wake()
  })
  socket.on('close', () => {
    closed = true
    wake()
  })
  socket.on('error', () => {})
  const answer = () => {
    const end = received.indexOf('\r\n\r\n')
    if (end < 0) return null
    const length = Number(/content-length: (\d+)/i.exec(received.slice(0, end))?.[1] ?? 0)
    if (received.length < end + 4 + length) return null
    const head = received.slice(0, end)
    const body = received.slice(end + 4, end + 4 + length)
    received = received.slice(end + 4 + length)
    return { status: Number(head.split(' ')[1]), body: length ? JSON.parse(body) : null }
  }
  return {
    write: (text: string) => socket.write(text),
    get closed() {
      return closed
    },
    async response(ms = 10_000): Promise<{ status: number; body: any } | null> {
      const deadline = Date.now() + ms
      for (;;) {
        const got = answer()
        if (got) return got
        if (closed) return null
        if (Date.now() > deadline) throw new Error('no answer in time')
        await new Promise<void>((resolve) => {
          wake = resolve
          setTimeout(resolve, 50)
        })
      }
    },
    end: () => socket.destroy(),
  }
}
