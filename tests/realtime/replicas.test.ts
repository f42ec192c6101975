import { afterAll, expect, test } from 'bun:test'
import { chmodSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import postgres from 'postgres'
import { createClient, type RealtimeEvent } from '../../client/index'
import { freshDatabase, testDatabaseUrl, type TestDatabase } from '../support/database'
import { caller, cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'
import { sseReader } from '../support/sse'
import { until } from '../support/wait'

// Two server processes on one PostgreSQL behind nginx on loopback, as a deployment runs them:
// a change written through one reaches a stream held by the other, a client moved between them
// resumes by cursor, and the typed client rides out the death of the replica it streams from.
// Two processes cannot share an embedded PGlite, so this runs in the PostgreSQL suite; .ci/run
// installs Debian's nginx (nginx-light) as it installs Chromium.

const nginx = Bun.which('nginx') ?? (Bun.file('/usr/sbin/nginx').size ? '/usr/sbin/nginx' : null)
let database: TestDatabase | undefined
let proxy: Bun.Subprocess | undefined
afterAll(async () => {
  proxy?.kill('SIGTERM')
  await proxy?.exited
  await cleanUp()
  await database?.drop()
})

/** nginx on `port`, routing by `X-Replica: a|b` (round robin, with failover, without it). */
async function startProxy(port: number, replicas: { a: number; b: number }) {
  const dir = tempDir()
  chmodSync(dir, 0o755)
  const conf = join(dir, 'nginx.conf')
  writeFileSync(
    conf,
    `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  upstream a { server 127.0.0.1:${replicas.a}; }
  upstream b { server 127.0.0.1:${replicas.b}; }
  upstream both { server 127.0.0.1:${replicas.a}; server 127.0.0.1:${replicas.b}; }
  map $http_x_replica $replica { default both; a a; b b; }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://$replica;
      proxy_http_version 1.1;
      proxy_set_header Connection '';
      proxy_set_header Host $host;
      proxy_buffering off;
      proxy_read_timeout 1h;
      proxy_next_upstream error timeout http_502;
    }
  }
}
`,
  )
  const proc = Bun.spawn([nginx!, '-c', conf, '-p', dir], { stdout: 'ignore', stderr: 'pipe' })
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    if (proc.exitCode !== null) throw new Error(`nginx exited: ${await new Response(proc.stderr).text()}`)
    try {
      await fetch(`http://127.0.0.1:${port}/health`)
      return proc
    } catch {}
    await Bun.sleep(50)
  }
  throw new Error('nginx did not start')
}

test.skipIf(!testDatabaseUrl || !nginx)(
  'two replicas behind nginx: changes cross replicas even with a transaction left open elsewhere, a stream moves between them by cursor, the typed client follows a replica stopping and survives one dying',
  async () => {
    database = await freshDatabase()
    // Three different ports: the kernel may hand the same free port to two calls in a row.
    const ports = new Set<number>()
    while (ports.size < 3) ports.add(freePort())
    const [portA, portB, portProxy] = [...ports] as [number, number, number]
    const env = (port: number) => ({ DATABASE_URL: database!.url!, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${portProxy}` })
    const a = start(env(portA))
    const b = start(env(portB))
    await Promise.all([untilHealthy(portA, a, 60_000), untilHealthy(portB, b, 60_000)])
    proxy = await startProxy(portProxy, { a: portA, b: portB })
    const base = `http://127.0.0.1:${portProxy}`
    const call = caller(base)
    const via = (replica: 'a' | 'b') => ({ 'x-replica': replica })

    const owner = (await call('POST', '/auth/register', { body: { email: 'replicas@example.test', password: 'replica-password-1', name: 'Owner' } })).body
    const ecosystem = (await call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'replicas', name: 'Replicas' } })).body.ecosystem.id
    const { customerId } = (await call('POST', '/customer/resolve', { token: owner.token, ecosystem, body: { externalId: 'ada' } })).body
    const ada = (await call('POST', '/customer/token', { token: owner.token, ecosystem, body: { customerId } })).body

    // A browser's way in: a ticket from one replica opens a stream on the other.
    const { ticket } = (await call('POST', '/realtime/tickets', { token: ada.token, headers: via('a') })).body
    const onB = sseReader(await fetch(`${base}/realtime/stream?topics=userdata/notes&ticket=${ticket}`, { headers: via('b') }))
    expect((await onB.next()).event).toBe('ready')
    const { body: one } = await call('POST', '/userdata/notes', { token: ada.token, headers: via('a'), body: { title: 'written on a' } })
    const got = await onB.next()
    expect(got.data).toMatchObject({ topic: 'userdata/notes', op: 'insert', id: one.id })
    await onB.close()

    // A transaction left open in another database of the server (idle in transaction, holding back
    // the server's oldest snapshot) delays no one's changes: a write on a still reaches b at once.
    const idle = postgres(testDatabaseUrl!, { max: 1, onnotice: () => {} })
    const held = await idle.reserve()
    let latest = got
    await held`begin`
    await held`select pg_current_xact_id()`
    try {
      const watching = sseReader(
        await fetch(`${base}/realtime/stream?topics=userdata/notes`, { headers: { ...via('b'), authorization: `Bearer ${ada.token}` } }),
      )
      expect((await watching.next()).event).toBe('ready')
      const { body: meanwhile } = await call('POST', '/userdata/notes', {
        token: ada.token,
        headers: via('a'),
        body: { title: 'while a transaction waits elsewhere' },
      })
      latest = await watching.next(3000)
      expect(latest.data).toMatchObject({ op: 'insert', id: meanwhile.id })
      await watching.close()
    } finally {
      await held`rollback`
      held.release()
      await idle.end({ timeout: 5 })
    }

    // Moved: the stream comes back on replica a with its cursor and gets what b wrote meanwhile, once.
    const { body: two } = await call('POST', '/userdata/notes', { token: ada.token, headers: via('b'), body: { title: 'written on b' } })
    const onA = sseReader(
      await fetch(`${base}/realtime/stream?topics=userdata/notes`, {
        headers: { ...via('a'), authorization: `Bearer ${ada.token}`, 'last-event-id': latest.id! },
      }),
    )
    expect((await onA.next()).event).toBe('ready')
    expect((await onA.next()).data.id).toBe(two.id)
    expect(await onA.none(500)).toBe(true)
    await onA.close()

    // A replica stopped with SIGTERM ends its streams at once with `shutdown`: the typed client, sent
    // to the other replica by the balancer from then on, resumes there from its cursor.
    let route: 'a' | 'b' = 'a'
    const mover = createClient({ baseUrl: base, tokens: { token: ada.token, refreshToken: ada.refreshToken }, headers: () => via(route) })
    const stop = new AbortController()
    const moved: RealtimeEvent<'userdata/notes'>[] = []
    const following = (async () => {
      for await (const ev of mover.realtime.subscribe(['userdata/notes'], { signal: stop.signal })) moved.push(ev)
    })()
    await Bun.sleep(500)
    const { body: beforeStop } = await call('POST', '/userdata/notes', { token: ada.token, headers: via('b'), body: { title: 'before the stop' } })
    await until(() => moved.length === 1, 10_000)
    a.kill('SIGTERM')
    route = 'b'
    expect(await a.exited).toBe(0)
    const { body: afterStop } = await call('POST', '/userdata/notes', { token: ada.token, headers: via('b'), body: { title: 'after the stop' } })
    await until(() => moved.length === 2, 15_000)
    stop.abort()
    await following
    expect(moved.map((e) => e.event === 'change' && e.data.id)).toEqual([beforeStop.id, afterStop.id])
    const a2 = start(env(portA))
    await untilHealthy(portA, a2, 60_000)

    // The typed client streams through the proxy; the replica serving it dies; it resumes on the other.
    const client = createClient({ baseUrl: base, tokens: { token: ada.token, refreshToken: ada.refreshToken } })
    const controller = new AbortController()
    const seen: RealtimeEvent<'userdata/notes'>[] = []
    const reading = (async () => {
      for await (const ev of client.realtime.subscribe(['userdata/notes'], { signal: controller.signal })) seen.push(ev)
    })()
    await Bun.sleep(500)
    const { body: three } = await call('POST', '/userdata/notes', { token: ada.token, body: { title: 'before the crash' } })
    await until(() => seen.length === 1, 10_000)
    a2.kill('SIGKILL')
    b.kill('SIGKILL')
    await Promise.all([a2.exited, b.exited])
    // Both gone for a moment (the client backs off), then one comes back: the stream resumes there.
    const c = start(env(portB))
    await untilHealthy(portB, c, 60_000)
    const { body: four } = await call('POST', '/userdata/notes', { token: ada.token, headers: via('b'), body: { title: 'after the crash' } })
    await until(() => seen.length === 2, 30_000)
    controller.abort()
    await reading
    expect(seen.map((e) => e.event === 'change' && e.data.id)).toEqual([three.id, four.id])
  },
  180_000,
)
