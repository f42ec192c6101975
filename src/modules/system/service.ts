import { sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { bearerToken } from '../../platform/auth'
import { safeEqual, sha256Hex } from '../../platform/crypto'
import { appliedMigrations, knownMigrations } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { within } from '../../platform/shutdown'
import pkg from '../../../package.json'
import type { Backups } from './backups'
import { NOT_READY, type NotReadyCode } from './errors'

export interface VersionInfo {
  name: string
  version: string
  commit: string | null
  runtime: string
  database: 'pglite' | 'postgres'
  vector: boolean
}

type Degraded = { status: 'degraded'; database: 'down' | 'stalled'; error: { code: 'database_unavailable' | 'database_stalled'; message: string } }
export type Health = { status: 'ok'; database: 'ok' } | Degraded

export interface Readiness {
  status: 'ready' | 'not_ready'
  checks: { database: 'ok' | 'down' | 'stalled'; migrations: 'ok' | 'pending' | 'unknown'; queue: 'ok' | 'stopped'; shutdown: 'running' | 'draining' }
  error?: { code: NotReadyCode; message: string }
}

export class SystemService {
  /** Migrations this version ships, read at the first readiness probe. */
  private known: number | undefined

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'database' | 'config' | 'queue' | 'shutdown' | 'metrics'>,
    backups: Pick<Backups, 'lastCompleteAgeSeconds'>,
  ) {
    deps.metrics.sampled(
      { name: 'ecobase_backup_last_complete_age_seconds', help: 'Seconds since the newest complete backup finished (no sample: none yet)' },
      async () => {
        const age = await backups.lastCompleteAgeSeconds()
        return age === null ? [] : [{ value: age }]
      },
    )
  }

  /** `ok` while a `select 1` answers (see `probe`). */
  async health(): Promise<Health> {
    const probe = await this.probe(() => this.deps.db.execute(sql`select 1`))
    return 'answer' in probe ? { status: 'ok', database: 'ok' } : probe
  }

  /**
   * Whether this replica should get traffic: not draining, the database answering (the count of
   * applied migrations is the probe's statement), every migration this version ships applied, the
   * job queue started. The error names the first check that failed, in that order.
   */
  async readiness(): Promise<Readiness> {
    this.known ??= knownMigrations()
    const probe = await this.probe(() => appliedMigrations(this.deps.db))
    const applied = 'answer' in probe ? probe.answer : null
    const checks: Readiness['checks'] = {
      database: 'answer' in probe ? 'ok' : probe.database,
      migrations: applied === null ? 'unknown' : applied >= this.known ? 'ok' : 'pending',
      queue: this.deps.queue.running ? 'ok' : 'stopped',
      shutdown: this.deps.shutdown.draining ? 'draining' : 'running',
    }
    const failed = (code: NotReadyCode, message = `${NOT_READY[code][0]!.toUpperCase()}${NOT_READY[code].slice(1)}`): Readiness => ({
      status: 'not_ready',
      checks,
      error: { code, message },
    })
    if (checks.shutdown === 'draining') return failed('draining')
    if (!('answer' in probe)) return failed(probe.error.code, probe.error.message)
    if (checks.migrations === 'pending') return failed('migrations_pending', `${applied} of ${this.known} migrations are applied: run \`npx ecobase migrate\``)
    if (checks.queue === 'stopped') return failed('queue_stopped')
    return { status: 'ready', checks }
  }

  /**
   * Runs `statement` against the database within DB_STALL_SECONDS. A stall the database watch has
   * seen (a statement unanswered that long) answers at once, without sending a statement that would
   * wait behind it; a statement unanswered that long is one, so the probe never waits longer.
   */
  private async probe<T>(statement: () => Promise<T>): Promise<{ answer: T } | Degraded> {
    const { watch } = this.deps.database
    if (!watch.stalled()) {
      try {
        const answered = await within(
          statement().then((answer) => ({ answer })),
          this.deps.config.database.stallSeconds * 1000,
        )
        if (answered) return answered
      } catch {
        return { status: 'degraded', database: 'down', error: { code: 'database_unavailable', message: 'The database does not answer' } }
      }
    }
    const waited = Math.round((watch.stalled()?.waitingMs ?? this.deps.config.database.stallSeconds * 1000) / 1000)
    const message = `A database statement has waited ${waited} s; the server log names what holds the connection`
    return { status: 'degraded', database: 'stalled', error: { code: 'database_stalled', message } }
  }

  /**
   * The metrics in Prometheus's text format, for a scraper that sends METRICS_TOKEN as a bearer
   * token (compared in constant time). Without METRICS_TOKEN the route answers what an unknown
   * path does (404): an instance does not tell it has one.
   */
  metrics(authorization: string | undefined): Promise<string> {
    const token = this.deps.config.metricsToken
    if (token === null) throw new AppError(404, 'not_found', 'No such route')
    if (!safeEqual(sha256Hex(bearerToken(authorization)), sha256Hex(token))) {
      throw new AppError(401, 'unauthorized', 'The bearer token is not METRICS_TOKEN', undefined, { 'www-authenticate': 'Bearer' })
    }
    return this.deps.metrics.text()
  }

  version(): VersionInfo {
    return {
      name: pkg.name,
      version: pkg.version,
      commit: this.deps.config.gitCommit ?? gitCommit(),
      runtime: `bun ${Bun.version}`,
      database: this.deps.database.kind,
      vector: this.deps.database.vector,
    }
  }
}

let commit: string | null | undefined
function gitCommit(): string | null {
  if (commit !== undefined) return commit
  try {
    const out = Bun.spawnSync(['git', 'rev-parse', 'HEAD'], { cwd: import.meta.dir, stderr: 'ignore' })
    commit = out.success ? out.stdout.toString().trim() || null : null
  } catch {
    commit = null
  }
  return commit
}
