/**
 * P17: the embedded soak. A real server with jobs on takes a mix of what users do, for `minutes`:
 * uploads from another origin through CORS (a preflight, then the PUT; up to 5 MB), chat, sign-ins
 * and refreshes, documents and blocks, contract rows, the list grammar as an admin and as a
 * customer (valid and invalid filters), realtime streams that reconnect by cursor, community
 * threads that fire webhooks to a receiver, announcements e-mailed through SMTP, monitored sites
 * checked every minute (one up, one refusing connections, one answering slowly) and a backup asked
 * for every 5 minutes (409 while the last one still runs). A probe asks a database route
 * (`GET /auth/first-run`) every second.
 *
 * Reported per database: probes over 5 s (target 0), the probe's p50/p99/max, answers ≥ 500,
 * stalls the server logged (DB_STALL_SECONDS), RSS over time, and the time from SIGTERM (with the
 * realtime streams still open) to exit (target < 1 s).
 *
 *   npx bun bench/soak-embedded.ts [--db=pglite,postgres] [--minutes=30]
 */
import { readFileSync } from 'node:fs'
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
  freePort,
  markdownTable,
  percentile,
  type RunInfo,
  runInfo,
  sleep,
  startServer,
  type Server,
} from './support'

export interface SoakOptions {
  backends?: Backend[]
  minutes?: number
}

interface BackendResult {
  backend: Backend
  skipped?: string
  error?: string
  minutes?: number
  requests?: number
  byKind?: Record<string, number>
  /** Answers ≥ 500 and failed steps: how many, and the first 20 of each. */
  serverErrorCount?: number
  serverErrors?: string[]
  failureCount?: number
  failures?: string[]
  probes?: number
  slowProbes?: number
  probeP50Ms?: number
  probeP99Ms?: number
  probeMaxMs?: number
  stallsLogged?: number
  rssMb?: number[]
  sigtermToExitMs?: number
}

export interface SoakResult {
  pass: boolean
  failed?: boolean
  run: RunInfo
  backends: BackendResult[]
}

const ORIGIN = 'http://app.soak.test'
const PROBE_LIMIT_MS = 5000

/** The outside world the server talks to: sites to monitor, a webhook receiver, an SMTP server. */
async function startPeers() {
  const up = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') })
  const slow = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    idleTimeout: 60,
    fetch: async () => {
      await sleep(15_000)
      return new Response('ok')
    },
  })
  const refusing = freePort()
  let webhooks = 0
  const receiver = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    fetch: async (req) => {
      await req.arrayBuffer()
      webhooks++
      return new Response(null, { status: 204 })
    },
  })
  let emails = 0
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => {})
      stream.on('end', () => {
        emails++
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
  return {
    sites: { up: `http://127.0.0.1:${up.port}/health`, refusing: `http://127.0.0.1:${refusing}/`, slow: `http://127.0.0.1:${slow.port}/` },
    webhookUrl: `http://127.0.0.1:${receiver.port}/hook`,
    smtpUrl: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
    counts: () => ({ webhooks, emails }),
    stop: async () => {
      for (const s of [up, slow, receiver]) s.stop(true)
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    },
  }
}

interface Tally {
  requests: number
  byKind: Map<string, number>
  /** Answers ≥ 500. */
  serverErrors: string[]
  /** Steps that failed otherwise (an unexpected status, a dropped connection). */
  failures: string[]
}

/** HTTP against the server, counting every answer; ≥ 500 is recorded (the soak's other failure). */
function client(server: Server, tally: Tally) {
  return async function call(
    kind: string,
    method: string,
    path: string,
    options: { token?: string; ecosystem?: string; body?: unknown; headers?: Record<string, string>; raw?: BodyInit } = {},
  ) {
    const headers: Record<string, string> = { ...options.headers }
    if (options.body !== undefined) headers['content-type'] = 'application/json'
    if (options.token) headers.authorization = `Bearer ${options.token}`
    if (options.ecosystem) headers['x-ecosystem-id'] = options.ecosystem
    const url = path.startsWith('http') ? path : `${server.url}${path}`
    const res = await fetch(url, {
      method,
      headers,
      body: options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      signal: AbortSignal.timeout(120_000),
    })
    const text = await res.text()
    tally.requests++
    tally.byKind.set(kind, (tally.byKind.get(kind) ?? 0) + 1)
    if (res.status >= 500) tally.serverErrors.push(`${res.status} ${method} ${path.split('?')[0]}: ${text.slice(0, 160)}`)
    let body: any = null
    try {
      body = text ? JSON.parse(text) : null
    } catch {}
    return { status: res.status, body, text }
  }
}

const FILTERS = [
  'createdAt=gte.2026-01-01T00:00:00Z',
  'createdAt=gte.not-a-date',
  'title=ilike.*soak*',
  'title=in.(a,b,c)',
  'sort=-createdAt',
  'sort=nope',
  'id=eq.00000000-0000-0000-0000-000000000000',
  'pageSize=100&page=2',
  'or=(title.eq.x,title.eq.y)',
  'title=like.%25',
]

export async function benchSoak(options: SoakOptions = {}): Promise<SoakResult> {
  const minutes = options.minutes ?? 30
  const log = (line: string) => console.error(line)
  const backends = await eachBackend(
    options.backends ?? BACKENDS,
    log,
    async (backend): Promise<BackendResult> => {
      const peers = await startPeers()
      const db = backend === 'postgres' ? await createTempDatabase() : undefined
      const env: Record<string, string> = {
        JOBS: 'on',
        LOG_LEVEL: 'info',
        CORS_ORIGINS: ORIGIN,
        MONITORED_SITES_PRIVATE_ADDRESSES: 'allow',
        WEBHOOK_PRIVATE_ADDRESSES: 'allow',
        SMTP_URL: peers.smtpUrl,
        MAIL_FROM: 'Soak <soak@example.test>',
        BACKUP_SCHEDULE: '*/5 * * * *',
        BACKUP_KEEP: '3',
        STORAGE_MAX_UPLOAD_BYTES: String(6 * 1024 * 1024),
        STORAGE_DEFAULT_QUOTA_BYTES: String(1024 ** 4),
      }
      const server = await startServer({ databaseUrl: db?.url, env, label: backend, bootTimeoutMs: 60_000 })
      const tally: Tally = { requests: 0, byKind: new Map(), serverErrors: [], failures: [] }
      const call = client(server, tally)
      const deadline = Date.now() + minutes * 60_000
      const running = () => Date.now() < deadline
      const streams: AbortController[] = []
      try {
        const owner = (await call('setup', 'POST', '/auth/register', { body: { email: 'owner@soak.test', password: 'soak-owner-password', name: 'Owner' } }))
          .body
        const ecosystem: string = (await call('setup', 'POST', '/registry/organizations', { token: owner.token, body: { slug: 'soak', name: 'Soak' } })).body
          .ecosystem.id
        const admin = { token: owner.token as string, ecosystem }
        let ownerRefresh: string = owner.refreshToken
        for (const [name, url] of Object.entries(peers.sites)) {
          await call('setup', 'POST', '/monitored_sites/sites', { ...admin, body: { name, url, intervalMinutes: 1, failureThreshold: 2 } })
        }
        await call('setup', 'POST', '/integrations/webhooks', {
          ...admin,
          body: { url: peers.webhookUrl, events: ['customer.created', 'community.thread.created'] },
        })
        await call('setup', 'POST', '/contract/contracts', {
          ...admin,
          body: {
            name: 'orders',
            columns: [
              { name: 'item', type: 'text' },
              { name: 'total', type: 'number', indexed: true },
            ],
            access: { read: 'own', create: true, update: 'own', delete: 'own' },
          },
        })
        const category = (await call('setup', 'POST', '/community/categories', { ...admin, body: { name: 'Soak', slug: 'soak' } })).body
        const customers: { token: string; id: string }[] = []
        for (let i = 0; i < 8; i++) {
          const { customerId } = (await call('setup', 'POST', '/customer/resolve', { ...admin, body: { externalId: `soak-${i}`, email: `c${i}@soak.test` } }))
            .body
          const { token } = (await call('setup', 'POST', '/customer/token', { ...admin, body: { customerId } })).body
          await call('setup', 'PUT', '/notifications/preferences/admin_announcement', { token, body: { email: true, sms: false } })
          customers.push({ token, id: customerId })
        }
        const someone = () => customers[Math.floor(Math.random() * customers.length)]!
        // Access tokens live 15 minutes: the owner's session is refreshed and customer tokens renewed every 10.
        const renew = setInterval(async () => {
          const refreshed = (await call('setup', 'POST', '/auth/refresh', { body: { refreshToken: ownerRefresh } })).body
          admin.token = refreshed.token
          ownerRefresh = refreshed.refreshToken
          for (const c of customers) c.token = (await call('setup', 'POST', '/customer/token', { ...admin, body: { customerId: c.id } })).body.token
        }, 10 * 60_000)
        /** A pause that ends with the soak. */
        const pause = (ms: number) => sleep(Math.max(0, Math.min(ms, deadline - Date.now())))

        const loop = async (kind: string, pauseMs: number, step: () => Promise<unknown>) => {
          while (running()) {
            try {
              await step()
            } catch (err) {
              tally.failures.push(`${kind}: ${(err as Error).message.slice(0, 160)}`)
            }
            await pause(pauseMs * (0.5 + Math.random()))
          }
        }

        const upload = async () => {
          const c = someone()
          const size = Math.random() < 0.2 ? 1024 * 1024 + Math.floor(Math.random() * 4 * 1024 * 1024) : 1 + Math.floor(Math.random() * 64 * 1024)
          const bytes = crypto.getRandomValues(new Uint8Array(Math.min(size, 65536)))
          const body = new Uint8Array(size)
          for (let at = 0; at < size; at += bytes.length) body.set(bytes.subarray(0, Math.min(bytes.length, size - at)), at)
          body[0] = Math.random() * 256
          const contentHash = new Bun.CryptoHasher('sha256').update(body).digest('hex')
          const presigned = await call('upload', 'POST', '/storage/uploads', {
            token: c.token,
            body: { filename: 'soak.bin', contentType: 'application/octet-stream', sizeBytes: size, contentHash },
          })
          if (presigned.status !== 201 && presigned.status !== 200) throw new Error(`presign ${presigned.status} ${presigned.text.slice(0, 100)}`)
          if (presigned.body.deduplicated) return
          const headers = { origin: ORIGIN, ...presigned.body.uploadHeaders }
          await call('upload', 'OPTIONS', presigned.body.uploadUrl, {
            headers: { origin: ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type' },
          })
          await call('upload', 'PUT', presigned.body.uploadUrl, { headers, raw: body })
          const id = presigned.body.attachment.id
          await call('upload', 'POST', `/storage/attachments/${id}/complete`, { token: c.token, headers: { origin: ORIGIN } })
          if (Math.random() < 0.3) await call('upload', 'DELETE', `/storage/attachments/${id}`, { token: c.token, headers: { origin: ORIGIN } })
        }

        const conversations = new Map<string, string>()
        const chat = async () => {
          const c = someone()
          let id = conversations.get(c.id)
          if (!id || Math.random() < 0.1) {
            id = (await call('chat', 'POST', '/chat/conversations', { token: c.token, body: { title: 'soak' } })).body.id as string
            conversations.set(c.id, id)
          }
          await call('chat', 'POST', `/chat/conversations/${id}/messages`, { token: c.token, body: { message: `hello ${Math.random()}` } })
        }

        const signIn = async () => {
          const res = await call('sign-in', 'POST', '/auth/login', { body: { email: 'owner@soak.test', password: 'soak-owner-password' } })
          if (res.body?.refreshToken) await call('sign-in', 'POST', '/auth/refresh', { body: { refreshToken: res.body.refreshToken } })
        }

        const documents = async () => {
          const c = someone()
          const doc = (await call('documents', 'POST', '/data/documents', { token: c.token, body: { title: `soak ${Math.random()}` } })).body
          for (const position of ['a0', 'a1'])
            await call('documents', 'POST', '/data/document_blocks', {
              token: c.token,
              body: { documentId: doc.id, blockType: 'paragraph', position, content: 'soak block' },
            })
          await call('documents', 'GET', '/data/documents?sort=-createdAt&pageSize=20', admin)
        }

        const rows = async () => {
          const c = someone()
          await call('contract', 'POST', '/contract/contracts/orders/rows', { token: c.token, body: { item: 'soak', total: Math.round(Math.random() * 500) } })
          await call('contract', 'GET', '/contract/contracts/orders/rows?total=gte.100&sort=-total', { token: c.token })
        }

        const lists = async () => {
          const filter = FILTERS[Math.floor(Math.random() * FILTERS.length)]!
          const path = ['/community/threads', '/data/documents', '/userdata/notes', '/storage/attachments', '/site/feed'][Math.floor(Math.random() * 5)]!
          const as = Math.random() < 0.5 ? admin : { token: someone().token }
          await call('lists', 'GET', `${path}?${filter}`, as)
        }

        const community = async () => {
          await call('community', 'POST', '/community/threads', {
            token: someone().token,
            body: { title: 'Soak thread', body: 'a thread for the webhooks', categoryId: category.id },
          })
          await call('community', 'POST', '/customer/resolve', { ...admin, body: { externalId: `hook-${crypto.randomUUID()}` } })
        }

        const announce = () =>
          call('notifications', 'POST', '/notifications/announcements', { ...admin, body: { subject: 'Soak', body: 'Still here.', channels: ['email'] } })
        const backup = () => call('backup', 'POST', '/system/backups', { token: admin.token })

        /** One realtime stream per customer, reconnecting every minute from its last cursor. */
        let changes = 0
        const realtime = async (c: { token: string }) => {
          let last: string | null = null
          while (running()) {
            const abort = new AbortController()
            streams.push(abort)
            const ticket = (await call('realtime', 'POST', '/realtime/tickets', { token: c.token })).body.ticket
            const since = last ? `&since=${last}` : ''
            try {
              const res = await fetch(`${server.url}/realtime/stream?topics=data/documents,contract/orders&ticket=${ticket}${since}`, { signal: abort.signal })
              if (res.status !== 200) throw new Error(`stream ${res.status}`)
              const reader = res.body!.getReader()
              const stop = setTimeout(() => abort.abort(), 60_000)
              let buffered = ''
              for (;;) {
                const { value, done } = await reader.read()
                if (done) break
                buffered += new TextDecoder().decode(value)
                for (const id of buffered.matchAll(/^id: (\S+)$/gm)) last = id[1]!
                changes += (buffered.match(/^event: change$/gm) ?? []).length
                buffered = buffered.slice(buffered.lastIndexOf('\n\n') + 2)
              }
              clearTimeout(stop)
            } catch (err) {
              if (!abort.signal.aborted) {
                tally.failures.push(`realtime: ${(err as Error).message}`)
                await pause(1000)
              }
            }
            streams.splice(streams.indexOf(abort), 1)
          }
        }

        const probes: number[] = []
        const probe = async () => {
          while (running()) {
            const started = performance.now()
            try {
              await call('probe', 'GET', '/auth/first-run')
            } catch {}
            const ms = performance.now() - started
            probes.push(ms)
            if (ms > PROBE_LIMIT_MS) log(`  ${backend}: probe took ${fmt(ms)} ms at ${new Date().toISOString()}`)
            await pause(1000 - ms)
          }
        }

        const timeSigterm = async () => {
          const opened = await Promise.all(
            customers.slice(0, 5).map(async (c) => {
              const ticket = (await call('realtime', 'POST', '/realtime/tickets', { token: c.token })).body.ticket
              return fetch(`${server.url}/realtime/stream?topics=data/documents&ticket=${ticket}`)
            }),
          )
          const killed = performance.now()
          process.kill(server.pid, 'SIGTERM')
          await server.exited
          const ms = performance.now() - killed
          await Promise.all(opened.map((res) => res.text().catch(() => '')))
          return ms
        }
        const rssMb: number[] = []
        const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024
        rssMb.push(rss())
        const sampler = setInterval(() => rssMb.push(rss()), 60_000)
        const progress = setInterval(
          () =>
            log(
              `  ${backend}: ${tally.requests} requests, ${tally.serverErrors.length} answers ≥ 500, ${tally.failures.length} failed steps, ${probes.filter((p) => p > PROBE_LIMIT_MS).length} slow probes, ${changes} realtime changes, ${JSON.stringify(peers.counts())}`,
            ),
          60_000,
        )
        await Promise.all([
          probe(),
          loop('upload', 400, upload),
          loop('chat', 300, chat),
          loop('sign-in', 1000, signIn),
          loop('documents', 300, documents),
          loop('contract', 250, rows),
          loop('lists', 60, lists),
          loop('lists', 60, lists),
          loop('community', 2000, community),
          loop('notifications', 120_000, announce),
          loop('backup', 300_000, backup),
          ...customers.slice(0, 5).map((c) => realtime(c)),
        ])
        clearInterval(renew)
        clearInterval(sampler)
        clearInterval(progress)
        rssMb.push(rss())

        // SIGTERM with streams open (their answers' headers received): how long until the process has gone.
        // A failure here is reported beside the figures above instead of losing them.
        let sigtermToExitMs = Number.NaN
        try {
          sigtermToExitMs = await timeSigterm()
        } catch (err) {
          tally.failures.push(`sigterm: ${(err as Error).message}`)
        }

        const stallsLogged = readFileSync(server.logFile, 'utf8')
          .split('\n')
          .filter((l) => l.includes('"database stalled"')).length
        const result: BackendResult = {
          backend,
          minutes,
          requests: tally.requests,
          byKind: Object.fromEntries(tally.byKind),
          serverErrorCount: tally.serverErrors.length,
          serverErrors: tally.serverErrors.slice(0, 20),
          failureCount: tally.failures.length,
          failures: tally.failures.slice(0, 20),
          probes: probes.length,
          slowProbes: probes.filter((p) => p > PROBE_LIMIT_MS).length,
          probeP50Ms: percentile(probes, 0.5),
          probeP99Ms: percentile(probes, 0.99),
          probeMaxMs: Math.max(...probes),
          stallsLogged,
          rssMb: rssMb.map((r) => Math.round(r)),
          sigtermToExitMs,
        }
        log(`  ${backend}: ${JSON.stringify({ ...result, byKind: undefined })}`)
        return result
      } finally {
        for (const s of streams) s.abort()
        await server.stop()
        await db?.drop()
        await peers.stop()
      }
    },
    { catchErrors: true },
  )
  const pass = backends.every((b) => b.skipped || (b.slowProbes === 0 && b.serverErrorCount === 0 && b.sigtermToExitMs! < 1000))
  return { pass, failed: backends.some((b) => b.error), run: runInfo(), backends }
}

export function soakTable(result: SoakResult): string {
  const rows = result.backends.map((b) =>
    b.probes === undefined
      ? `| ${b.backend} | ${b.skipped ?? b.error} | | | | | | | |`
      : `| ${b.backend} | ${b.minutes} min, ${fmt(b.requests!)} requests | **${b.slowProbes}** of ${fmt(b.probes)} | ${fmt(b.probeP50Ms!, 1)} / ${fmt(b.probeP99Ms!, 1)} / ${fmt(b.probeMaxMs!)} ms | ${b.serverErrorCount} | ${b.failureCount} | ${b.stallsLogged} | ${b.rssMb!.join(' → ')} | **${fmt(b.sigtermToExitMs!)} ms** |`,
  )
  return markdownTable(
    '| database | load | probes over 5 s | probe p50 / p99 / max | answers ≥ 500 | failed steps | stalls logged | RSS per minute (MB) | SIGTERM → exit, 5 streams open |',
    '|---|---|---:|---:|---:|---:|---:|---|---:|',
    rows,
  )
}

export const command: BenchCommand<SoakResult> = {
  name: 'soak-embedded',
  run: (argv) => benchSoak(benchArgs<SoakOptions>(argv, { minutes: 'minutes' }).opts),
  table: soakTable,
}

if (import.meta.main) await benchMain(command)
