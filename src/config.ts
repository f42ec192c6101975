import { readFileSync } from 'node:fs'
import { Cron } from 'croner'
import { Type as T, type Static } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { ApiLimitsConfig } from './platform/api-limits'
import type { PrivateAddressPolicy } from './platform/ip-ranges'
import { otlpHeaders, TRACES_SAMPLERS, type TracesSampler, tracesUrl } from './platform/tracing-config'

const Port = T.Integer({ minimum: 0, maximum: 65535 })
const Seconds = T.Integer({ minimum: 1 })
const Positive = T.Integer({ minimum: 1 })
const Flag = T.Union([T.Literal('on'), T.Literal('off')])

/**
 * PostgreSQL's default 128 MB of shared buffers is most of an embedded server's memory; one process
 * on a laptop does well with far less (bench/README.md, P7: idle RSS). Large persona memory sets
 * want more (P5: the HNSW index read from the buffers).
 */
export const DEFAULT_SHARED_BUFFERS = '16MB'

/**
 * Every environment variable Ecobase reads, with its default. `.env.example` and the configuration
 * table (docs/operations/configuration.md) list the same names; a test keeps the three in step.
 */
export const EnvSchema = T.Object({
  PORT: T.Optional(Port),
  HOST: T.Optional(T.String({ minLength: 1 })),
  DATA_DIR: T.Optional(T.String({ minLength: 1 })),
  /** Read by src/index.ts before the configuration loads; here so that a bad value stops the boot. */
  SERVER_BUNDLE: T.Optional(Flag),
  DATABASE_URL: T.Optional(T.String({ pattern: '^postgres(ql)?://' })),
  DB_DEBUG: T.Optional(T.Union([T.Literal('0'), T.Literal('1')])),
  DB_STALL_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 3600 })),
  PGLITE_SHARED_BUFFERS: T.Optional(T.String({ pattern: '^[1-9][0-9]*(kB|MB|GB)$' })),
  PUBLIC_URL: T.Optional(T.String({ pattern: '^https?://' })),
  AUTH_SECRET: T.Optional(T.String({ minLength: 32 })),
  ACCESS_TOKEN_TTL_SECONDS: T.Optional(Seconds),
  REFRESH_TOKEN_TTL_SECONDS: T.Optional(Seconds),
  SESSION_MAX_AGE_SECONDS: T.Optional(Seconds),
  OAUTH_CODE_TTL_SECONDS: T.Optional(Seconds),
  OAUTH_ACCESS_TOKEN_TTL_SECONDS: T.Optional(Seconds),
  OAUTH_REFRESH_TOKEN_TTL_SECONDS: T.Optional(Seconds),
  OAUTH_CONSENT_URL: T.Optional(T.String({ pattern: '^https?://[^#]+$' })),
  ADMIN_EMAILS: T.Optional(T.String()),
  PASSWORD_MEMORY_KIB: T.Optional(T.Integer({ minimum: 19456 })),
  PASSWORD_TIME_COST: T.Optional(T.Integer({ minimum: 2 })),
  LOGIN_MAX_FAILURES_PER_EMAIL: T.Optional(Positive),
  LOGIN_FAILURE_WINDOW_SECONDS: T.Optional(Seconds),
  LOGIN_MAX_ATTEMPTS_PER_IP: T.Optional(Positive),
  LOGIN_IP_WINDOW_SECONDS: T.Optional(Seconds),
  RATE_LIMITS: T.Optional(Flag),
  RATE_LIMIT_WINDOW_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 3600 })),
  RATE_LIMIT_READ: T.Optional(Positive),
  RATE_LIMIT_WRITE: T.Optional(Positive),
  RATE_LIMIT_EXPENSIVE: T.Optional(Positive),
  RATE_LIMIT_ANONYMOUS: T.Optional(Positive),
  TRUST_PROXY: T.Optional(Flag),
  CORS_ORIGINS: T.Optional(T.String()),
  REDIS_URL: T.Optional(T.String({ pattern: '^rediss?://' })),
  MAX_BODY_BYTES: T.Optional(Positive),
  JOBS: T.Optional(Flag),
  SHUTDOWN_TIMEOUT_SECONDS: T.Optional(T.Integer({ minimum: 0, maximum: 3600 })),
  STORAGE_DRIVER: T.Optional(T.Union([T.Literal('local'), T.Literal('s3')])),
  STORAGE_URL_TTL_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 604800 })),
  STORAGE_DEFAULT_QUOTA_BYTES: T.Optional(T.Integer({ minimum: 0 })),
  STORAGE_MAX_UPLOAD_BYTES: T.Optional(T.Integer({ minimum: 1, maximum: 5 * 1024 ** 3 })),
  STORAGE_PENDING_TTL_SECONDS: T.Optional(Seconds),
  STORAGE_PURGE_AFTER_SECONDS: T.Optional(T.Integer({ minimum: 0 })),
  S3_ENDPOINT: T.Optional(T.String({ pattern: '^https?://' })),
  S3_REGION: T.Optional(T.String({ minLength: 1 })),
  S3_BUCKET: T.Optional(T.String({ minLength: 3, maxLength: 63 })),
  S3_ACCESS_KEY_ID: T.Optional(T.String({ minLength: 1 })),
  S3_SECRET_ACCESS_KEY: T.Optional(T.String({ minLength: 1 })),
  S3_FORCE_PATH_STYLE: T.Optional(Flag),
  OPENAI_BASE_URL: T.Optional(T.String({ pattern: '^https?://' })),
  OPENAI_API_KEY: T.Optional(T.String({ minLength: 1 })),
  CHAT_MODEL: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
  CHAT_TIMEOUT_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 3600 })),
  ALLOW_PRIVATE_ADDRESSES: T.Optional(T.Union([T.Literal('true'), T.Literal('false')])),
  PERSONA_SERVICE_PRIVATE_ADDRESSES: T.Optional(T.Union([T.Literal('deny'), T.Literal('allow')])),
  WEBHOOK_PRIVATE_ADDRESSES: T.Optional(T.Union([T.Literal('deny'), T.Literal('allow')])),
  MONITORED_SITES_PRIVATE_ADDRESSES: T.Optional(T.Union([T.Literal('deny'), T.Literal('allow')])),
  SITE_SERVICE_PRIVATE_ADDRESSES: T.Optional(T.Union([T.Literal('deny'), T.Literal('allow')])),
  WEBHOOK_TIMEOUT_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 60 })),
  WEBHOOK_RETRY_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 3600 })),
  EMBEDDING_BASE_URL: T.Optional(T.String({ pattern: '^https?://' })),
  EMBEDDING_API_KEY: T.Optional(T.String({ minLength: 1 })),
  EMBEDDING_MODEL: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
  // pgvector's HNSW index takes at most 2000 dimensions.
  EMBEDDING_DIMENSIONS: T.Optional(T.Integer({ minimum: 8, maximum: 2000 })),
  SMTP_URL: T.Optional(T.String({ pattern: '^smtps?://' })),
  MAIL_FROM: T.Optional(T.String({ minLength: 3, maxLength: 320, pattern: '^[^\\r\\n]+$' })),
  TWILIO_ACCOUNT_SID: T.Optional(T.String({ pattern: '^AC[0-9a-fA-F]{32}$' })),
  TWILIO_AUTH_TOKEN: T.Optional(T.String({ minLength: 16 })),
  TWILIO_FROM: T.Optional(T.String({ pattern: '^\\+[1-9][0-9]{6,14}$' })),
  TWILIO_API_URL: T.Optional(T.String({ pattern: '^https?://' })),
  MESSAGING_TIMEOUT_SECONDS: T.Optional(T.Integer({ minimum: 1, maximum: 120 })),
  PASSWORD_RESET_URL: T.Optional(T.String({ pattern: '^https?://.*\\{token\\}' })),
  VERIFY_EMAIL_URL: T.Optional(T.String({ pattern: '^https?://.*\\{token\\}' })),
  FEED_RETENTION_DAYS: T.Optional(T.Integer({ minimum: 1, maximum: 3650 })),
  REALTIME_RETENTION_HOURS: T.Optional(T.Integer({ minimum: 1, maximum: 24 * 90 })),
  BILLING_GRACE_DAYS: T.Optional(T.Integer({ minimum: 0, maximum: 90 })),
  RP_ID: T.Optional(T.String({ pattern: '^[a-z0-9.-]+$', maxLength: 253 })),
  WEBAUTHN_ORIGINS: T.Optional(T.String({ maxLength: 4000 })),
  STRIPE_API_URL: T.Optional(T.String({ pattern: '^https?://[^/]+/?$' })),
  AUDIT_RETENTION_DAYS: T.Optional(T.Integer({ minimum: 1, maximum: 36500 })),
  BACKUP_SCHEDULE: T.Optional(T.String({ minLength: 9, maxLength: 100 })),
  BACKUP_KEEP: T.Optional(T.Integer({ minimum: 1, maximum: 1000 })),
  BACKUP_TARGET: T.Optional(T.Union([T.Literal('local'), T.Literal('s3')])),
  BACKUP_ENCRYPTION_KEY: T.Optional(T.String({ minLength: 16, maxLength: 1024 })),
  BACKUP_ENCRYPTION_KEY_FILE: T.Optional(T.String({ minLength: 1 })),
  QUEUE_POLL_SECONDS: T.Optional(T.Number({ minimum: 0.5, maximum: 60 })),
  NOTIFICATION_BATCH_SIZE: T.Optional(T.Integer({ minimum: 1, maximum: 10_000 })),
  GIT_COMMIT: T.Optional(T.String({ maxLength: 64 })),
  METRICS_TOKEN: T.Optional(T.String({ minLength: 16, maxLength: 1024 })),
  OTEL_EXPORTER_OTLP_ENDPOINT: T.Optional(T.String({ pattern: '^https?://' })),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: T.Optional(T.String({ pattern: '^https?://' })),
  OTEL_EXPORTER_OTLP_HEADERS: T.Optional(T.String({ maxLength: 8192 })),
  OTEL_SERVICE_NAME: T.Optional(T.String({ minLength: 1, maxLength: 200 })),
  OTEL_TRACES_SAMPLER: T.Optional(T.Union(TRACES_SAMPLERS.map((name) => T.Literal(name)))),
  OTEL_TRACES_SAMPLER_ARG: T.Optional(T.Number({ minimum: 0, maximum: 1 })),
  LOG_LEVEL: T.Optional(T.Union([T.Literal('debug'), T.Literal('info'), T.Literal('warn'), T.Literal('error'), T.Literal('silent')])),
})
export type Env = Static<typeof EnvSchema>

export interface Config {
  port: number
  host: string
  dataDir: string
  databaseUrl: string | null
  /**
   * The database watch (platform/db/watch.ts): `guard` makes a statement sent to the pool from inside
   * an open transaction throw (instead of being logged); a statement unanswered for `stallSeconds`
   * is logged with what holds the connection and turns GET /health to 503 `database_stalled`.
   */
  database: { guard: boolean; stallSeconds: number }
  /** Embedded PGlite's shared_buffers (PostgreSQL's page cache): idle memory against large-table speed. */
  pgliteSharedBuffers: string
  publicUrl: string
  /** Passkeys: the relying party id (a domain) and the origins whose pages may use them. */
  webauthn: { rpId: string; origins: string[] }
  /** null: generated once and kept in DATA_DIR (resolved at boot by keys.ts). */
  authSecret: string | null
  accessTokenTtl: number
  refreshTokenTtl: number
  /** Absolute lifetime of account and customer sessions, however often they refresh. */
  sessionMaxAge: number
  /** OAuth authorization server: code, access-token and refresh-token (grant) lifetimes in seconds. */
  oauth: { codeTtl: number; accessTokenTtl: number; refreshTokenTtl: number; consentUrl: string | null }
  adminEmails: string[]
  password: { memoryCost: number; timeCost: number }
  loginLimits: { failuresPerEmail: number; failureWindow: number; attemptsPerIp: number; ipWindow: number }
  /** API rate limits (platform/api-limits.ts): requests per window by class of route, per principal; anonymous calls per client address. */
  apiLimits: ApiLimitsConfig
  trustProxy: boolean
  /** Exact origins (scheme://host[:port]) whose browsers may call the API with credentials; empty = same-origin only. */
  corsOrigins: string[]
  redisUrl: string | null
  maxBodyBytes: number
  jobs: boolean
  /** Site feed items are deleted this many days after they were read. */
  feedRetentionDays: number
  /** Realtime changes are kept this long for streams resuming from a cursor (`Last-Event-ID`). */
  realtimeRetentionHours: number
  /** Billing: how long a past_due subscription keeps its plan after its period ended; where Stripe's API is (a test double or proxy). */
  billing: { graceDays: number; stripeApiUrl: string }
  /** Audit events are deleted this many days after they were written. */
  auditRetentionDays: number
  /**
   * Backups: a cron pattern (null: none), how many complete (and failed) ones to keep, where they go,
   * and the encryption keys (BACKUP_ENCRYPTION_KEY or the lines of BACKUP_ENCRYPTION_KEY_FILE): the
   * first encrypts new archives, each can read one; none: archives are plain .tar.gz.
   */
  backups: { schedule: string | null; keep: number; target: 'local' | 's3'; keys: readonly string[] }
  /** How often idle queue workers look for new jobs. */
  queuePollSeconds: number
  /** On SIGTERM/SIGINT, how long in-flight requests (and chat streams) may take to finish before they are cut. */
  shutdownTimeoutSeconds: number
  storage: StorageConfig
  /** The OpenAI-compatible service from the environment; both null = none configured. */
  openai: { baseUrl: string | null; apiKey: string | null }
  /** Default chat model (`dev` = the built-in development model) and the model-service idle timeout. */
  chat: { model: string; timeoutSeconds: number }
  /**
   * Whether persona services (base URLs tenants choose) may reach private addresses: loopback,
   * private networks, unique-local. Link-local and cloud-metadata addresses are refused either way.
   */
  personaServices: { privateAddresses: PrivateAddressPolicy }
  /** ALLOW_PRIVATE_ADDRESSES=true: the default of every `*_PRIVATE_ADDRESSES` becomes `allow` (a laptop); boot logs a warning. */
  allowPrivateAddresses: boolean
  /**
   * Outbound webhooks: the same address policy (with `allow`, `http://` too, for loopback receivers);
   * how long a receiver has to answer; the first retry's delay (doubling, at most 6 h, 13 attempts).
   */
  webhooks: { privateAddresses: PrivateAddressPolicy; timeoutSeconds: number; retrySeconds: number }
  /** Monitored sites: the same address policy for the (http or https) URLs checked. */
  monitoredSites: { privateAddresses: PrivateAddressPolicy }
  /**
   * Site services (provider settings ecosystems store): the same address policy for the hosts and
   * URLs they name (an `smtp` server, an `openai` base URL, a `webhook` URL). The instance's own
   * SMTP_URL is the operator's and not checked.
   */
  siteServices: { privateAddresses: PrivateAddressPolicy }
  /** Memory embeddings: an OpenAI-compatible service when baseUrl is set, else the local embedder; vectors of `dimensions`. */
  embedding: { baseUrl: string | null; apiKey: string | null; model: string; dimensions: number }
  /** Instance-wide providers for ecosystems without their own site service of the kind; null = none configured. */
  providers: {
    smtp: { url: string; from: string | null } | null
    twilio: { accountSid: string; authToken: string; from: string } | null
  }
  /**
   * Provider deadline per send; `twilioApiUrl` replaces https://api.twilio.com (a Twilio-compatible
   * gateway, or the test double); `batchSize` customers per announcement fan-out job.
   */
  messaging: { timeoutSeconds: number; twilioApiUrl: string | null; batchSize: number }
  /** Your front end's pages for account e-mails, with `{token}`; null = the e-mail carries the token itself. */
  accountEmailLinks: { passwordReset: string | null; verifyEmail: string | null }
  /** Build commit for /site/version (images have no .git to read it from). */
  gitCommit: string | null
  /** The bearer token Prometheus sends to GET /metrics; null: /metrics is off (404). */
  metricsToken: string | null
  /**
   * OpenTelemetry traces (platform/tracing.ts): where the OTLP/HTTP exporter posts them (null:
   * tracing off), the headers it sends (a collector's credentials), the service's name on every
   * span, and the sampler with its ratio.
   */
  tracing: { url: string | null; headers: Record<string, string>; serviceName: string; sampler: TracesSampler; ratio: number }
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent'
}

export interface StorageConfig {
  driver: 'local' | 's3'
  /** Lifetime of presigned upload and download URLs, in seconds. */
  urlTtl: number
  defaultQuotaBytes: number
  maxUploadBytes: number
  /** `pending` attachments older than this are expired (with their bytes). */
  pendingTtl: number
  /** Bytes of soft-deleted attachments are purged this long after the deletion. */
  purgeAfter: number
  /** Set when driver is `s3`. Credentials null = the AWS SDK's default chain (IAM role, AWS_* env). */
  s3: {
    endpoint: string | null
    region: string
    bucket: string
    credentials: { accessKeyId: string; secretAccessKey: string } | null
    forcePathStyle: boolean
  } | null
}

export class ConfigError extends Error {}

/** Parses the environment; a bad value throws a ConfigError whose message names the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const raw: Record<string, unknown> = {}
  for (const key of Object.keys(EnvSchema.properties)) {
    const value = env[key]
    if (value !== undefined && value !== '') raw[key] = value
  }
  const converted = Value.Convert(EnvSchema, raw) as Record<string, unknown>
  const first = Value.Errors(EnvSchema, converted).First()
  if (first) {
    const name = first.path.replace(/^\//, '')
    const value = String(raw[name] ?? '')
    const shown = isSecret(name, value) ? `${name} (value not shown: it may be a secret)` : `${name}=${JSON.stringify(value)}`
    throw new ConfigError(`invalid ${shown}: ${allowedValues(name) ?? first.message}`)
  }
  const e = converted as Env
  const port = e.PORT ?? 3000
  const host = e.HOST ?? '0.0.0.0'
  // Each specific setting wins over the one for all kinds; link-local and metadata stay refused (platform/ip-ranges.ts).
  const privateAddresses: PrivateAddressPolicy = e.ALLOW_PRIVATE_ADDRESSES === 'true' ? 'allow' : 'deny'
  return Object.freeze({
    port,
    host,
    dataDir: e.DATA_DIR ?? './data',
    databaseUrl: e.DATABASE_URL ?? null,
    database: { guard: e.DB_DEBUG === '1', stallSeconds: e.DB_STALL_SECONDS ?? 30 },
    pgliteSharedBuffers: e.PGLITE_SHARED_BUFFERS ?? DEFAULT_SHARED_BUFFERS,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    webauthn: webauthnOf(e.RP_ID, e.WEBAUTHN_ORIGINS, (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '')),
    authSecret: e.AUTH_SECRET ?? null,
    accessTokenTtl: e.ACCESS_TOKEN_TTL_SECONDS ?? 900,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL_SECONDS ?? 30 * 24 * 3600,
    sessionMaxAge: e.SESSION_MAX_AGE_SECONDS ?? 90 * 24 * 3600,
    oauth: {
      codeTtl: e.OAUTH_CODE_TTL_SECONDS ?? 60,
      accessTokenTtl: e.OAUTH_ACCESS_TOKEN_TTL_SECONDS ?? 3600,
      refreshTokenTtl: e.OAUTH_REFRESH_TOKEN_TTL_SECONDS ?? 30 * 24 * 3600,
      consentUrl: e.OAUTH_CONSENT_URL ?? null,
    },
    adminEmails: (e.ADMIN_EMAILS ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
    password: { memoryCost: e.PASSWORD_MEMORY_KIB ?? 19456, timeCost: e.PASSWORD_TIME_COST ?? 2 },
    loginLimits: {
      failuresPerEmail: e.LOGIN_MAX_FAILURES_PER_EMAIL ?? 10,
      failureWindow: e.LOGIN_FAILURE_WINDOW_SECONDS ?? 900,
      attemptsPerIp: e.LOGIN_MAX_ATTEMPTS_PER_IP ?? 300,
      ipWindow: e.LOGIN_IP_WINDOW_SECONDS ?? 60,
    },
    apiLimits: {
      enabled: (e.RATE_LIMITS ?? 'on') === 'on',
      windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS ?? 60,
      quotas: {
        read: e.RATE_LIMIT_READ ?? 600,
        write: e.RATE_LIMIT_WRITE ?? 120,
        expensive: e.RATE_LIMIT_EXPENSIVE ?? 20,
        anonymous: e.RATE_LIMIT_ANONYMOUS ?? 120,
      },
    },
    trustProxy: e.TRUST_PROXY === 'on',
    corsOrigins: corsOrigins(e.CORS_ORIGINS),
    redisUrl: e.REDIS_URL ?? null,
    maxBodyBytes: e.MAX_BODY_BYTES ?? 1024 * 1024,
    jobs: (e.JOBS ?? 'on') === 'on',
    queuePollSeconds: e.QUEUE_POLL_SECONDS ?? 2,
    feedRetentionDays: e.FEED_RETENTION_DAYS ?? 90,
    realtimeRetentionHours: e.REALTIME_RETENTION_HOURS ?? 24,
    billing: { graceDays: e.BILLING_GRACE_DAYS ?? 7, stripeApiUrl: e.STRIPE_API_URL ?? 'https://api.stripe.com' },
    auditRetentionDays: e.AUDIT_RETENTION_DAYS ?? 365,
    backups: {
      schedule: cronPattern(e.BACKUP_SCHEDULE),
      keep: e.BACKUP_KEEP ?? 7,
      target: backupTarget(e.BACKUP_TARGET, e.STORAGE_DRIVER),
      keys: backupKeys(e.BACKUP_ENCRYPTION_KEY, e.BACKUP_ENCRYPTION_KEY_FILE),
    },
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS ?? 10,
    storage: storageConfig(e),
    openai: { baseUrl: e.OPENAI_BASE_URL?.replace(/\/+$/, '') ?? null, apiKey: e.OPENAI_API_KEY ?? null },
    chat: {
      model: e.CHAT_MODEL ?? (e.OPENAI_BASE_URL || e.OPENAI_API_KEY ? 'gpt-4o-mini' : 'dev'),
      timeoutSeconds: e.CHAT_TIMEOUT_SECONDS ?? 60,
    },
    allowPrivateAddresses: privateAddresses === 'allow',
    personaServices: { privateAddresses: e.PERSONA_SERVICE_PRIVATE_ADDRESSES ?? privateAddresses },
    monitoredSites: { privateAddresses: e.MONITORED_SITES_PRIVATE_ADDRESSES ?? privateAddresses },
    siteServices: { privateAddresses: e.SITE_SERVICE_PRIVATE_ADDRESSES ?? privateAddresses },
    webhooks: {
      privateAddresses: e.WEBHOOK_PRIVATE_ADDRESSES ?? privateAddresses,
      timeoutSeconds: e.WEBHOOK_TIMEOUT_SECONDS ?? 10,
      retrySeconds: e.WEBHOOK_RETRY_SECONDS ?? 60,
    },
    embedding: {
      baseUrl: e.EMBEDDING_BASE_URL?.replace(/\/+$/, '') ?? null,
      apiKey: e.EMBEDDING_API_KEY ?? null,
      model: e.EMBEDDING_MODEL ?? 'text-embedding-3-small',
      dimensions: e.EMBEDDING_DIMENSIONS ?? 384,
    },
    providers: providersConfig(e),
    accountEmailLinks: { passwordReset: e.PASSWORD_RESET_URL ?? null, verifyEmail: e.VERIFY_EMAIL_URL ?? null },
    messaging: {
      timeoutSeconds: e.MESSAGING_TIMEOUT_SECONDS ?? 10,
      twilioApiUrl: e.TWILIO_API_URL?.replace(/\/+$/, '') ?? null,
      batchSize: e.NOTIFICATION_BATCH_SIZE ?? 1000,
    },
    gitCommit: e.GIT_COMMIT ?? null,
    metricsToken: e.METRICS_TOKEN ?? null,
    tracing: {
      url: tracesUrl(e.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, e.OTEL_EXPORTER_OTLP_ENDPOINT),
      headers: tracesHeaders(e.OTEL_EXPORTER_OTLP_HEADERS),
      serviceName: e.OTEL_SERVICE_NAME ?? 'ecobase',
      sampler: e.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
      ratio: e.OTEL_TRACES_SAMPLER_ARG ?? 1,
    },
    logLevel: e.LOG_LEVEL ?? 'info',
  })
}

/** Settings whose values are credentials, or URLs that carry them, are never echoed in an error. */
function isSecret(name: string, value: string): boolean {
  return /SECRET|KEY|TOKEN|PASSWORD|PASS$|HEADERS$/.test(name) || (name.endsWith('_URL') && /\/\/[^/]*@/.test(value))
}

/** `expected one of a, b, c` for settings that take one of a few words. */
function allowedValues(name: string): string | null {
  const schema = (EnvSchema.properties as Record<string, { anyOf?: { const?: unknown }[] }>)[name]
  const words = schema?.anyOf?.map((s) => s.const).filter((c) => typeof c === 'string')
  return words?.length ? `expected one of ${words.join(', ')}` : null
}

function providersConfig(e: Env): Config['providers'] {
  const twilio = [e.TWILIO_ACCOUNT_SID, e.TWILIO_AUTH_TOKEN, e.TWILIO_FROM]
  if (twilio.some(Boolean) && !twilio.every(Boolean))
    throw new ConfigError('TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM go together: set all three or none')
  return {
    smtp: e.SMTP_URL ? { url: e.SMTP_URL, from: e.MAIL_FROM ?? null } : null,
    twilio: e.TWILIO_ACCOUNT_SID ? { accountSid: e.TWILIO_ACCOUNT_SID, authToken: e.TWILIO_AUTH_TOKEN!, from: e.TWILIO_FROM! } : null,
  }
}

function corsOrigins(value: string | undefined): string[] {
  const origins = (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
  for (const origin of origins) {
    let parsed: URL | null = null
    try {
      parsed = new URL(origin)
    } catch {}
    if (!parsed || !/^https?:$/.test(parsed.protocol) || parsed.origin !== origin) {
      throw new ConfigError(`invalid CORS_ORIGINS: ${JSON.stringify(origin)} is not an origin (scheme://host[:port], no path or trailing slash)`)
    }
  }
  return origins
}

function storageConfig(e: Env): StorageConfig {
  const driver = e.STORAGE_DRIVER ?? 'local'
  let s3: StorageConfig['s3'] = null
  if (driver === 's3') {
    if (!e.S3_BUCKET) throw new ConfigError('S3_BUCKET is required when STORAGE_DRIVER=s3')
    if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
      const [missing, given] = e.S3_ACCESS_KEY_ID ? ['S3_SECRET_ACCESS_KEY', 'S3_ACCESS_KEY_ID'] : ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY']
      throw new ConfigError(`${missing} is required with ${given} (or leave both unset for the AWS default credentials)`)
    }
    s3 = {
      endpoint: e.S3_ENDPOINT?.replace(/\/+$/, '') ?? null,
      region: e.S3_REGION ?? 'us-east-1',
      bucket: e.S3_BUCKET,
      credentials: e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! } : null,
      forcePathStyle: e.S3_FORCE_PATH_STYLE === 'on',
    }
  }
  return {
    driver,
    urlTtl: e.STORAGE_URL_TTL_SECONDS ?? 900,
    defaultQuotaBytes: e.STORAGE_DEFAULT_QUOTA_BYTES ?? 5 * 1024 ** 3,
    maxUploadBytes: e.STORAGE_MAX_UPLOAD_BYTES ?? 5 * 1024 ** 3,
    pendingTtl: e.STORAGE_PENDING_TTL_SECONDS ?? 24 * 3600,
    purgeAfter: e.STORAGE_PURGE_AFTER_SECONDS ?? 24 * 3600,
    s3,
  }
}

function tracesHeaders(value: string | undefined): Record<string, string> {
  const headers = otlpHeaders(value)
  if (!headers)
    throw new ConfigError('invalid OTEL_EXPORTER_OTLP_HEADERS (value not shown: it may be a secret): expected URL-encoded key=value pairs separated by commas')
  return headers
}

/** A cron pattern croner accepts (5 or 6 fields), or null when none is set. */
function cronPattern(pattern: string | undefined): string | null {
  if (!pattern) return null
  try {
    new Cron(pattern, { paused: true }).stop()
  } catch (err) {
    throw new ConfigError(`invalid BACKUP_SCHEDULE: ${(err as Error).message} (a cron pattern, e.g. "0 3 * * *" for 03:00 daily)`)
  }
  return pattern
}

/** Where backups go: `local` (DATA_DIR/backups), or `s3`, the object store's bucket, which needs STORAGE_DRIVER=s3. */
function backupTarget(target: 'local' | 's3' | undefined, driver: string | undefined): 'local' | 's3' {
  if (target === 's3' && driver !== 's3')
    throw new ConfigError('BACKUP_TARGET=s3 puts backups in the object store’s bucket: it needs STORAGE_DRIVER=s3 and its S3_* settings')
  return target ?? 'local'
}

/** BACKUP_ENCRYPTION_KEY, or the non-empty lines of BACKUP_ENCRYPTION_KEY_FILE (newest first, for rotation); each at least 16 characters. */
function backupKeys(key: string | undefined, file: string | undefined): string[] {
  if (key && file) throw new ConfigError('set BACKUP_ENCRYPTION_KEY or BACKUP_ENCRYPTION_KEY_FILE, not both')
  if (!file) return key ? [key] : []
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    throw new ConfigError(`BACKUP_ENCRYPTION_KEY_FILE ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`)
  }
  const keys = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean)
  if (keys.length === 0 || keys.some((k) => k.length < 16))
    throw new ConfigError(`BACKUP_ENCRYPTION_KEY_FILE ${file}: one key per line, each at least 16 characters (e.g. openssl rand -base64 32)`)
  return keys
}

/** RP_ID defaults to PUBLIC_URL's host; WEBAUTHN_ORIGINS (comma-separated) to PUBLIC_URL's origin. */
function webauthnOf(rpId: string | undefined, origins: string | undefined, publicUrl: string): { rpId: string; origins: string[] } {
  const url = new URL(publicUrl)
  const list = origins
    ? origins
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
    : [url.origin]
  for (const origin of list) {
    if (!/^https?:\/\/[^/]+$/.test(origin)) throw new ConfigError(`WEBAUTHN_ORIGINS: ${origin} is not an origin (scheme://host[:port])`)
  }
  return { rpId: rpId ?? url.hostname, origins: list }
}
