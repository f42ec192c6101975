import { afterAll, beforeAll, describe, expect, spyOn, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import v8 from 'node:v8'
import { sql } from 'drizzle-orm'
import { createApp } from '../../src/app'
import { buildDeps, loadConfig } from '../../src/boot'
import { freshDatabase } from '../support/database'
import { sample } from '../support/metrics'
import { caller, createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { startReceiver } from '../support/receiver'
import { realtimeStream } from '../support/sse'
import { provision, type Provisioned } from '../support/tenancy'
import { until } from '../support/wait'

const TOKEN = 'metrics-token-for-the-tests-0123'
const root = join(import.meta.dir, '..', '..')
const promtool = Bun.which('promtool')
const receiver = startReceiver()

let h: Harness
let admin: RegisteredUser
let org: Provisioned
beforeAll(async () => {
  h = await createHarness({ METRICS_TOKEN: TOKEN, WEBHOOK_PRIVATE_ADDRESSES: 'allow' }, { onDisk: true })
  admin = await h.register()
  org = await provision(h, admin)
})
afterAll(async () => {
  await h.close()
  receiver.close()
})

const scrape = async () => {
  const res = await h.app.handle(new Request('http://localhost/metrics', { headers: { authorization: `Bearer ${TOKEN}` } }))
  expect(res.status).toBe(200)
  return { text: await res.text(), contentType: res.headers.get('content-type') }
}

/** Runs promtool with `args`, `input` on its stdin: its exit code and what it printed. */
async function runPromtool(args: string[], input?: string) {
  const proc = Bun.spawn([promtool!, ...args], { stdin: input === undefined ? 'ignore' : new Blob([input]), stdout: 'pipe', stderr: 'pipe' })
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { code, output: out + err }
}

/** Metric names an expression file uses (histogram series named by their metric). */
const metricNames = (text: string) =>
  new Set([...text.matchAll(/\b((?:ecobase|process|nodejs)_[a-z_]+)/g)].map((m) => m[1]!.replace(/_(bucket|count|sum)$/, '')))

describe('liveness and readiness', () => {
  test('a running server is live and ready, every check ok', async () => {
    expect(await h.call('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } })
    const ready = await h.call('GET', '/health/ready')
    expect(ready.status).toBe(200)
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', queue: 'ok', shutdown: 'running' } })
  })

  test('readiness names the first failing check: queue stopped, migrations missing, database gone, draining; liveness answers throughout', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-ready-'))
    const fresh = await freshDatabase()
    const deps = buildDeps(loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, DB_STALL_SECONDS: '5' }), fresh.database)
    const call = caller(createApp(deps))
    const ready = async () => {
      const res = await call('GET', '/health/ready')
      expect(await call('GET', '/health/live')).toMatchObject({ status: 200, body: { status: 'ok' } })
      return res
    }
    try {
      // The queue is never started here.
      expect(await ready()).toMatchObject({
        status: 503,
        body: { status: 'not_ready', checks: { database: 'ok', migrations: 'ok', queue: 'stopped' }, error: { code: 'queue_stopped' } },
      })
      await deps.db.execute(sql`delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)`)
      const pending = await ready()
      expect(pending).toMatchObject({ status: 503, body: { checks: { migrations: 'pending' }, error: { code: 'migrations_pending' } } })
      expect(pending.body.error.message).toContain('npx ecobase migrate')
      await fresh.drop()
      expect(await ready()).toMatchObject({
        status: 503,
        body: { checks: { database: 'down', migrations: 'unknown' }, error: { code: 'database_unavailable' } },
      })
      deps.shutdown.begin()
      expect(await ready()).toMatchObject({ status: 503, body: { checks: { shutdown: 'draining' }, error: { code: 'draining' } } })
      // /health keeps its own answer.
      expect(await call('GET', '/health')).toMatchObject({ status: 503, body: { database: 'down' } })
    } finally {
      rmSync(dataDir, { recursive: true, force: true })
    }
  })

  test('probes and scrapes are logged at debug level, not info', async () => {
    h.logLines.length = 0
    await h.call('GET', '/health/live')
    await h.call('GET', '/health/ready')
    await h.call('GET', '/metrics', { token: TOKEN })
    await h.call('GET', '/site/version')
    await Bun.sleep(20)
    const requests = h.logLines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request')
    expect(requests.map((l) => [l.path, l.level])).toEqual([
      ['/health/live', 'debug'],
      ['/health/ready', 'debug'],
      ['/metrics', 'debug'],
      ['/site/version', 'info'],
    ])
  })
})

describe('metrics', () => {
  test('after real traffic every area has moved, by route template, and promtool accepts the exposition', async () => {
    // HTTP and the database: sign-in, a document written and read by its id, an unknown path.
    expect((await h.call('POST', '/auth/login', { body: { email: admin.email, password: admin.password } })).status).toBe(200)
    const doc = await h.call('POST', '/data/documents', { ...org.as(admin), body: { title: 'Metered' } })
    expect(doc.status).toBe(201)
    expect((await h.call('GET', `/data/documents/${doc.body.id}`, org.as(admin))).status).toBe(200)
    const stray = crypto.randomUUID()
    expect((await h.call('GET', `/nowhere/${stray}`)).status).toBe(404)
    // The queue, webhooks and e-mail: a test delivery to a local receiver, a password-reset mail (to the outbox).
    const hook = await h.call('POST', '/integrations/webhooks', { ...org.as(admin), body: { url: `${receiver.url}/metrics-hook`, events: [] } })
    expect((await h.call('POST', `/integrations/webhooks/${hook.body.id}/test`, org.as(admin))).status).toBe(200)
    expect((await h.call('POST', '/auth/password-reset/request', { body: { email: admin.email } })).status).toBe(202)
    // Realtime: one open stream.
    const stream = await realtimeStream(h.app, admin.token, 'data/documents', { headers: { 'x-ecosystem-id': org.ecosystem.id } })
    expect((await stream.sse.next()).event).toBe('ready')
    // Backups: one complete.
    const backup = await h.call('POST', '/system/backups', { token: admin.token })
    expect(backup.status).toBe(202)
    await until(async () => (await h.call('GET', '/system/backups', { token: admin.token })).body.items[0].status === 'complete', 30_000)

    let text = ''
    await until(async () => {
      text = (await scrape()).text
      return (
        (sample(text, 'ecobase_webhook_deliveries_total{outcome="delivered"}') ?? 0) >= 1 &&
        (sample(text, 'ecobase_messages_sent_total{channel="email",transport="outbox",outcome="sent"}') ?? 0) >= 1
      )
    }, 20_000)
    const { contentType } = await scrape()
    expect(contentType).toBe('text/plain; version=0.0.4; charset=utf-8')

    expect(sample(text, 'ecobase_http_requests_total{method="GET",route="/data/documents/:id",status="200"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'ecobase_http_requests_total{method="POST",route="/auth/login",status="200"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'ecobase_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(1)
    expect(sample(text, 'ecobase_http_request_duration_seconds_count{method="GET",route="/data/documents/:id"}')).toBeGreaterThanOrEqual(1)
    // Templates, never raw paths: no id appears anywhere.
    expect(text).not.toContain(doc.body.id)
    expect(text).not.toContain(stray)
    expect(sample(text, 'ecobase_db_statement_duration_seconds_count')).toBeGreaterThan(10)
    expect(sample(text, 'ecobase_db_connection_wait_seconds_count')).toBeGreaterThan(0)
    expect(sample(text, 'ecobase_db_statements_in_flight')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'ecobase_queue_jobs{queue="webhook-deliver",state="ready"}')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'ecobase_queue_oldest_ready_job_age_seconds{queue="webhook-deliver"}')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'ecobase_realtime_subscribers')).toBe(1)
    expect(sample(text, 'ecobase_backup_last_complete_age_seconds')).toBeGreaterThanOrEqual(0)
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0)
    expect(sample(text, 'process_cpu_seconds_total')).toBeGreaterThan(0)
    await stream.sse.close()

    if (!promtool) {
      console.warn('promtool not found (apt-get install prometheus): the exposition is not linted')
      return
    }
    const checked = await runPromtool(['check', 'metrics'], text)
    expect(checked.output).toBe('')
    expect(checked.code).toBe(0)
  })

  test('a scrape never walks the heap: the heap-space gauges are left out, the heap’s size is there', async () => {
    // Bun answers v8's heap statistics by walking the heap, tens of milliseconds of the event loop.
    const walks = [spyOn(v8, 'getHeapSpaceStatistics'), spyOn(v8, 'getHeapStatistics')]
    try {
      const { text } = await scrape()
      expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0)
      expect(text).not.toContain('nodejs_heap_space_')
      for (const walk of walks) expect(walk).not.toHaveBeenCalled()
    } finally {
      for (const walk of walks) walk.mockRestore()
    }
  })

  test('a job waiting shows in its queue’s depth and oldest ready age', async () => {
    // JOBS=off: jobs are enqueued and nothing takes them.
    const idle = await createHarness({ METRICS_TOKEN: TOKEN, JOBS: 'off', WEBHOOK_PRIVATE_ADDRESSES: 'allow' })
    try {
      const owner = await idle.register()
      const shop = await provision(idle, owner)
      const hook = await idle.call('POST', '/integrations/webhooks', { ...shop.as(owner), body: { url: `${receiver.url}/waiting`, events: [] } })
      expect((await idle.call('POST', `/integrations/webhooks/${hook.body.id}/test`, shop.as(owner))).status).toBe(200)
      await Bun.sleep(1100)
      const text = (await idle.call('GET', '/metrics', { token: TOKEN })).body as string
      expect(sample(text, 'ecobase_queue_jobs{queue="webhook-deliver",state="ready"}')).toBe(1)
      expect(sample(text, 'ecobase_queue_jobs{queue="webhook-deliver",state="active"}')).toBe(0)
      expect(sample(text, 'ecobase_queue_oldest_ready_job_age_seconds{queue="webhook-deliver"}')).toBeGreaterThanOrEqual(1)
      expect(sample(text, 'ecobase_queue_oldest_ready_job_age_seconds{queue="account-email"}')).toBe(0)
    } finally {
      await idle.close()
    }
  })
})

describe('dashboards and alerts (docs/operations)', () => {
  test('the alert rules pass promtool, and they and the Grafana dashboard use only metrics the service exposes', async () => {
    const exposed = metricNames((await scrape()).text)
    const rules = readFileSync(join(root, 'docs/operations/prometheus-alerts.yml'), 'utf8')
    const dashboard = readFileSync(join(root, 'docs/operations/grafana-dashboard.json'), 'utf8')
    JSON.parse(dashboard)
    const used = [...metricNames(rules), ...metricNames(dashboard)]
    expect(used.length).toBeGreaterThan(5)
    expect(used.filter((name) => !exposed.has(name))).toEqual([])
    if (!promtool) {
      console.warn('promtool not found (apt-get install prometheus): the alert rules are not checked')
      return
    }
    const checked = await runPromtool(['check', 'rules', join(root, 'docs/operations/prometheus-alerts.yml')])
    expect(checked.code).toBe(0)
  })
})
