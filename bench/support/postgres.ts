/** Throwaway PostgreSQL databases on the loopback server. */
import postgres from 'postgres'
import { onCleanup } from './cleanup'
import { LOOPBACK } from './utils'

/** The server that holds throwaway databases: BENCH_PG_URL, else the tests' TEST_DATABASE_URL, else the loopback default. */
export const PG_ADMIN_URL = process.env.BENCH_PG_URL || process.env.TEST_DATABASE_URL || `postgres://postgres@${LOOPBACK}:5432/postgres`

export interface TempDatabase {
  name: string
  url: string
  drop(): Promise<void>
}

/** Whether PostgreSQL answers at PG_ADMIN_URL (false instead of throwing). */
export async function postgresAvailable(): Promise<boolean> {
  const sql = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 3, onnotice: () => {} })
  try {
    await sql`select 1`
    return true
  } catch {
    return false
  } finally {
    await sql.end({ timeout: 2 })
  }
}

/** Creates `ecobase_bench_<pid>_<n>` on the admin server; `drop()` (or cleanup()) removes it. */
let tempDbCount = 0
export async function createTempDatabase(): Promise<TempDatabase> {
  const name = `ecobase_bench_${process.pid}_${++tempDbCount}`
  const admin = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => {} })
  try {
    await admin.unsafe(`drop database if exists ${name} with (force)`)
    await admin.unsafe(`create database ${name}`)
  } finally {
    await admin.end({ timeout: 5 })
  }
  const url = new URL(PG_ADMIN_URL)
  url.pathname = `/${name}`
  const drop = onCleanup(async () => {
    const sql = postgres(PG_ADMIN_URL, { max: 1, connect_timeout: 5, onnotice: () => {} })
    try {
      await sql.unsafe(`drop database if exists ${name} with (force)`)
    } finally {
      await sql.end({ timeout: 5 })
    }
  })
  return { name, url: url.toString(), drop }
}
