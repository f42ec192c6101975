import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { vector } from '@electric-sql/pglite-pgvector'
import { type SQL, sql } from 'drizzle-orm'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js'
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator'
import postgres from 'postgres'
import { trackCommits } from './commit'
import { drizzleView } from './pglite-parsers'
import { pgliteModule } from './wasm'
import { maintainEvery } from './pglite-maintenance'
import { keepStatementsPrepared, PLAN_CACHE_MODE } from './pglite-statements'
import type { Logger } from '../logger'
import { ConnectionWatch, originHere, watchPglite, watchPostgres, type WatchOptions } from './watch'
import { DEFAULT_SHARED_BUFFERS } from '../../config'

/** A database or a transaction: services take this so they run inside a caller's transaction. */
export type Db = PgDatabase<PgQueryResultHKT>

export interface Database {
  db: Db
  kind: 'pglite' | 'postgres'
  /** pgvector is installed (PGlite always; a PostgreSQL server only when the extension exists). */
  vector: boolean
  /**
   * A connection of its own, out of the pool until released, for a reader that must not wait
   * behind the pool (the realtime outbox reader). PGlite has one connection: it is that.
   */
  dedicated(): Promise<{ db: Db; release(): void }>
  /** Subscribes to NOTIFY on a channel; resolves to an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /**
   * Takes the session-level advisory lock `name` without holding a transaction open, for work
   * that waits on the network; resolves to its release function, or null when someone holds it.
   */
  tryLock(name: string): Promise<(() => Promise<void>) | null>
  /**
   * Runs SQL text as a library that brings its own SQL needs it (the job queue): with `values`, one
   * parameterised statement; without, any number of statements (a transaction included), answering
   * the rows of all of them in order.
   */
  unsafe(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>
  /** Who holds connections and which statements wait: the re-entrancy guard and the stall watchdog. */
  watch: ConnectionWatch
  /** PGlite only: the data directory as a gzipped tarball, loadable with `loadDataDir`. */
  dump?: () => Promise<Blob>
  /** PGlite on disk: its data directory (backups copy it while `exclusive` holds every statement off). */
  directory?: string
  /** PGlite only: runs `work` while no statement runs, so its files are what a crash at that instant would leave. */
  exclusive?: <T>(work: () => Promise<T>) => Promise<T>
  /** PGlite only: starts the embedded database's autovacuum (pglite-maintenance.ts); answers its stop. */
  maintain?: (log: Logger) => () => Promise<void>
  close(): Promise<void>
}

export const MIGRATIONS_DIR = resolve(import.meta.dir, '../../../drizzle')
const MIGRATION_LOCK = 0x65636f62 // 'ecob': one migrator at a time across replicas

/**
 * Opens PGlite in memory or in `dataDir`. `loadDataDir` fills a memory database, or a data
 * directory that does not exist yet (a seed: much faster than initdb); an existing one is opened.
 */
export async function openPglite(
  options: { dataDir?: string; loadDataDir?: Blob; sharedBuffers?: string; watch?: WatchOptions; initdb?: string[] } = {},
): Promise<Database> {
  let load = options.loadDataDir
  if (options.dataDir) {
    mkdirSync(dirname(resolve(options.dataDir)), { recursive: true })
    if (existsSync(join(options.dataDir, 'PG_VERSION'))) load = undefined
  }
  const client = await PGlite.create(options.dataDir, {
    extensions: { vector },
    pgliteWasmModule: await pgliteModule(),
    postgresqlconf: [`shared_buffers=${options.sharedBuffers ?? DEFAULT_SHARED_BUFFERS}`, PLAN_CACHE_MODE],
    ...(load ? { loadDataDir: load } : {}),
    ...(options.initdb ? { initDbStartParams: options.initdb } : {}),
  })
  keepStatementsPrepared(client)
  const watch = new ConnectionWatch(options.watch)
  watchPglite(client as never, watch)
  const view = drizzleView(client)
  const db = trackCommits(drizzlePglite({ client: view.client }) as unknown as Db)
  // A PGlite data directory belongs to one process, so its locks need not leave the process.
  const held = new Set<string>()
  return {
    db,
    kind: 'pglite',
    vector: true,
    dedicated: async () => ({ db, release: () => {} }),
    listen: (channel, fn) => client.listen(channel, fn).then((off) => () => off()),
    tryLock: async (name) => {
      if (held.has(name)) return null
      held.add(name)
      return async () => void held.delete(name)
    },
    unsafe: async (text, values) => {
      // With PGlite's own parsers (Date objects), as the job queue's driver would answer.
      const parsers = view.defaults
      if (values?.length) return { rows: (await client.query(text, values, { parsers })).rows }
      const results = await client.exec(text, { parsers })
      return { rows: results.flatMap((r) => r.rows ?? []) }
    },
    watch,
    // The dump holds the connection until the whole directory is packed: the watchdog names it.
    dump: () => watch.hold(originHere('database dump'), async () => (await client.dumpDataDir('gzip')) as Blob),
    directory: options.dataDir ? resolve(options.dataDir) : undefined,
    // A backup's second copy pass holds statements off: the watchdog names it too.
    exclusive: (work) => watch.hold(originHere('backup copy'), () => client._runExclusiveQuery(work)),
    maintain: (log) =>
      maintainEvery({ query: async (text) => (await client.query<Record<string, unknown>>(text)).rows, exec: (text) => client.exec(text) }, log),
    close: async () => {
      watch.close()
      await client.close()
    },
  }
}

export async function openPostgres(url: string, options: { max?: number; watch?: WatchOptions } = {}): Promise<Database> {
  const client = postgres(url, { max: options.max ?? 10, onnotice: () => {}, connect_timeout: 10 })
  await client`select 1`
  const watch = new ConnectionWatch(options.watch)
  watchPostgres(client as never, watch)
  const db = trackCommits(drizzlePostgres(client) as unknown as Db)
  const [probe] = await client`select 1 as ok from pg_available_extensions where name = 'vector'`
  return {
    db,
    kind: 'postgres',
    vector: Boolean(probe),
    dedicated: async () => {
      const conn = await client.reserve()
      // A reserved connection lacks the options Drizzle reads (its type parsers): they are the pool's.
      Object.assign(conn, { options: client.options })
      return { db: trackCommits(drizzlePostgres(conn) as unknown as Db), release: () => conn.release() }
    },
    listen: async (channel, fn) => {
      const sub = await client.listen(channel, fn)
      return () => sub.unlisten()
    },
    tryLock: async (name) => {
      // A session lock lives on one connection: keep that connection out of the pool until release.
      const conn = await client.reserve()
      try {
        const [row] = await conn`select pg_try_advisory_lock(hashtext(${name})) as locked`
        if (!row?.locked) {
          conn.release()
          return null
        }
      } catch (err) {
        conn.release()
        throw err
      }
      return async () => {
        try {
          await conn`select pg_advisory_unlock(hashtext(${name}))`
        } finally {
          conn.release()
        }
      }
    },
    unsafe: async (text, values) => {
      if (values?.length) return { rows: [...(await client.unsafe(text, values.map(asText) as never[]))] }
      // Several statements may hold BEGIN/COMMIT: postgres.js runs those on one reserved connection only.
      const conn = await client.reserve()
      try {
        const result = await conn.unsafe(text)
        return { rows: Array.isArray(result[0]) ? (result as unknown as unknown[][]).flat() : [...result] }
      } catch (err) {
        // A statement that failed after the text's BEGIN leaves the connection in an aborted
        // transaction: rolled back here, or the next borrower of the connection gets 25P02.
        await conn.unsafe('rollback').catch(() => {})
        throw err
      } finally {
        conn.release()
      }
    },
    watch,
    close: async () => {
      watch.close()
      await client.end({ timeout: 5 })
    },
  }
}

/** Applies drizzle/ migrations (and pgvector where available), serialised across replicas. */
export async function migrate(database: Database, url?: string): Promise<void> {
  // Nearly every start: drizzle's migrator would read and hash every migration file and run six
  // statements (with the extension's) to find nothing to apply; one read tells the same.
  if (await migrationsUpToDate(database.db)) return
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

/** Drizzle's journal of the migrations this Ecobase knows; `when` is what its table records as `created_at`. */
function journal(): { when: number }[] {
  return (JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] }).entries
}

/** Migrations this Ecobase knows (drizzle's journal). */
export function knownMigrations(): number {
  return journal().length
}

/**
 * The database has the newest migration this Ecobase knows, or a later one (a newer replica's):
 * drizzle's migrator, which applies what is newer than the last row of its table, would apply nothing.
 */
export async function migrationsUpToDate(db: Db): Promise<boolean> {
  const newest = Math.max(...journal().map((entry) => entry.when))
  try {
    const [row] = await queryRows<{ applied: string | null }>(db, sql`select max(created_at)::text as applied from drizzle.__drizzle_migrations`)
    return row?.applied != null && Number(row.applied) >= newest
  } catch (err) {
    // A database never migrated: no such schema or table.
    if (sqlState(err) === '3F000' || sqlState(err) === '42P01') return false
    throw err
  }
}

/** Migrations applied to `db` (drizzle's table). */
export async function appliedMigrations(db: Db): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`)
  return row!.n
}

export function pgliteDir(dataDir: string): string {
  return join(dataDir, 'pglite')
}

/**
 * A value written into the statement instead of sent as a parameter, for a condition a partial
 * index's predicate names (`status = 'ready'`, `not is_read`). A statement kept prepared is planned
 * once for all parameters after five runs (postgres.js keeps them on PostgreSQL, pglite-statements.ts
 * on PGlite), and that generic plan cannot tell that `status = $3` means `status = 'ready'`, so it
 * leaves the partial index out: the presign's duplicate check read every file of the customer
 * (bench/README.md, P19, session 59). Constants of the code only, never input.
 */
export function constant(value: string | boolean): SQL {
  return sql.raw(typeof value === 'boolean' ? String(value) : `'${value.replaceAll("'", "''")}'`)
}

/** SQLSTATE of a failed query, looking through Drizzle's wrapper. */
export function sqlState(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } }
  const code = typeof e?.code === 'string' ? e.code : e?.cause?.code
  return typeof code === 'string' ? code : undefined
}

export const isUniqueViolation = (err: unknown) => sqlState(err) === '23505'

/**
 * A parameter for postgres.js's `unsafe`, which infers no types: a Date goes as its ISO text and
 * an object as its JSON text (for json/jsonb parameters); PostgreSQL casts both.
 */
function asText(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString()
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : value
}

/** Rows of a raw `db.execute` (postgres.js answers an array, PGlite an object with `rows`). */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[]
}
