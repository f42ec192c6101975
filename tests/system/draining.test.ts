import { afterAll, expect, test } from 'bun:test'
import { emptyDatabase, testDatabaseUrl } from '../support/database'
import { rawConnection } from '../support/raw-http'
import { cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'

// Readiness while draining, through the real process (`src/index.ts`) and real TCP connections:
// the balancer's view of a SIGTERM. What Bun does with connections at `server.stop(false)`
// decides what can be seen: an idle keep-alive connection is closed at once, new connections are
// refused, and a request already begun on a connection is still answered, here 503 `draining`.

let dropAfter: (() => Promise<void>) | undefined
afterAll(async () => {
  await cleanUp()
  await dropAfter?.()
})

const READY = 'GET /health/ready HTTP/1.1\r\nHost: ecobase\r\n'

test('after SIGTERM: new connections are refused, an idle keep-alive one is closed, a probe begun on an open one answers 503 draining; then the process exits 0', async () => {
  const port = freePort()
  // On PostgreSQL when the suite runs there: the readiness checks read the database's own state.
  const database = testDatabaseUrl ? await emptyDatabase() : null
  dropAfter = database?.drop
  const proc = start({ PORT: String(port), DATA_DIR: tempDir(), SHUTDOWN_TIMEOUT_SECONDS: '10', ...(database ? { DATABASE_URL: database.url } : {}) })
  await untilHealthy(port, proc)

  const idle = rawConnection(port)
  idle.write(`${READY}\r\n`)
  expect(await idle.response()).toMatchObject({ status: 200, body: { status: 'ready', checks: { shutdown: 'running' } } })
  // The balancer's next probe, begun before the signal: its headers are not finished yet.
  const begun = rawConnection(port)
  begun.write(`${READY}x-probe: balancer\r\n`)
  await Bun.sleep(100)

  proc.kill('SIGTERM')
  // The listener closes right after the shutdown begins (platform/shutdown, then server.stop).
  const deadline = Date.now() + 5000
  while (
    await fetch(`http://127.0.0.1:${port}/health/live`).then(
      () => true,
      () => false,
    )
  ) {
    if (Date.now() > deadline) throw new Error('the server still accepts connections 5 s after SIGTERM')
    await Bun.sleep(20)
  }

  begun.write('\r\n')
  expect(await begun.response()).toEqual({
    status: 503,
    body: {
      status: 'not_ready',
      checks: { database: 'ok', migrations: 'ok', queue: 'ok', shutdown: 'draining' },
      error: { code: 'draining', message: expect.any(String) },
    },
  })
  // Bun closes a keep-alive connection with no request under way when the server stops: no probe
  // can be sent on it, the balancer's next one opens a new connection, which is refused.
  expect(await idle.response()).toBeNull()
  expect(idle.closed).toBe(true)
  begun.end()
  expect(await proc.exited).toBe(0)
})
