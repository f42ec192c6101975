import { startJobs } from '../jobs'
import { createApp } from './app'
import { BootError, buildDeps, loadConfig, openDatabase } from './boot'
import { ConfigError } from './config'
import { createLogger } from './platform/logger'

// boot: config -> database (migrate) -> app -> jobs -> listen. Any failure is one clear line and exit 1.
try {
  const config = loadConfig()
  const logger = createLogger(config.logLevel)
  const started = performance.now()
  const database = await openDatabase(config)
  const deps = buildDeps(config, database, { logger })
  const app = createApp(deps)
  await app.followRevocations()
  const stopJobs = startJobs(deps)
  // The local object store takes uploads itself; JSON routes keep MAX_BODY_BYTES (platform/http).
  const maxRequestBodySize = config.storage.driver === 'local' ? Math.max(config.maxBodyBytes, config.storage.maxUploadBytes) : config.maxBodyBytes
  app.listen({ port: config.port, hostname: config.host, maxRequestBodySize })
  logger.info('ecobase listening', {
    url: `http://${config.host}:${app.server?.port}`,
    database: database.kind === 'pglite' ? 'embedded PGlite (DATA_DIR)' : 'PostgreSQL (DATABASE_URL)',
    vector: database.vector,
    bootMs: Math.round(performance.now() - started),
  })
  const stop = async () => {
    stopJobs()
    await app.stop()
    await deps.rateLimits.close()
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (err) {
  if (err instanceof ConfigError || err instanceof BootError) {
    console.error(`ecobase: ${err.message}`)
    process.exit(1)
  }
  throw err
}
