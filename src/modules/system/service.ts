import { sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import pkg from '../../../package.json'

export interface VersionInfo {
  name: string
  version: string
  commit: string | null
  runtime: string
  database: 'pglite' | 'postgres'
  vector: boolean
}

export class SystemService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'database' | 'config'>) {}

  async health(): Promise<{ status: 'ok' | 'degraded'; database: 'ok' | 'down' }> {
    try {
      await this.deps.db.execute(sql`select 1`)
      return { status: 'ok', database: 'ok' }
    } catch {
      return { status: 'degraded', database: 'down' }
    }
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
