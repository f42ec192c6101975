import { loadConfig, type Config } from './config'
import type { Deps } from './deps'
import { migrate, openPglite, openPostgres, pgliteDir, type Database } from './platform/db'
import { copySeed } from './platform/db/seed'
import { AccessTokens } from './platform/jwt'
import { resolveAuthSecret } from './platform/keys'
import { createLogger, type Logger } from './platform/logger'
import { Metrics } from './platform/metrics'
import { JobQueue } from './platform/queue'
import { memoryRateLimitStore, redisRateLimitStore } from './platform/rate-limit'
import { Shutdown } from './platform/shutdown'
import { Tracing } from './platform/tracing'
import { prepareMemoryVectors } from './modules/persona_memory/vectors'
import { createEmbeddings } from './providers/embeddings'
import { createLlmProviders } from './providers/llm'
import { createObjectStore } from './providers/storage'
import pkg from '../package.json'

export class BootError extends Error {}

/**
 * Opens the configured database (PGlite in DATA_DIR unless DATABASE_URL is set) and migrates it. Its
 * watch logs re-entrancy and stalls through `logger` (platform/db/watch.ts).
 */
export async function openDatabase(config: Config, logger: Logger = createLogger(config.logLevel)): Promise<Database> {
  const watch = { ...config.database, log: logger.error }
  if (!config.databaseUrl) {
    copySeed(pgliteDir(config.dataDir))
    const database = await openPglite({ dataDir: pgliteDir(config.dataDir), sharedBuffers: config.pgliteSharedBuffers, watch })
    await prepareDatabase(database, config)
    return database
  }
  let database: Database
  try {
    database = await openPostgres(config.databaseUrl, { watch })
  } catch (err) {
    throw new BootError(`DATABASE_URL: cannot connect (${(err as Error).message || (err as { code?: string }).code})`)
  }
  await prepareDatabase(database, config, config.databaseUrl)
  return database
}

/** Migrations, then the steps that depend on the database's capabilities and the configuration. */
export async function prepareDatabase(database: Database, config: Pick<Config, 'embedding'>, url?: string): Promise<void> {
  await migrate(database, url)
  await prepareMemoryVectors(database, config.embedding.dimensions)
}

export function buildDeps(config: Readonly<Config>, database: Database, options: { logger?: Logger; now?: () => Date } = {}): Deps {
  const secret = resolveAuthSecret(config)
  const now = options.now ?? (() => new Date())
  const logger = options.logger ?? createLogger(config.logLevel)
  const metrics = new Metrics(database, { process: config.metricsToken !== null })
  const tracing = new Tracing(config.tracing, pkg.version)
  if (tracing.enabled) database.watch.trace()
  return {
    config,
    database,
    db: database.db,
    logger,
    now,
    secret,
    tokens: new AccessTokens(secret, config.publicUrl, now),
    rateLimits: config.redisUrl ? redisRateLimitStore(config.redisUrl) : memoryRateLimitStore(),
    storage: createObjectStore(config, { secret, now }),
    llm: createLlmProviders(config, { meter: metrics }),
    embeddings: createEmbeddings(config),
    queue: new JobQueue(database, { workers: config.jobs, logger, pollingIntervalSeconds: config.queuePollSeconds, metrics, tracing }),
    shutdown: new Shutdown(),
    metrics,
    tracing,
  }
}

export { loadConfig }
