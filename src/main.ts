import { startJobs } from './jobs'
import { createApp } from './app'
import { BootError, buildDeps, loadConfig, openDatabase } from './boot'
import { ConfigError } from './config'
import { ensureWritableDir, LifecycleError, lockDataDir, portTaken } from './platform/lifecycle'
import { createLogger } from './platform/logger'
import { within } from './platform/shutdown'
import { collectWhileBusy } from './platform/db/pglite-heap'
import type { Database } from './platform/db'
import { describeError } from './platform/errors'
import type { Deps } from './deps'

/** After the in-flight requests, what closing the connections may take before the process exits anyway. */
const CLOSE_MS = 4000
/**
 * How long after listening the background work starts: the job workers, the schedules and the
 * embedded database's maintenance. Their first statements (a fetch per worker, the maintenance's
 * catalog reads) would otherwise queue ahead of a start's first requests, on PGlite's one
 * connection about 70 ms of them (bench/README.md, P7, session 62).
 */
export const BACKGROUND_DELAY_MS = 1000

/**
 * Boots the server: config -> data dir (lock) -> database (migrate) -> app -> job queue -> listen
 * -> job workers. Any failure is one clear line and exit 1. `code`: what runs, the server bundle
 * or the sources (src/bundle.ts), written in the start's log line.
 */
export async function main(code: 'bundle' | 'sources'): Promise<void> {
  try {
    const config = loadConfig()
    const logger = createLogger(config.logLevel)
    const started = performance.now()
    if (config.allowPrivateAddresses)
      logger.warn(
        'ALLOW_PRIVATE_ADDRESSES=true: webhooks, monitored sites, site services and persona services may reach loopback and private networks (never link-local or cloud metadata); for a laptop, not a shared server',
      )
    ensureWritableDir(config.dataDir)
    // Held until the process ends: the kernel releases it, also on kill -9.
    if (!config.databaseUrl) lockDataDir(config.dataDir, logger.warn)
    const database = await openDatabase(config, logger)
    const deps = buildDeps(config, database, { logger })
    const app = createApp(deps)
    const stopFollowing = await app.followRevocations()
    // Jobs can be sent from here on; the workers start a moment after the server answers (they only take jobs).
    await deps.queue.prepare()
    // The local object store takes uploads itself; JSON routes keep MAX_BODY_BYTES (platform/http).
    const maxRequestBodySize = config.storage.driver === 'local' ? Math.max(config.maxBodyBytes, config.storage.maxUploadBytes) : config.maxBodyBytes
    try {
      // Elysia asks Bun for SO_REUSEPORT, which would let a second server share the port and split the traffic.
      app.listen({ port: config.port, hostname: config.host, maxRequestBodySize, reusePort: false })
    } catch (err) {
      throw portTaken(err, config.host, config.port) ?? err
    }
    const server = app.server!
    // Serving from here on: the embedded database inflates what the engine takes for the heap's size, so collect while busy (see there).
    const stopCollecting = database.kind === 'pglite' ? collectWhileBusy(deps.metrics) : () => {}
    const background = startBackground(deps, database)
    logger.info('ecobase listening', {
      url: `http://${config.host}:${server.port}`,
      database: database.kind === 'pglite' ? 'embedded PGlite (DATA_DIR)' : 'PostgreSQL (DATABASE_URL)',
      vector: database.vector,
      code,
      bootMs: Math.round(performance.now() - started),
    })

    let stopping = false
    /**
     * Stops accepting and ends open streams at once (each with a last `shutdown` event), lets
     * in-flight requests finish within SHUTDOWN_TIMEOUT_SECONDS, then closes everything, each step
     * given a bounded time: the process ends even when the database never answers.
     */
    const stop = async (signal: string) => {
      if (stopping) return
      stopping = true
      const from = performance.now()
      const timeoutMs = config.shutdownTimeoutSeconds * 1000
      const left = () => Math.max(0, timeoutMs - (performance.now() - from))
      setTimeout(() => {
        logger.error('shutdown did not finish in time: exiting', { signal, stopMs: Math.round(performance.now() - from) })
        process.exit(1)
      }, timeoutMs + CLOSE_MS).unref()
      deps.shutdown.begin()
      background.stopSchedules()
      stopCollecting()
      const drained =
        (await within(
          server.stop(false).then(() => true),
          left(),
        ).catch(() => false)) ?? false
      if (!drained) void server.stop(true)
      // Running jobs get what is left of the deadline; unfinished ones run again on another replica or the next start.
      await within(
        background.workersStarted().then(() => deps.queue.stop(Math.max(1000, left()))),
        Math.max(1000, left()),
      ).catch((err) => logger.warn('queue stop failed', { error: String(err) }))
      const closed = await within(
        (async () => {
          await stopFollowing()
          app.close()
          await deps.rateLimits.close()
          await background.stopMaintaining()
          await database.close()
          // The spans of the last requests and jobs, exported before the process ends.
          await deps.tracing.shutdown()
          return true
        })(),
        CLOSE_MS / 2,
      ).catch((err) => logger.warn('closing failed', { error: String(err) }))
      logger.info('ecobase stopped', { signal, drained, closed: closed ?? false, stopMs: Math.round(performance.now() - from) })
      process.exit(0)
    }
    process.on('SIGINT', () => void stop('SIGINT'))
    process.on('SIGTERM', () => void stop('SIGTERM'))
  } catch (err) {
    if (err instanceof ConfigError || err instanceof BootError || err instanceof LifecycleError) {
      console.error(`ecobase: ${err.message}`)
      process.exit(1)
    }
    throw err
  }
}

/**
 * Starts the background work BACKGROUND_DELAY_MS after listening. Workers that cannot start end
 * the process (exit 1), as any failure of a start does.
 */
function startBackground(deps: Deps, database: Database) {
  let stopJobs = () => {}
  let stopMaintaining = async () => {}
  let workers = Promise.resolve()
  const timer = setTimeout(() => {
    // PGlite has no autovacuum workers: the server runs its passes (see there).
    stopMaintaining = database.maintain?.(deps.logger) ?? stopMaintaining
    stopJobs = startJobs(deps)
    workers = deps.queue.startWorkers().catch((err) => {
      deps.logger.error('job workers failed to start', describeError(err))
      process.exit(1)
    })
  }, BACKGROUND_DELAY_MS)
  return {
    /** Cancels a start not yet begun, and stops the schedules. */
    stopSchedules: () => {
      clearTimeout(timer)
      stopJobs()
    },
    /** Settles once workers that were starting have started, so that the queue's stop stops them too. */
    workersStarted: () => workers,
    stopMaintaining: () => stopMaintaining(),
  }
}
