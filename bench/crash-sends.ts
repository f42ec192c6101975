/**
 * P15: sends after kill -9. A real server (JOBS=on) delivers `webhooks` customer.created webhooks
 * to a local receiver (3 s each) and `emails` announcement e-mails to a local SMTP server (100 ms
 * each), so that both are under way; the server is killed with SIGKILL part-way, restarted on the
 * same database, and the bench waits until every webhook id and every recipient has arrived.
 * Reported: lost (never arrived), seconds from the restart until the last arrived, and repeats —
 * webhooks by `webhook-id` (receivers deduplicate on it), e-mails by Message-ID — against the
 * e-mails that were inside an SMTP exchange when the server died.
 *
 *   npx bun bench/crash-sends.ts [--db=pglite,postgres] [--webhooks=300] [--emails=200]
 */
import postgres from 'postgres'
import { SMTPServer } from 'smtp-server'
import {
  type Backend,
  BACKENDS,
  benchArgs,
  benchMain,
  type BenchCommand,
  createTempDatabase,
  eachBackend,
  fmt,
  markdownTable,
  type RunInfo,
  runInfo,
  sleep,
  startServer,
  type Server,
} from './support'

export interface CrashSendsOptions {
  backends?: Backend[]
  webhooks?: number
  emails?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  beforeKill?: { webhooks: number; emails: number }
  inFlightEmails?: number
  inFlightWebhooks?: number
  lostWebhooks?: number
  lostEmails?: number
  repeatedWebhooks?: number
  repeatedEmails?: number
  secondsToAll?: number
}

export interface CrashSendsResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  webhooks: number
  emails: number
  backends: BackendResult[]
}

/** Received messages counted by their id. */
class Tally {
  readonly counts = new Map<string, number>()
  add(id: string) {
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1)
  }
  get total() {
    return [...this.counts.values()].reduce((a, b) => a + b, 0)
  }
  get repeats() {
    return this.total - this.counts.size
  }
}

/** The receiver takes `webhookMs` per webhook and the SMTP server `emailMs` before it answers a message. */
async function startPeers(webhookMs: number, emailMs: number) {
  const webhooks = new Tally()
  const exchanges = { open: 0, webhooks: 0 }
  const receiver = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      await req.arrayBuffer()
      exchanges.webhooks++
      await sleep(webhookMs)
      exchanges.webhooks--
      webhooks.add(req.headers.get('webhook-id') ?? 'none')
      return new Response(null, { status: 204 })
    },
  })
  const emails = new Tally()
  const recipients = new Set<string>()
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      exchanges.open++
      let head = ''
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('utf8')
      })
      stream.on('end', () => {
        setTimeout(() => {
          exchanges.open--
          emails.add(/^message-id:\s*(\S+)/im.exec(head)?.[1] ?? 'none')
          for (const r of session.envelope.rcptTo) recipients.add(r.address)
          callback()
        }, emailMs)
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  const smtpPort = (smtp.server.address() as { port: number }).port
  return {
    webhookUrl: `http://127.0.0.1:${receiver.port}/hook`,
    smtpUrl: `smtp://127.0.0.1:${smtpPort}`,
    webhooks,
    emails,
    recipients,
    exchanges,
    stop: async () => {
      receiver.stop(true)
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    },
  }
}

type Caller = (method: string, path: string, options?: { token?: string; ecosystem?: string; body?: unknown }) => Promise<any>
const caller =
  (server: () => Server): Caller =>
  async (method, path, { token, ecosystem, body } = {}) => {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    if (token) headers.authorization = `Bearer ${token}`
    if (ecosystem) headers['x-ecosystem-id'] = ecosystem
    const res = await fetch(`${server().url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await res.text()
    if (res.status >= 400) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 200)}`)
    return text ? JSON.parse(text) : null
  }

export async function benchCrashSends(options: CrashSendsOptions = {}): Promise<CrashSendsResult> {
  const webhookCount = options.webhooks ?? 300
  const emailCount = options.emails ?? 200
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(options.backends ?? BACKENDS, log, async (backend): Promise<BackendResult> => {
    const peers = await startPeers(3000, 100)
    const db = backend === 'postgres' ? await createTempDatabase() : undefined
    const env = { JOBS: 'on', SMTP_URL: peers.smtpUrl, MAIL_FROM: 'Shop <shop@example.test>', WEBHOOK_PRIVATE_ADDRESSES: 'allow', QUEUE_POLL_SECONDS: '1' }
    let server = await startServer({ databaseUrl: db?.url, env, label: backend, bootTimeoutMs: 60_000 })
    const dataDir = server.dataDir
    try {
      const call = caller(() => server)
      const owner = await call('POST', '/auth/register', { body: { email: 'owner@example.test', password: 'crash-bench-password', name: 'Owner' } })
      const ecosystem: string = (await call('POST', '/registry/organizations', { token: owner.token, body: { slug: 'crash-bench', name: 'Crash bench' } }))
        .ecosystem.id
      const as = { token: owner.token, ecosystem }
      // Customers who want announcements by e-mail; then the webhook endpoint, the announcement and
      // the customers whose creation sends the webhooks, so both kinds are under way at the kill.
      for (let i = 0; i < emailCount; i++) {
        const { customerId } = await call('POST', '/customer/resolve', { ...as, body: { externalId: `mail-${i}`, email: `c${i}@example.test` } })
        const { token } = await call('POST', '/customer/token', { ...as, body: { customerId } })
        await call('PUT', '/notifications/preferences/admin_announcement', { token, body: { email: true, sms: false } })
      }
      await call('POST', '/integrations/webhooks', { ...as, body: { url: peers.webhookUrl, events: ['customer.created'] } })
      await call('POST', '/notifications/announcements', { ...as, body: { subject: 'Crash test', body: 'One of these, once.' } })
      const expectedWebhooks = webhookCount
      for (let i = 0; i < webhookCount; i++) await call('POST', '/customer/resolve', { ...as, body: { externalId: `hook-${i}` } })

      // Kill when a third of the e-mails have arrived, with an e-mail exchange and webhooks under way.
      const deadline = Date.now() + 120_000
      while (peers.recipients.size < emailCount / 3 || peers.exchanges.open === 0 || peers.webhooks.counts.size >= expectedWebhooks) {
        if (Date.now() > deadline) throw new Error(`only ${peers.recipients.size} e-mails arrived before the kill`)
        await sleep(1)
      }
      // E-mails whose message the SMTP server holds but has not answered: the sender dies inside the
      // provider call, so it cannot know they arrived; these are the only ones that may repeat.
      const inFlightEmails = peers.exchanges.open
      const inFlightWebhooks = peers.exchanges.webhooks
      process.kill(server.pid, 'SIGKILL')
      const beforeKill = { webhooks: peers.webhooks.counts.size, emails: peers.recipients.size }
      log(
        `  ${backend}: killed with ${beforeKill.webhooks}/${expectedWebhooks} webhooks and ${beforeKill.emails}/${emailCount} e-mails delivered; in flight ${inFlightWebhooks} webhooks, ${inFlightEmails} e-mails`,
      )

      const restarted = performance.now()
      server = await startServer({ databaseUrl: db?.url, dataDir: `${dataDir}/data`, env, label: `${backend} restarted`, bootTimeoutMs: 60_000 })
      const allBy = Date.now() + 300_000
      while (peers.webhooks.counts.size < expectedWebhooks || peers.recipients.size < emailCount) {
        if (Date.now() > allBy) break
        await sleep(50)
      }
      const secondsToAll = (performance.now() - restarted) / 1000
      if (db && (peers.webhooks.counts.size < expectedWebhooks || peers.recipients.size < emailCount)) {
        const sql = postgres(db.url, { max: 1, onnotice: () => {} })
        const states = await sql`select name, state, retry_count, count(*)::int from pgboss.job group by 1, 2, 3 order by 1, 2, 3`
        const timing =
          await sql`select state, retry_count, retry_limit, retry_delay, min(start_after - now()) as first_start, max(start_after - now()) as last_start, min(started_on) as started, max(heartbeat_on) as heartbeat from pgboss.job where name = 'webhook-deliver' and state <> 'completed' group by 1, 2, 3, 4`
        log(`  ${backend}: webhook jobs: ${JSON.stringify(timing)}`)
        const outputs = await sql`select output, count(*)::int from pgboss.job where name = 'webhook-deliver' and state <> 'completed' group by 1 limit 5`
        log(`  ${backend}: webhook job errors: ${JSON.stringify(outputs)}`)
        const outcomes =
          await sql`select status, attempts, left(last_error, 80) as error, count(*)::int from integrations.deliveries group by 1, 2, 3 order by 1, 2`
        log(`  ${backend}: deliveries: ${JSON.stringify(outcomes)}`)
        await sql.end()
        log(`  ${backend}: not all arrived; queue: ${JSON.stringify(states)}`)
      }
      const result = {
        backend,
        beforeKill,
        inFlightEmails,
        inFlightWebhooks,
        lostWebhooks: expectedWebhooks - peers.webhooks.counts.size,
        lostEmails: emailCount - peers.recipients.size,
        repeatedWebhooks: peers.webhooks.repeats,
        repeatedEmails: peers.emails.repeats,
        secondsToAll,
      }
      log(
        `  ${backend}: after the restart all arrived in ${fmt(secondsToAll, 1)} s; lost ${result.lostWebhooks} webhooks, ${result.lostEmails} e-mails; repeated ${result.repeatedWebhooks} webhooks, ${result.repeatedEmails} e-mails`,
      )
      return result
    } finally {
      await server.stop()
      await db?.drop()
      await peers.stop()
    }
  })
  const pass = backends.every(
    (b) => b.skipped || (b.lostWebhooks === 0 && b.lostEmails === 0 && b.secondsToAll! <= 120 && b.repeatedEmails! <= b.inFlightEmails!),
  )
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), webhooks: webhookCount, emails: emailCount, backends }
}

export function crashSendsTable(result: CrashSendsResult): string {
  const rows = result.backends.map((b) =>
    b.secondsToAll === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | | | | |`
      : `| ${b.backend} | ${b.beforeKill!.webhooks} webhooks, ${b.beforeKill!.emails} e-mails | ${b.inFlightWebhooks} webhooks, ${b.inFlightEmails} e-mails | ${b.lostWebhooks} / ${b.lostEmails} | **${fmt(b.secondsToAll, 1)} s** | ${b.repeatedWebhooks} (same webhook-id) | ${b.repeatedEmails} (same Message-ID) |`,
  )
  return markdownTable(
    `| database (${result.webhooks} webhooks + ${result.emails} e-mails) | delivered before kill -9 | in flight at the kill (sent, not yet answered) | lost (webhooks / e-mails) | restart → all delivered | webhooks repeated | e-mails repeated |`,
    '|---|---|---|---:|---:|---:|---:|',
    rows,
  )
}

export const command: BenchCommand<CrashSendsResult> = {
  name: 'crash-sends',
  run: (argv) => benchCrashSends(benchArgs<CrashSendsOptions>(argv, { webhooks: 'webhooks', emails: 'emails' }).opts),
  table: crashSendsTable,
}

if (import.meta.main) await benchMain(command)
