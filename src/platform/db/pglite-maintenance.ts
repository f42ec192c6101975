/**
 * The embedded database's autovacuum. PostgreSQL's own runs in worker processes that PGlite does
 * not have, so without this an embedded instance never removed dead rows (every rotated refresh
 * token, every finished job), never froze old transaction ids, and never refreshed the statistics
 * the planner reads: a plan made while a table was nearly empty stayed as it filled.
 *
 * Every INTERVAL_MS a pass reads the tables' statistics and runs VACUUM and ANALYZE where
 * PostgreSQL's autovacuum would, with its default thresholds (DUE below), one table per statement,
 * so requests run between them. With the statistics kept, the server lets PostgreSQL choose
 * generic plans for kept statements again (`plan_cache_mode = auto`, see pglite-statements.ts):
 * an ANALYZE invalidates the plans it makes stale.
 */

import type { Logger } from '../logger'

const INTERVAL_MS = 30_000
/** autovacuum_*_threshold and *_scale_factor, autovacuum_freeze_max_age: PostgreSQL's defaults. */
export const DUE = {
  vacuum: { threshold: 50, scale: 0.2 },
  vacuumInserts: { threshold: 1000, scale: 0.2 },
  analyze: { threshold: 50, scale: 0.1 },
  freezeMaxAge: 200_000_000,
}

export interface TableStats {
  schema: string
  name: string
  /** pg_class.reltuples, 0 while never counted. */
  tuples: number
  dead: number
  insertedSinceVacuum: number
  modifiedSinceAnalyze: number
  xidAge: number
}

export interface Upkeep {
  table: string
  vacuum: boolean
  analyze: boolean
}

/** What autovacuum would do to these tables now; pg_statistic is never analyzed, as there. */
export function dueUpkeep(tables: TableStats[]): Upkeep[] {
  return tables.flatMap((t) => {
    const vacuum =
      t.dead > DUE.vacuum.threshold + DUE.vacuum.scale * t.tuples ||
      t.insertedSinceVacuum > DUE.vacuumInserts.threshold + DUE.vacuumInserts.scale * t.tuples ||
      t.xidAge > DUE.freezeMaxAge
    const analyze = !(t.schema === 'pg_catalog' && t.name === 'pg_statistic') && t.modifiedSinceAnalyze > DUE.analyze.threshold + DUE.analyze.scale * t.tuples
    return vacuum || analyze ? [{ table: `${quote(t.schema)}.${quote(t.name)}`, vacuum, analyze }] : []
  })
}

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

/** Tables with anything near a threshold (each is above 50), read from the statistics functions directly: the view costs more than the pass. */
const STATS = `select n.nspname as schema, c.relname as name, greatest(c.reltuples, 0)::float8 as tuples,
  pg_stat_get_dead_tuples(c.oid)::float8 as dead, pg_stat_get_ins_since_vacuum(c.oid)::float8 as "insertedSinceVacuum",
  pg_stat_get_mod_since_analyze(c.oid)::float8 as "modifiedSinceAnalyze", age(c.relfrozenxid)::float8 as "xidAge"
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'm') and n.nspname not in ('pg_toast', 'information_schema')
  and (greatest(pg_stat_get_dead_tuples(c.oid), pg_stat_get_ins_since_vacuum(c.oid), pg_stat_get_mod_since_analyze(c.oid)) > ${DUE.vacuum.threshold}
    or age(c.relfrozenxid) > ${DUE.freezeMaxAge})`

/** The embedded database as a pass uses it. */
export interface MaintenanceClient {
  /** A query (kept prepared by the embedded client): its rows. */
  query(text: string): Promise<Record<string, unknown>[]>
  /** A command outside any transaction: VACUUM, ANALYZE, SET. */
  exec(text: string): Promise<unknown>
}

/**
 * One pass: the statistics this session has counted are flushed first (PostgreSQL flushes them at
 * most once a second otherwise, and PGlite's single session may not have), then every table due
 * gets its VACUUM or ANALYZE, until `stopped`. Answers what was done.
 */
export async function maintainOnce(client: MaintenanceClient, stopped = () => false): Promise<Upkeep[]> {
  await client.query('select pg_stat_force_next_flush()')
  const due = dueUpkeep((await client.query(STATS)) as unknown as TableStats[])
  const done: Upkeep[] = []
  for (const u of due) {
    if (stopped()) break
    await client.exec(u.vacuum ? `vacuum${u.analyze ? ' (analyze)' : ''} ${u.table}` : `analyze ${u.table}`)
    done.push(u)
  }
  return done
}

/**
 * Drops the template databases (template0, template1) and answers their names. A VACUUM freezes
 * the database it runs in only, and PGlite's one session is in `postgres`: a template's
 * `datfrozenxid` would age with every transaction until PostgreSQL refuses to assign more (about
 * two billion), as if nothing had ever been frozen. Nothing in the embedded server creates
 * databases, so they have no use here.
 */
export async function dropTemplates(client: MaintenanceClient): Promise<string[]> {
  const templates = (await client.query(`select datname from pg_database where datname in ('template0', 'template1') order by datname`)).map((r) =>
    String(r.datname),
  )
  for (const name of templates) {
    await client.exec(`alter database ${quote(name)} is_template false`)
    await client.exec(`drop database ${quote(name)}`)
  }
  return templates
}

/**
 * Runs a first pass at once, then a pass every `every` ms (a tick while one runs is skipped; the
 * timer does not keep the process alive). Until a pass succeeds, each first drops the template
 * databases a data directory still has (one made before the seed lost them, or by initdb). After
 * the first pass that succeeds, PostgreSQL may choose generic plans for kept statements: only then
 * are the statistics they are made from current. Each pass is logged (at debug when it did
 * nothing), and failures. Answers its stop, which waits for a pass under way.
 */
export function maintainEvery(client: MaintenanceClient, log: Logger, every = INTERVAL_MS): () => Promise<void> {
  let running: Promise<void> | null = null
  let stopped = false
  let settled = false
  const pass = () => {
    running = (async () => {
      const from = performance.now()
      try {
        if (!settled) {
          const dropped = await dropTemplates(client)
          if (dropped.length) log.info('database templates dropped', { databases: dropped })
        }
        const done = await maintainOnce(client, () => stopped)
        if (!settled) {
          await client.exec('set plan_cache_mode = auto')
          settled = true
        }
        const count = (what: 'vacuum' | 'analyze') => done.filter((u) => u[what]).length
        // A pass with nothing to do, most of them, is only worth a debug line.
        ;(done.length ? log.info : log.debug)('database maintenance', {
          vacuumed: count('vacuum'),
          analyzed: count('analyze'),
          ms: Math.round(performance.now() - from),
        })
      } catch (err) {
        if (!stopped) log.warn('database maintenance failed', { error: String((err as Error)?.message ?? err) })
      } finally {
        running = null
      }
    })()
  }
  pass()
  const timer = setInterval(() => running ?? pass(), every)
  timer.unref()
  return async () => {
    stopped = true
    clearInterval(timer)
    await running
  }
}
