/** The app in-process, for benches that time a service path without HTTP. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { buildDeps, prepareDatabase } from '../../src/boot'
import { loadConfig } from '../../src/config'
import type { Deps } from '../../src/deps'
import { openPglite, openPostgres, pgliteDir, type Database } from '../../src/platform/db'
import { createLogger } from '../../src/platform/logger'
import { createTempDatabase } from './postgres'
import type { Backend } from './backends'
import { UNREACHED_RATE_LIMITS } from './server'

export interface BenchApp {
  app: ReturnType<typeof createApp>
  deps: Deps
  database: Database
  /** An account owning one ecosystem, and a customer of it with a customer token. */
  owner: { token: string; ecosystemId: string; organizationId: string }
  customer: { customerId: string; token: string }
  /** A JSON request through `app.handle`; throws on any status ≥ 300. */
  call(method: string, path: string, options?: { token?: string; body?: unknown; headers?: Record<string, string> }): Promise<any>
  close(): Promise<void>
}

/** The app as boot builds it, on PGlite (in memory unless `pgliteOnDisk`) or a throwaway PostgreSQL database. */
export async function inProcessApp(backend: Backend, options: { pgliteOnDisk?: boolean; env?: Record<string, string> } = {}): Promise<BenchApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-bench-app-'))
  const temp = backend === 'postgres' ? await createTempDatabase() : undefined
  // In memory, PGlite keeps its files (WAL included) in this process's memory; on disk, as `npm start` runs it.
  const database = temp
    ? await openPostgres(temp.url, { max: 10 })
    : await openPglite({ ...(options.pgliteOnDisk ? { dataDir: pgliteDir(dataDir) } : {}), sharedBuffers: options.env?.PGLITE_SHARED_BUFFERS })
  const close = async () => {
    await database.close()
    await temp?.drop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: 'http://localhost', JOBS: 'off', ...UNREACHED_RATE_LIMITS, ...options.env })
    await prepareDatabase(database, config, temp?.url)
    const deps = buildDeps(config, database, { logger: createLogger('silent') })
    const app = createApp(deps)
    // Enqueueing works; with JOBS=off nothing runs unless a bench starts its own workers.
    await deps.queue.start()
    const call: BenchApp['call'] = async (method, path, options = {}) => {
      const headers: Record<string, string> = { ...options.headers }
      if (options.token) headers.authorization = `Bearer ${options.token}`
      if (options.body !== undefined) headers['content-type'] = 'application/json'
      const body = options.body === undefined ? undefined : JSON.stringify(options.body)
      const res = await app.handle(new Request(`http://localhost${path}`, { method, headers, body }))
      const json = (await res.json()) as any
      if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
      return json
    }
    const account = await call('POST', '/auth/register', { body: { email: 'bench@example.com', password: 'bench-password-1', name: 'Bench' } })
    const org = await call('POST', '/registry/organizations', { token: account.token, body: { slug: 'bench', name: 'Bench' } })
    const asOwner = { token: account.token, headers: { 'x-ecosystem-id': org.ecosystem.id } }
    const { customerId } = await call('POST', '/customer/resolve', { ...asOwner, body: { externalId: 'bench-customer' } })
    const { token } = await call('POST', '/customer/token', { ...asOwner, body: { customerId } })
    return {
      app,
      deps,
      database,
      owner: { token: account.token, ecosystemId: org.ecosystem.id, organizationId: org.organization.id },
      customer: { customerId, token },
      call,
      close: async () => {
        await deps.queue.stop(1000)
        await deps.rateLimits.close()
        await close()
      },
    }
  } catch (err) {
    await close()
    throw err
  }
}
