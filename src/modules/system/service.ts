import { sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { within } from '../../platform/shutdown'
import pkg from '../../../package.json'

export interface VersionInfo {
  name: string
  version: string
  commit: string | null
  runtime: string
  database: 'pglite' | 'postgres'
  vector: boolean
}

export type Health =
  | { status: 'ok'; database: 'ok' }
  | { status: 'degraded'; database: 'down' | 'stalled'; error: { code: 'database_unavailable' | 'database_stalled'; message: string } }

export class SystemService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'database' | 'config'>) {}

  /**
   * `ok` while a `select 1` answers. A stall the database watch has seen (a statement unanswered
   * for DB_STALL_SECONDS) answers at once, without sending a statement that would wait behind it;
   * a `select 1` unanswered that long is one, so the probe never waits longer.
   */
  async health(): Promise<Health> {
    const { watch } = this.deps.database
    if (!watch.stalled()) {
      try {
        const answered = await within(
          this.deps.db.execute(sql`select 1`).then(() => true as const),
          this.deps.config.database.stallSeconds * 1000,
        )
        if (answered) return { status: 'ok', database: 'ok' }
      } catch {
        return { status: 'degraded', database: 'down', error: { code: 'database_unavailable', message: 'The database does not answer' } }
      }
    }
    const waited = Math.round((watch.stalled()?.waitingMs ?? this.deps.config.database.stallSeconds * 1000) / 1000)
    const message = `A database statement has waited ${waited} s; the server log names what holds the connection`
    return { status: 'degraded', database: 'stalled', error: { code: 'database_stalled', message } }
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
