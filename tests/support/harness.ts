import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { buildDeps, openDatabase } from '../../src/boot'
import { loadConfig } from '../../src/config'
import type { Deps } from '../../src/deps'
import { openPostgres } from '../../src/platform/db'
import { createLogger } from '../../src/platform/logger'
import { freshDatabase, testDatabaseUrl, watch } from './database'

export interface Reply<T = any> {
  status: number
  body: T
  headers: Headers
}

export interface CallOptions {
  body?: unknown
  token?: string
  headers?: Record<string, string>
}

/** `call(method, path, options)` against an app in-process, parsing JSON replies. */
export function caller(app: { handle(request: Request): Promise<Response> }) {
  return async function call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { ...options.headers }
    if (options.token) headers.authorization = `Bearer ${options.token}`
    let body: string | undefined
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
      headers['content-length'] = String(Buffer.byteLength(body))
    }
    const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
    const text = await res.text()
    let parsed: unknown = text
    try {
      parsed = text ? JSON.parse(text) : null
    } catch {}
    return { status: res.status, body: parsed as T, headers: res.headers }
  }
}

export interface RegisteredUser {
  token: string
  refreshToken: string
  user: { id: string; email: string; name: string; capabilities: string[]; slug: string | null; avatarUrl: string }
  password: string
  email: string
}

const TEST_RATE_LIMITS = { RATE_LIMIT_READ: '1000000', RATE_LIMIT_WRITE: '1000000', RATE_LIMIT_EXPENSIVE: '1000000', RATE_LIMIT_ANONYMOUS: '1000000' }

/**
 * One app on a fresh database, built exactly as boot builds it. `env` overrides configuration
 * the way the environment would.
 */
/**
 * `onDisk`: embedded, the database in DATA_DIR as a server keeps it (instead of in memory), for
 * what reads its files (backups); with TEST_DATABASE_URL it changes nothing.
 */
export async function createHarness(env: Record<string, string> = {}, options: { onDisk?: boolean } = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-test-'))
  const fresh = options.onDisk && !testDatabaseUrl ? null : await freshDatabase()
  // As a server is configured: DATABASE_URL names the PostgreSQL database it runs on.
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost',
    QUEUE_POLL_SECONDS: '0.5',
    // Limits stay on, as in production, with budgets no suite that hammers a route reaches; tests of the limits set their own.
    ...TEST_RATE_LIMITS,
    ...(fresh?.url ? { DATABASE_URL: fresh.url } : {}),
    ...env,
  })
  const db = fresh ?? { database: await openDatabase({ ...config, database: { ...config.database, ...watch } }), url: null, drop: () => Promise.resolve() }
  if (!fresh) db.drop = () => db.database.close()
  const logLines: string[] = []
  let clockOffsetMs = 0
  const deps: Deps = buildDeps(config, db.database, {
    logger: createLogger('debug', (line) => logLines.push(line)),
    now: () => new Date(Date.now() + clockOffsetMs),
  })
  db.database.watch.configure({ log: deps.logger.error })
  const app = createApp(deps)
  const unlisten = await app.followRevocations()
  await deps.queue.start()
  const call = caller(app)

  let users = 0
  /** Registers a fresh account; returns its AuthResult and password. */
  async function register(overrides: { email?: string; password?: string; name?: string } = {}): Promise<RegisteredUser> {
    const n = ++users
    const input = {
      email: overrides.email ?? `user${n}-${crypto.randomUUID().slice(0, 8)}@example.test`,
      password: overrides.password ?? `pass-word-${n}-long`,
      name: overrides.name ?? `User ${n}`,
    }
    const res = await call('POST', '/auth/register', { body: input })
    if (res.status !== 201) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`)
    return { ...res.body, password: input.password, email: input.email }
  }

  return {
    app,
    deps,
    db: deps.db,
    databaseUrl: db.url,
    logLines,
    call,
    register,
    /**
     * A second app over the same database, as another replica would run: its own caches, its
     * own connection pool on PostgreSQL (the same PGlite instance when embedded).
     */
    async replica() {
      const database = db.url ? await openPostgres(db.url, { max: 5, watch }) : db.database
      const replicaDeps = buildDeps(config, database, { logger: createLogger('silent') })
      const replicaApp = createApp(replicaDeps)
      const stop = await replicaApp.followRevocations()
      await replicaDeps.queue.start()
      return {
        app: replicaApp,
        call: caller(replicaApp),
        async close() {
          await replicaDeps.queue.stop(1000)
          replicaApp.services.messaging.close()
          await stop()
          await replicaDeps.rateLimits.close()
          if (database !== db.database) await database.close()
        },
      }
    },
    /** Moves the app's clock forward (token expiry, TTLs) without waiting. */
    advanceClock(ms: number) {
      clockOffsetMs += ms
    },
    async close() {
      await deps.queue.stop(1000)
      app.services.messaging.close()
      await unlisten()
      await deps.rateLimits.close()
      await deps.tracing.shutdown()
      await db.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export type Harness = Awaited<ReturnType<typeof createHarness>>
