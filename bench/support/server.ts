/** The server under test: a real `bun src/index.ts` child on a loopback port. */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { onCleanup } from './cleanup'
import { LOOPBACK, ROOT, freePort, sleep } from './utils'

export interface ServerOptions {
  /** PostgreSQL URL; omitted: embedded PGlite in a fresh temp DATA_DIR. */
  databaseUrl?: string
  /** Extra environment (wins over the defaults below). */
  env?: Record<string, string>
  /** Extra arguments for bun before the entry file, e.g. ['--cpu-prof-md', '--cpu-prof-dir=…']. */
  bunArgs?: string[]
  /** How long to wait for GET /health to answer 200 (PGlite initdb takes a few seconds). */
  bootTimeoutMs?: number
  label?: string
  /** Checkout to run `src/index.ts` from (default: BENCH_ROOT, else this repository), for A/B runs. */
  root?: string
  /** An existing DATA_DIR to reuse (kept on stop), e.g. to measure a restart. */
  dataDir?: string
}

export interface Server {
  url: string
  /** PostgreSQL database name when DATABASE_URL was given. */
  database?: string
  port: number
  pid: number
  dataDir: string
  logFile: string
  /** Milliseconds from spawn to the first 200 from /health. */
  bootMs: number
  /** The last lines the server printed (for error messages). */
  logTail(lines?: number): string
  /** Resolves with the exit code once the process has ended (a bench that signals it itself waits here). */
  exited: Promise<number>
  stop(): Promise<void>
}

/**
 * Starts `bun src/index.ts` as a child process on a free loopback port with a temp DATA_DIR,
 * LOG_LEVEL=warn and JOBS=off, and waits until /health answers 200.
 */
export async function startServer(options: ServerOptions = {}): Promise<Server> {
  const port = freePort()
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-bench-'))
  const logFile = join(dataDir, 'server.log')
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: String(port),
    HOST: LOOPBACK,
    DATA_DIR: options.dataDir ?? join(dataDir, 'data'),
    LOG_LEVEL: 'warn',
    JOBS: 'off',
    ...UNREACHED_RATE_LIMITS,
    ...options.env,
  }
  delete env.DATABASE_URL
  if (options.databaseUrl) env.DATABASE_URL = options.databaseUrl

  const started = performance.now()
  const child = Bun.spawn([process.execPath, ...(options.bunArgs ?? []), 'src/index.ts'], {
    cwd: options.root ?? process.env.BENCH_ROOT ?? ROOT,
    env,
    stdin: 'ignore',
    stdout: Bun.file(logFile),
    stderr: Bun.file(join(dataDir, 'server.err')),
  })
  const logTail = (lines = 20) => {
    const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : '')
    const text = read(logFile) + read(join(dataDir, 'server.err'))
    return text.trimEnd().split('\n').slice(-lines).join('\n')
  }

  const stop = onCleanup(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM')
      const exited = await Promise.race([child.exited.then(() => true), sleep(10_000).then(() => false)])
      if (!exited) {
        child.kill('SIGKILL')
        await child.exited
      }
    }
    if (!process.env.BENCH_KEEP_TMP) rmSync(dataDir, { recursive: true, force: true })
  })

  const url = `http://${LOOPBACK}:${port}`
  const deadline = started + (options.bootTimeoutMs ?? 60_000)
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      const tail = logTail()
      await stop()
      throw new Error(`server${options.label ? ` (${options.label})` : ''} exited during boot:\n${tail}`)
    }
    try {
      const res = await fetch(`${url}/health`, { signal: AbortSignal.timeout(1000) })
      await res.arrayBuffer()
      if (res.status === 200) break
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) {
      const tail = logTail()
      await stop()
      throw new Error(`server${options.label ? ` (${options.label})` : ''} not healthy after ${options.bootTimeoutMs ?? 60_000} ms:\n${tail}`)
    }
    // Fine enough for P7's restart (≤ 500 ms): at 50 ms, as before session 62, a start read up to 50 ms late.
    await sleep(5)
  }
  const database = options.databaseUrl ? decodeURIComponent(new URL(options.databaseUrl).pathname.slice(1)) : undefined
  return { url, database, port, pid: child.pid, dataDir, logFile, bootMs: performance.now() - started, logTail, exited: child.exited, stop }
}

/**
 * Every bench's API rate limits: on, so their cost is in every figure, with budgets no bench
 * reaches, so they never turn a measurement into 429s (bench/rate-limit.ts measures them alone).
 */
export const UNREACHED_RATE_LIMITS = {
  RATE_LIMIT_READ: '1000000000',
  RATE_LIMIT_WRITE: '1000000000',
  RATE_LIMIT_EXPENSIVE: '1000000000',
  RATE_LIMIT_ANONYMOUS: '1000000000',
}

/**
 * Server environment for benches that sign in at full speed from one address: the login limits
 * (LoginLimiter: attempts per client address, failures per e-mail) set out of reach, so they
 * never turn a measurement into 429s.
 */
export const NO_LOGIN_LIMITS = { LOGIN_MAX_ATTEMPTS_PER_IP: '1000000000', LOGIN_MAX_FAILURES_PER_EMAIL: '1000000000' }

/** Registers an account with POST /auth/register and returns `{ token, refreshToken, user }`. */
export async function registerUser(
  baseUrl: string,
  input: { email?: string; password?: string; name?: string } = {},
): Promise<{ token: string; refreshToken: string; user: { id: string; email: string }; email: string; password: string }> {
  const email = input.email ?? `bench-${crypto.randomUUID().slice(0, 8)}@example.com`
  const password = input.password ?? `bench-${crypto.randomUUID()}`
  const res = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, name: input.name ?? 'Bench User' }),
    signal: AbortSignal.timeout(30_000),
  })
  const body = (await res.json()) as { token: string; refreshToken: string; user: { id: string; email: string } }
  if (res.status !== 201 || !body.token) throw new Error(`POST /auth/register answered ${res.status}: ${JSON.stringify(body)}`)
  return { ...body, email, password }
}

/** One request, checked: throws unless the status is `expect`. */
export async function expectStatus(url: string, init: RequestInit, expect: number): Promise<unknown> {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) })
  const text = await res.text()
  if (res.status !== expect) throw new Error(`${init.method ?? 'GET'} ${url} answered ${res.status} (expected ${expect}): ${text.slice(0, 300)}`)
  return text ? JSON.parse(text) : undefined
}

/**
 * Through the API: an organization of the account with `ownerToken` (its main ecosystem), a
 * customer in it, and that customer's access token.
 */
export async function customerOf(baseUrl: string, ownerToken: string): Promise<{ ecosystemId: string; customerId: string; token: string }> {
  const asOwner = { 'content-type': 'application/json', authorization: `Bearer ${ownerToken}` }
  const post = (path: string, headers: Record<string, string>, body: unknown, expect: number) =>
    expectStatus(`${baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }, expect) as Promise<Record<string, any>>
  const org = await post('/registry/organizations', asOwner, { slug: `bench-${crypto.randomUUID().slice(0, 8)}`, name: 'Bench' }, 201)
  const inEco = { ...asOwner, 'x-ecosystem-id': org.ecosystem.id as string }
  const { customerId } = await post('/customer/resolve', inEco, { externalId: 'bench' }, 200)
  const { token } = await post('/customer/token', inEco, { customerId }, 200)
  return { ecosystemId: org.ecosystem.id, customerId, token }
}

/** A helper child process (an upstream, a relay, the database alone) once it has printed its first line. */
export interface HelperProcess {
  /** Its first line of output, trimmed (a URL, `ready`). */
  line: string
  pid: number
  /** SIGTERM, then waits for its exit; also run by the benches' cleanup. */
  stop(): Promise<void>
}

/** Spawns `command` and resolves once it has printed a line; `what` names it if it exits first. */
export async function spawnHelper(command: string[], what: string, env?: Record<string, string>): Promise<HelperProcess> {
  const child = Bun.spawn(command, { stdout: 'pipe', stderr: 'inherit', ...(env ? { env } : {}) })
  const stop = onCleanup(async () => {
    child.kill('SIGTERM')
    await child.exited
  })
  const reader = child.stdout.getReader()
  let out = ''
  while (!out.includes('\n')) {
    const { value, done } = await reader.read()
    if (done) {
      await stop()
      throw new Error(`${what} exited (${child.exitCode ?? child.signalCode}) before its first line`)
    }
    out += new TextDecoder().decode(value)
  }
  reader.releaseLock()
  return { line: out.slice(0, out.indexOf('\n')).trim(), pid: child.pid, stop }
}
