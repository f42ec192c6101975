import { afterAll, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { migrate, migrationsUpToDate, openPglite, queryRows } from '../../src/platform/db'
import { freshDatabase, type TestDatabase } from '../support/database'

// A start on a migrated database reads one row instead of running drizzle's migrator
// (migrationsUpToDate): it must still migrate a database that lacks a migration.

let database: TestDatabase | undefined
afterAll(async () => {
  await database?.drop()
})

test("a database with the journal's newest migration is up to date; without that row it is not, and with a newer replica's it is", async () => {
  database = await freshDatabase()
  const { db } = database.database
  expect(await migrationsUpToDate(db)).toBe(true)
  const [newest] = await queryRows<{ id: number; hash: string; created_at: string }>(
    db,
    sql`select id, hash, created_at::text from drizzle.__drizzle_migrations order by created_at desc limit 1`,
  )
  await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${newest!.id}`)
  expect(await migrationsUpToDate(db)).toBe(false)
  await db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', ${Number(newest!.created_at) + 1000})`)
  expect(await migrationsUpToDate(db)).toBe(true)
})

test('a database never migrated is not up to date, and migrate() builds it', async () => {
  const empty = await openPglite()
  try {
    expect(await migrationsUpToDate(empty.db)).toBe(false)
    await migrate(empty)
    expect(await migrationsUpToDate(empty.db)).toBe(true)
    expect(await queryRows(empty.db, sql`select 1 from auth.users limit 1`)).toEqual([])
  } finally {
    await empty.close()
  }
}, 60_000)
