import { loadConfig, type Config } from './config'
import type { Deps } from './deps'
import { migrate, openPglite, openPostgres, pgliteDir, type Database } from './platform/db'
import { AccessTokens } from './platform/jwt'
import { resolveAuthSecret } from './platform/keys'
import { createLogger, type Logger } from './platform/logger'
import { memoryRateLimitStore, redisRateLimitStore } from './platform/rate-limit'

export class BootError extends Error {}

/** Opens the configured database (PGlite in DATA_DIR unless DATABASE_URL is set) and migrates it. */
export async function openDatabase(config: Config): Promise<Database> {
  if (!config.databaseUrl) {
    const database = await openPglite({ dataDir: pgliteDir(config.dataDir) })
    await migrate(database)
    return database
  }
  let database: Database
  try {
    database = await openPostgres(config.databaseUrl)
  } catch (err) {
    throw new BootError(`DATABASE_URL: cannot connect (${(err as Error).message || (err as { code?: string }).code})`)
  }
  await migrate(database, config.databaseUrl)
  return database
}

export function buildDeps(
  config: Readonly<Config>,
  database: Database,
  options: { logger?: Logger; now?: () => Date } = {},
): Deps {
  const secret = resolveAuthSecret(config)
  const now = options.now ?? (() => new Date())
  return {
    config,
    database,
    db: database.db,
    logger: options.logger ?? createLogger(config.logLevel),
    now,
    secret,
    tokens: new AccessTokens(secret, config.publicUrl, now),
    rateLimits: config.redisUrl ? redisRateLimitStore(config.redisUrl) : memoryRateLimitStore(),
  }
}

export { loadConfig }
