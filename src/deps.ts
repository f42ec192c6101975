import type { Config } from './config'
import type { Database, Db } from './platform/db'
import type { AccessTokens } from './platform/jwt'
import type { Logger } from './platform/logger'
import type { Metrics } from './platform/metrics'
import type { JobQueue } from './platform/queue'
import type { Tracing } from './platform/tracing'
import type { EmbeddingProvider } from './providers/embeddings'
import type { LlmProviders } from './providers/llm'
import type { ObjectStore } from './providers/storage'
import type { RateLimitStore } from './platform/rate-limit'
import type { Shutdown } from './platform/shutdown'

/** Everything a module needs, built once at boot (or by a test) and passed down. */
export interface Deps {
  config: Readonly<Config>
  database: Database
  db: Db
  logger: Logger
  now: () => Date
  /** The server key (AUTH_SECRET or the generated one). Never logged or returned. */
  secret: string
  tokens: AccessTokens
  rateLimits: RateLimitStore
  /** Where attachment bytes live (STORAGE_DRIVER). */
  storage: ObjectStore
  /** Chat model services: the configured default (OPENAI_*, else the dev model) and per-persona services. */
  llm: LlmProviders
  /** Memory embeddings (EMBEDDING_*, else the local embedder). */
  embeddings: EmbeddingProvider
  /** The durable job queue (pg-boss); areas define job kinds while the app is built, boot starts it. */
  queue: JobQueue
  /** The process's shutdown: streams end when it begins (SIGTERM). */
  shutdown: Shutdown
  /** This app's Prometheus metrics (its own registry); GET /metrics exposes them when METRICS_TOKEN is set. */
  metrics: Metrics
  /** This app's OpenTelemetry traces (its own provider); off unless an OTLP endpoint is configured. */
  tracing: Tracing
}
