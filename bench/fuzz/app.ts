/** The app, as boot builds it, on a throwaway database, and what it logs for an unhandled error. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createApp } from '../../src/app'
import { buildDeps, prepareDatabase } from '../../src/boot'
import { loadConfig } from '../../src/config'
import { openPglite, openPostgres } from '../../src/platform/db'
import { createLogger } from '../../src/platform/logger'
import { type Backend, createTempDatabase, NO_LOGIN_LIMITS, UNREACHED_RATE_LIMITS } from '../support'

/** The server's error log lines by request id (only the newest few hundred). */
function errorLogCapture() {
  const byRequest = new Map<string, string>()
  const write = (line: string) => {
    try {
      const entry = JSON.parse(line) as Record<string, any>
      const text = [
        entry.msg,
        entry.error && `${entry.error}: ${entry.message}`,
        entry.sqlState && `sqlState ${entry.sqlState}`,
        entry.query && `query ${String(entry.query).slice(0, 200)}`,
        Array.isArray(entry.at) && entry.at.length ? `at ${entry.at.slice(0, 3).join(' < ')}` : undefined,
      ]
        .filter(Boolean)
        .join(' | ')
      const key = typeof entry.requestId === 'string' ? entry.requestId : `_${byRequest.size}`
      byRequest.set(key, text)
      if (byRequest.size > 500) byRequest.delete(byRequest.keys().next().value!)
    } catch {}
  }
  return { write, byRequest }
}

export async function fuzzApp(backend: Backend) {
  const dataDir = mkdtempSync(join(tmpdir(), 'ecobase-bench-fuzz-'))
  const temp = backend === 'postgres' ? await createTempDatabase() : undefined
  const database = temp ? await openPostgres(temp.url, { max: 10 }) : await openPglite({})
  const log = errorLogCapture()
  const config = loadConfig({
    LOG_LEVEL: 'error',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost',
    JOBS: 'off',
    // On, with budgets the run never reaches: a 429 would stand in for the answer under test.
    ...NO_LOGIN_LIMITS,
    ...UNREACHED_RATE_LIMITS,
    // Valid-shaped URLs point at a closed loopback port: nothing leaves the machine.
    PERSONA_SERVICE_PRIVATE_ADDRESSES: 'allow',
    WEBHOOK_PRIVATE_ADDRESSES: 'allow',
    MONITORED_SITES_PRIVATE_ADDRESSES: 'allow',
    SITE_SERVICE_PRIVATE_ADDRESSES: 'allow',
  })
  await prepareDatabase(database, config, temp?.url)
  const deps = buildDeps(config, database, { logger: createLogger('error', log.write) })
  const app = createApp(deps)
  await deps.queue.start()
  return {
    app,
    log,
    async close() {
      await deps.queue.stop(1000)
      app.services.messaging.close()
      await deps.rateLimits.close()
      await database.close()
      await temp?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

export type FuzzApp = Awaited<ReturnType<typeof fuzzApp>>
