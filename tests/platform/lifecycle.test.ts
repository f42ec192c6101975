import { afterAll, describe, expect, test } from 'bun:test'
import { resolve } from 'node:path'
import { BACKGROUND_DELAY_MS } from '../../src/main'
import { freshDatabase, testDatabaseUrl } from '../support/database'
import { startFakeOpenAi } from '../support/fake-openai'
import { rawConnection } from '../support/raw-http'
import { caller, cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'
import { tcpProxy } from '../support/tcp-proxy'
import { rejection, until } from '../support/wait'

// Real processes on the embedded database (the data-directory lock is the embedded mode's); the
// database the suite runs against does not matter here.
afterAll(cleanUp)

const oneLine = async (proc: Bun.Subprocess) => (await new Response(proc.stderr as ReadableStream).text()).trim().split('\n')
/** The server's JSON log lines, parsed. */
const logLines = async (proc: Bun.Subprocess) =>
  (await new Response(proc.stdout as ReadableStream).text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l))

/**
 * A JSON POST on a connection of its own whose body waits. It resolves once the server has taken the
 * request up (its handler runs, and Bun answers `Expect: 100-continue`): a signal sent after that
 * finds the request in flight. A request still on its way, or only in the socket's buffer, would find
 * an idle connection, which a stopping server closes (seen on a loaded CI machine).
 */
async function heldPost(port: number, path: string, body: unknown) {
  const text = JSON.stringify(body)
  const connection = rawConnection(port)
  connection.write(
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(text)}\r\nExpect: 100-continue\r\n\r\n`,
  )
  expect(await connection.response(20_000)).toMatchObject({ status: 100 })
  return {
    /** Sends the body; the status of the answer (undefined when the connection was closed instead). */
    send: async () => {
      connection.write(text)
      const answer = await connection.response(20_000)
      connection.end()
      return answer?.status
    },
  }
}

describe('one process per embedded data directory', () => {
  test('a second server on the same DATA_DIR refuses to start, naming the directory and the holder; kill -9 frees it', async () => {
    const dataDir = tempDir()
    const [portA, portB] = [freePort(), freePort()]
    const a = start({ DATA_DIR: dataDir, PORT: String(portA) })
    await untilHealthy(portA, a)
    const b = start({ DATA_DIR: dataDir, PORT: String(portB) })
    expect(await b.exited).toBe(1)
    const lines = await oneLine(b)
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(resolve(dataDir))
    expect(lines[0]).toContain(`pid ${a.pid}`)

    a.kill('SIGKILL')
    await a.exited
    const c = start({ DATA_DIR: dataDir, PORT: String(portB) })
    await untilHealthy(portB, c)
    c.kill('SIGTERM')
    expect(await c.exited).toBe(0)
  }, 60_000)
})

describe('a busy port', () => {
  test('is refused with one line naming it, instead of sharing it with the process that holds it', async () => {
    // Another Ecobase asks for SO_REUSEPORT too: without the fix the kernel lets both listen and splits the traffic.
    const holder = Bun.serve({ hostname: '127.0.0.1', port: 0, reusePort: true, fetch: () => new Response('other') })
    try {
      const proc = start({ DATA_DIR: tempDir(), PORT: String(holder.port) })
      expect(await proc.exited).toBe(1)
      expect(await oneLine(proc)).toEqual([`ecobase: PORT ${holder.port} on 127.0.0.1 is already in use by another process`])
    } finally {
      holder.stop(true)
    }
  }, 30_000)
})

describe('SIGTERM drains', () => {
  test('requests and a chat stream in flight finish; then one log line and exit 0', async () => {
    const fake = startFakeOpenAi()
    const port = freePort()
    const base = `http://127.0.0.1:${port}`
    const proc = start({ DATA_DIR: tempDir(), PORT: String(port), LOG_LEVEL: 'info', OPENAI_BASE_URL: fake.url, SHUTDOWN_TIMEOUT_SECONDS: '20' })
    try {
      await untilHealthy(port, proc)
      const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
      const owner = await (await post('/auth/register', { email: 'drain@example.test', password: 'drain-password', name: 'Drain' })).json()
      const org = await (await post('/registry/organizations', { slug: 'drain', name: 'Drain' }, { authorization: `Bearer ${owner.token}` })).json()
      const as = { authorization: `Bearer ${owner.token}`, 'x-ecosystem-id': org.ecosystem.id }
      const conversation = await (await post('/chat/conversations', { model: 'slow' }, as)).json()

      // The `slow` model streams 200 pieces over about 4 s; registrations hash a password each.
      const stream = await post(`/chat/conversations/${conversation.id}/messages`, { message: 'take your time' }, as)
      expect(stream.status).toBe(200)
      const reading = stream.text()
      const registrations = await Promise.all(
        Array.from({ length: 6 }, (_, i) => heldPost(port, '/auth/register', { email: `late${i}@example.test`, password: 'drain-password', name: 'Late' })),
      )
      // Three are hashing when the signal comes; the bodies of the other three arrive after it.
      const before = registrations.slice(0, 3).map((r) => r.send())
      proc.kill('SIGTERM')
      const after = registrations.slice(3).map((r) => r.send())

      expect(await Promise.all([...before, ...after])).toEqual([201, 201, 201, 201, 201, 201])
      const sse = await reading
      expect(sse.match(/event: token/g)?.length).toBe(200)
      expect(sse).toContain('event: done')
      expect(await proc.exited).toBe(0)
      const out = await logLines(proc)
      expect(out.filter((l) => l.msg === 'ecobase stopped')).toEqual([expect.objectContaining({ signal: 'SIGTERM', drained: true })])
      await rejection(fetch(`${base}/health`))
    } finally {
      await fake.stop()
    }
  }, 60_000)
})

describe('the background work starts after the server answers', () => {
  test('a SIGTERM before it starts (BACKGROUND_DELAY_MS after listening) cancels it: a drain that outlasts the delay starts no maintenance pass and no job worker', async () => {
    const port = freePort()
    const proc = start({ DATA_DIR: tempDir(), PORT: String(port), JOBS: 'on', LOG_LEVEL: 'debug', SHUTDOWN_TIMEOUT_SECONDS: '20' })
    await untilHealthy(port, proc)
    // A request whose body is still arriving is in flight: the drain waits for it past the delay.
    const login = await heldPost(port, '/auth/login', { email: 'late@example.test', password: 'late-password' })
    proc.kill('SIGTERM')
    await Bun.sleep(BACKGROUND_DELAY_MS + 500)
    expect(await login.send()).toBe(401)
    expect(await proc.exited).toBe(0)
    const out = await logLines(proc)
    expect(out.filter((l) => l.msg === 'ecobase stopped')).toEqual([expect.objectContaining({ signal: 'SIGTERM', drained: true })])
    // A maintenance pass that ran would have said so at debug level.
    expect(out.filter((l) => l.msg === 'database maintenance' || l.level === 'error')).toEqual([])
  }, 60_000)
})

describe('SIGTERM ends open streams at once', () => {
  test('20 realtime and feed streams each get a last `shutdown` event with retry:, and the process exits without waiting for its timeout', async () => {
    const port = freePort()
    const base = `http://127.0.0.1:${port}`
    const proc = start({ DATA_DIR: tempDir(), PORT: String(port), LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_SECONDS: '20' })
    await untilHealthy(port, proc)
    const call = caller(base)
    const owner = (await call('POST', '/auth/register', { body: { email: 'streams@example.test', password: 'streams-password', name: 'Streams' } })).body
    const org = (await call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'streams', name: 'Streams' } })).body
    const headers = { authorization: `Bearer ${owner.token}`, 'x-ecosystem-id': org.ecosystem.id }
    const paths = Array.from({ length: 20 }, (_, i) => (i % 2 ? '/site/feed/stream' : '/realtime/stream?topics=data/documents'))
    const streams = await Promise.all(paths.map((path) => fetch(base + path, { headers })))
    expect(streams.map((s) => s.status)).toEqual(paths.map(() => 200))
    const bodies = streams.map((s) => s.text())
    // Every stream has said it is open (realtime: ready; feed: its first ping) before the signal.
    await Bun.sleep(300)
    proc.kill('SIGTERM')

    for (const body of await Promise.all(bodies)) {
      const last = body.trim().split('\n\n').at(-1)!
      expect(last).toContain('event: shutdown')
      expect(last).toContain('retry: 1000')
    }
    expect(await proc.exited).toBe(0)
    const out = await logLines(proc)
    const stopped = out.find((l) => l.msg === 'ecobase stopped')
    expect(stopped).toMatchObject({ signal: 'SIGTERM', drained: true, closed: true })
    // Not the 20 s the timeout allows: the streams ended at once.
    expect(stopped.stopMs).toBeLessThan(10_000)
  }, 60_000)

  test.skipIf(!testDatabaseUrl)(
    'a database that never answers: /health says database_stalled, and SIGTERM still ends the process',
    async () => {
      const database = await freshDatabase()
      const url = new URL(database.url!)
      const proxy = tcpProxy({ hostname: url.hostname, port: Number(url.port || 5432) })
      url.hostname = '127.0.0.1'
      url.port = String(proxy.port)
      const port = freePort()
      const base = `http://127.0.0.1:${port}`
      const proc = start({ DATABASE_URL: url.toString(), PORT: String(port), LOG_LEVEL: 'info', SHUTDOWN_TIMEOUT_SECONDS: '2', DB_STALL_SECONDS: '1' })
      try {
        await untilHealthy(port, proc)
        proxy.freeze()
        // A request that needs the database hangs; its statement is what stalls.
        const hanging = fetch(`${base}/auth/first-run`).catch(() => null)
        await until(
          async () =>
            (await fetch(`${base}/health`).then(
              (r) => r.status,
              () => 0,
            )) === 503,
          10_000,
        )
        expect(await (await fetch(`${base}/health`)).json()).toMatchObject({ status: 'degraded', database: 'stalled', error: { code: 'database_stalled' } })

        proc.kill('SIGTERM')
        expect(await proc.exited).toBe(0)
        await hanging
        const out = await logLines(proc)
        expect(out.find((l) => l.msg === 'database stalled')).toMatchObject({ waiting: expect.any(Number), statement: expect.any(String) })
        expect(out.find((l) => l.msg === 'ecobase stopped')).toMatchObject({ signal: 'SIGTERM', drained: false, closed: false })
      } finally {
        proxy.stop()
        await database.drop()
      }
    },
    60_000,
  )
})
