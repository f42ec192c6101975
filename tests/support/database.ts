import postgres from 'postgres'
import { prepareDatabase } from '../../src/boot'
import { loadConfig } from '../../src/config'
import { openPglite, openPostgres, type Database } from '../../src/platform/db'

/**
 * Fresh databases for tests. PGlite: migrated once, dumped, and every test app loads the dump
 * (~0.4 s instead of initdb). PostgreSQL (TEST_DATABASE_URL): migrated once into a template
 * database of this run; each app gets `CREATE DATABASE … TEMPLATE` and drops it on close.
 */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || null

let snapshot: Promise<Blob> | undefined
let template: Promise<string> | undefined
/** Every test database runs with the re-entrancy guard on (platform/db/watch.ts): a pool statement inside a transaction throws. */
export const watch = { guard: true }
const runId = `${process.pid}_${Date.now().toString(36)}`
let counter = 0

function withDatabase(url: string, name: string): string {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

async function admin<T>(fn: (sql: postgres.Sql) => Promise<T>): Promise<T> {
  const sql = postgres(testDatabaseUrl!, { max: 1, onnotice: () => {} })
  try {
    return await fn(sql)
  } finally {
    await sql.end({ timeout: 5 })
  }
}

function templateName(): Promise<string> {
  template ??= (async () => {
    const name = `ecobase_tpl_${runId}`
    await admin((sql) => sql.unsafe(`create database "${name}"`))
    const url = withDatabase(testDatabaseUrl!, name)
    const database = await openPostgres(url, { max: 1, watch })
    await prepareDatabase(database, loadConfig({}), url)
    await database.close()
    return name
  })()
  return template
}

export interface TestDatabase {
  database: Database
  url: string | null
  drop(): Promise<void>
}

function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= (async () => {
    const seed = await openPglite({ watch })
    await prepareDatabase(seed, loadConfig({}))
    const blob = await seed.dump!()
    await seed.close()
    return blob
  })()
  return snapshot
}

/** Builds the migrated snapshot or template once, before any test's hooks start their clocks. */
export async function warmUp(): Promise<void> {
  if (testDatabaseUrl) await templateName()
  else await pgliteSnapshot()
}

export async function freshDatabase(): Promise<TestDatabase> {
  if (!testDatabaseUrl) {
    const database = await openPglite({ loadDataDir: await pgliteSnapshot(), watch })
    return { database, url: null, drop: () => database.close() }
  }
  const tpl = await templateName()
  const name = `ecobase_t_${runId}_${++counter}`
  await admin((sql) => sql.unsafe(`create database "${name}" template "${tpl}"`))
  const url = withDatabase(testDatabaseUrl, name)
  const database = await openPostgres(url, { max: 10, watch })
  return {
    database,
    url,
    drop: async () => {
      await database.close()
      await admin((sql) => sql.unsafe(`drop database if exists "${name}" with (force)`))
    },
  }
}

export async function dropTemplate(): Promise<void> {
  if (!template) return
  const name = await template
  await admin((sql) => sql.unsafe(`drop database if exists "${name}" with (force)`))
}

/** A new, empty PostgreSQL database (no migrations): what a PostgreSQL backup is restored into. */
export async function emptyDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `ecobase_e_${runId}_${++counter}`
  await admin((sql) => sql.unsafe(`create database "${name}"`))
  return { url: withDatabase(testDatabaseUrl!, name), drop: () => admin((sql) => sql.unsafe(`drop database if exists "${name}" with (force)`)).then(() => {}) }
}
