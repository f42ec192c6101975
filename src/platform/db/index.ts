import { mkdirSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'

/** A database or a transaction: services take this so they run inside a caller's transaction. */
export type Db = PgDatabase<PgQueryResultHKT>

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** pgvector is installed (PGlite always; a PostgreSQL server only when the extension exists). */
  vector: boolean
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /** PGlite only: the data directory as a gzipped tarball, loadable with `loadDataDir`. */
  dump?: () => Promise<Blob>
  close(): Promise<void>
}

export const MIGRATIONS_DIR = resolve(import.meta.dir, '../../../drizzle')
const MIGRATION_LOCK = 0x65636f62 // 'ecob': one migrator at a time across replicas

export async function openPglite(options: { dataDir?: string; loadDataDir?: Blob } = {}): Promise<Database> {
  if (options.dataDir) mkdirSync(dirname(resolve(options.dataDir)), { recursive: true })
  const client = await PGlite.create(options.dataDir, {
    extensions: { vector },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  })
  const db = drizzlePglite(client) as unknown as Db
  return {
    db,
    kind: 'pglite',
    vector: true,
    listen: (channel, fn) => client.listen(channel, fn).then((off) => () => off()),
    dump: async () => (await client.dumpDataDir('gzip')) as Blob,
    close: () => client.close(),
  }
}

export async function openPostgres(url: string, options: { max?: number } = {}): Promise<Database> {
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connect_timeout: 10 })
  await client`select 1`
  const db = drizzlePostgres(client) as unknown as Db
  const [probe] = await client`select 1 as ok from pg_available_extensions where name = 'vector'`
  return {
    db,
    kind: 'postgres',
    vector: Boolean(probe),
    listen: async (channel, fn) => {
      const sub = await client.listen(channel, fn)
      return () => sub.unlisten()
    },
    close: () => client.end({ timeout: 5 }),
  }
}

/** Applies drizzle/ migrations (and pgvector where available), serialised across replicas. */
export async function migrate(database: Database, url?: string): Promise<void> {
  if (database.kind === 'pglite') {
    await database.db.execute(sql`create extension if not exists vector`)
    await migratePglite(database.db as never, { migrationsFolder: MIGRATIONS_DIR })
    return
  }
  const lockClient = postgres(url!, { max: 1, onnotice: () => {} })
  try {
    await lockClient`select pg_advisory_lock(${MIGRATION_LOCK})`
    if (database.vector) await lockClient`create extension if not exists vector`
    await migratePostgres(database.db as never, { migrationsFolder: MIGRATIONS_DIR })
  } finally {
    await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK})`.catch(() => {})
    await lockClient.end({ timeout: 5 })
  }
}

export function pgliteDir(dataDir: string): string {
  return join(dataDir, 'pglite')
}

/** SQLSTATE of a failed query, looking through Drizzle's wrapper. */
export function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } }
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code
  return typeof code === 'string' ? code : undefined
}

export const isUniqueViolation = (err: unknown) => sqlState(err) === '23505'
