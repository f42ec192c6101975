import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { type Database, openPglite } from '../../src/platform/db'
import { DUE, dueUpkeep, type MaintenanceClient, maintainEvery, maintainOnce, type TableStats } from '../../src/platform/db/pglite-maintenance'
import { createLogger } from '../../src/platform/logger'
import { cleanUp, freePort, start, tempDir, untilHealthy } from '../support/server-process'

const table = (over: Partial<TableStats>): TableStats => ({
  schema: 'app',
  name: 'notes',
  tuples: 0,
  dead: 0,
  insertedSinceVacuum: 0,
  modifiedSinceAnalyze: 0,
  xidAge: 0,
  ...over,
})

describe('what is due, as PostgreSQL’s autovacuum decides it', () => {
  test('VACUUM past 50 dead rows and a fifth of the table, 1,000 inserts and a fifth, or 200 million transactions of age', () => {
    expect(dueUpkeep([table({ tuples: 1000, dead: 250 })])).toEqual([])
    expect(dueUpkeep([table({ tuples: 1000, dead: 251 })])).toEqual([{ table: '"app"."notes"', vacuum: true, analyze: false }])
    expect(dueUpkeep([table({ tuples: 0, dead: 51 })])).toHaveLength(1)
    expect(dueUpkeep([table({ tuples: 1000, insertedSinceVacuum: 1200 })])).toEqual([])
    expect(dueUpkeep([table({ tuples: 1000, insertedSinceVacuum: 1201 })])[0]?.vacuum).toBe(true)
    expect(dueUpkeep([table({ xidAge: DUE.freezeMaxAge + 1 })])[0]?.vacuum).toBe(true)
  })

  test('ANALYZE past 50 changed rows and a tenth of the table, of any table but pg_statistic; names are quoted', () => {
    expect(dueUpkeep([table({ tuples: 1000, modifiedSinceAnalyze: 150 })])).toEqual([])
    expect(dueUpkeep([table({ tuples: 1000, modifiedSinceAnalyze: 151 })])).toEqual([{ table: '"app"."notes"', vacuum: false, analyze: true }])
    expect(dueUpkeep([table({ schema: 'pg_catalog', name: 'pg_statistic', modifiedSinceAnalyze: 500, dead: 500 })])).toEqual([
      { table: '"pg_catalog"."pg_statistic"', vacuum: true, analyze: false },
    ])
    expect(dueUpkeep([table({ schema: 'pg_catalog', name: 'pg_class', modifiedSinceAnalyze: 500 })])[0]?.analyze).toBe(true)
    expect(dueUpkeep([table({ name: 'odd"name', dead: 51 })])[0]?.table).toBe('"app"."odd""name"')
  })
})

describe('a pass over the embedded database', () => {
  let database: Database
  let run: MaintenanceClient['query']
  let client: MaintenanceClient
  beforeAll(async () => {
    database = await openPglite()
    run = async (text) => (await database.unsafe(text)).rows as Record<string, unknown>[]
    client = { query: run, exec: run }
  })
  afterAll(() => database.close())

  const stats = async () =>
    (
      await run(`select n_dead_tup::int as dead, n_mod_since_analyze::int as modified, last_vacuum is not null as vacuumed,
      last_analyze is not null as analyzed from pg_stat_all_tables where relname = 'upkeep'`)
    )[0]

  test('vacuums and analyzes the table that needs it, and then leaves it alone', async () => {
    await run(`create table upkeep (id int primary key, v text); insert into upkeep select n, 'x' from generate_series(1, 2000) n`)
    await run(`update upkeep set v = 'y' where id <= 1000`)
    const done = await maintainOnce(client)
    expect(done).toContainEqual({ table: '"public"."upkeep"', vacuum: true, analyze: true })
    expect(await stats()).toEqual({ dead: 0, modified: 0, vacuumed: true, analyzed: true })
    const [{ tuples } = {}] = await run(`select reltuples::int as tuples from pg_class where relname = 'upkeep'`)
    expect(tuples).toBe(2000)
    expect((await maintainOnce(client)).map((u) => u.table)).not.toContain('"public"."upkeep"')
  })

  test('a pass told to stop stops between tables: what it did not reach is still due', async () => {
    await run(`create table halt_a (id int); create table halt_b (id int);
      insert into halt_a select generate_series(1, 100); insert into halt_b select generate_series(1, 100)`)
    let commands = 0
    const counting: MaintenanceClient = {
      query: run,
      exec: (text) => {
        commands++
        return run(text)
      },
    }
    const done = await maintainOnce(counting, () => commands > 0)
    expect(commands).toBe(1)
    expect(done).toHaveLength(1)
    const left = (await maintainOnce(client)).map((u) => u.table)
    expect(left.filter((t) => t.includes('halt_'))).toHaveLength(1)
    expect(left).not.toContain(done[0]!.table)
  })

  test('a plan kept for any parameters, made over an empty table, is made again once the table grew and a pass analyzed it', async () => {
    await run(`create table files (id serial primary key, owner int not null, hash text not null, created_at timestamptz default now());
      create index files_owner_created on files (owner, created_at); create index files_hash on files (hash); set plan_cache_mode = auto`)
    const lookup = (owner: number) =>
      database.db.execute(sql`select id from files where owner = ${owner} and hash = ${`h${owner}`} order by created_at limit 1`)
    const plan = async () => {
      for (let i = 0; i < 6; i++) await lookup(i)
      const [kept] = await run(`select name, generic_plans from pg_prepared_statements where statement like 'select id from files%'`)
      expect(kept!.generic_plans).toBeGreaterThan(0)
      return (await run(`explain execute ${kept!.name}(1, 'h1')`)).map((r) => r['QUERY PLAN']).join('\n')
    }
    // Over no rows both indexes look as cheap: it ANDs them.
    expect(await plan()).toContain('BitmapAnd')
    await run(`insert into files (owner, hash) select n % 10, md5(n::text) from generate_series(1, 20000) n`)
    expect(await plan()).toContain('BitmapAnd')
    expect(await maintainOnce(client)).toContainEqual({ table: '"public"."files"', vacuum: true, analyze: true })
    // Ten owners, each hash once: the hash index alone.
    const after = await plan()
    expect(after).toContain('Index Scan using files_hash')
    expect(after).not.toContain('BitmapAnd')
    await run('set plan_cache_mode = force_custom_plan')
  })

  test('the server’s passes: the first at once and logged, the templates dropped, then generic plans for kept statements', async () => {
    expect((await run('show plan_cache_mode'))[0]).toEqual({ plan_cache_mode: 'force_custom_plan' })
    const databases = async () => (await run('select datname from pg_database order by datname')).map((r) => r.datname)
    // initdb made this one: a template would hold back PostgreSQL's wraparound limit, frozen by no pass.
    expect(await databases()).toEqual(['postgres', 'template0', 'template1'])
    const lines: string[] = []
    const log = createLogger('info', (line) => lines.push(line))
    await run(`delete from upkeep where id > 1500`)
    const stop = database.maintain!(log)
    const logged = async () => lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'database maintenance')
    for (let waited = 0; !(await logged()) && waited < 5000; waited += 20) await Bun.sleep(20)
    await stop()
    expect((await run('show plan_cache_mode'))[0]).toEqual({ plan_cache_mode: 'auto' })
    expect(await stats()).toMatchObject({ dead: 0, modified: 0 })
    const line = await logged()
    expect(line.level).toBe('info')
    expect(line.vacuumed).toBeGreaterThanOrEqual(1)
    expect(line.analyzed).toBeGreaterThanOrEqual(1)
    expect(await databases()).toEqual(['postgres'])
    expect(lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'database templates dropped')?.databases).toEqual(['template0', 'template1'])
  })

  test('a first pass that fails leaves generic plans off; the next one that succeeds turns them on', async () => {
    await run('set plan_cache_mode = force_custom_plan')
    const lines: string[] = []
    const log = createLogger('debug', (line) => lines.push(line))
    let failures = 1
    const failingOnce: MaintenanceClient = {
      query: (text) => (failures-- > 0 ? Promise.reject(new Error('statistics unreadable')) : run(text)),
      exec: run,
    }
    const stop = maintainEvery(failingOnce, log, 20)
    const messages = () => lines.map((l) => JSON.parse(l).msg).filter((m) => m.startsWith('database maintenance'))
    for (let waited = 0; !messages().includes('database maintenance') && waited < 5000; waited += 10) await Bun.sleep(10)
    await stop()
    expect(messages().slice(0, 2)).toEqual(['database maintenance failed', 'database maintenance'])
    expect((await run('show plan_cache_mode'))[0]).toEqual({ plan_cache_mode: 'auto' })
  })
})

test('the embedded server runs its passes from the start', async () => {
  const port = freePort()
  const proc = start({ DATA_DIR: tempDir(), PORT: String(port), LOG_LEVEL: 'debug' })
  try {
    await untilHealthy(port, proc)
    let text = ''
    void (async () => {
      const decoder = new TextDecoder()
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) text += decoder.decode(chunk, { stream: true })
    })()
    for (let waited = 0; !text.includes('"msg":"database maintenance"') && waited < 15_000; waited += 50) await Bun.sleep(50)
    const line = text.split('\n').find((l) => l.includes('"msg":"database maintenance"'))
    expect(line).toBeDefined()
    const { vacuumed, analyzed } = JSON.parse(line!)
    expect([typeof vacuumed, typeof analyzed]).toEqual(['number', 'number'])
  } finally {
    proc.kill()
    await proc.exited
    await cleanUp()
  }
}, 60_000)
