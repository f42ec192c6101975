import { afterAll, expect, test } from 'bun:test'
import { PGlite, type QueryOptions, type Transaction } from '@electric-sql/pglite'
import { sql } from 'drizzle-orm'
import { date, interval, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core'
import { openPglite, queryRows } from '../../src/platform/db'
import { drizzleView } from '../../src/platform/db/pglite-parsers'

// PGlite copied its whole map of type parsers (318 types) on every query that brought parsers of
// its own, as Drizzle's do: that copy cost more than the query. Drizzle's parsers are now the
// instance's, and the client Drizzle sees leaves them out. What a caller reads must not change.

const database = await openPglite()
afterAll(() => database.close())

const stamps = pgTable('stamps', {
  id: uuid().primaryKey().defaultRandom(),
  at: timestamp({ withTimezone: true, mode: 'date' }).notNull(),
  atText: timestamp('at_text', { withTimezone: true, mode: 'string' }).notNull(),
  day: date().notNull(),
  span: interval().notNull(),
})

test('Drizzle reads dates, date strings and intervals as it did', async () => {
  await database.db.execute(
    sql`create table stamps (id uuid primary key default gen_random_uuid(), at timestamptz not null, at_text timestamptz not null, day date not null, span interval not null)`,
  )
  const at = new Date('2026-03-04T05:06:07.089Z')
  await database.db.insert(stamps).values({ at, atText: '2026-03-04 05:06:07.089+00', day: '2026-03-04', span: '2 days' })
  const [row] = await database.db.select().from(stamps)
  expect(row!.at).toBeInstanceOf(Date)
  expect(row!.at.toISOString()).toBe(at.toISOString())
  expect(row!.atText).toBe('2026-03-04 05:06:07.089+00')
  expect(row!.day).toBe('2026-03-04')
  expect(row!.span).toBe('2 days')
  // In a transaction too (PGlite hands Drizzle a transaction object of its own).
  const inside = await database.db.transaction((tx) => tx.select().from(stamps))
  expect(inside[0]!.at.toISOString()).toBe(at.toISOString())
  expect(inside[0]!.day).toBe('2026-03-04')
  // Raw SQL through Drizzle answers PostgreSQL's text for these types, as before.
  const [raw] = await queryRows<{ at: unknown; day: unknown }>(database.db, sql`select at, day from stamps`)
  expect(typeof raw!.at).toBe('string')
  expect(raw!.day).toBe('2026-03-04')
})

test('SQL a library brings (the job queue) still gets Date objects, one statement or several', async () => {
  const one = await database.unsafe('select $1::timestamptz as at', ['2026-03-04T05:06:07Z'])
  expect((one.rows[0] as { at: unknown }).at).toEqual(new Date('2026-03-04T05:06:07Z'))
  const several = await database.unsafe(`select '2026-03-04T05:06:07Z'::timestamptz as at; select '2026-03-05'::date as day;`)
  expect((several.rows[0] as { at: unknown }).at).toEqual(new Date('2026-03-04T05:06:07Z'))
  expect((several.rows[1] as { day: unknown }).day).toBeInstanceOf(Date)
})

test("Drizzle's queries reach PGlite without parsers of their own, in and out of a transaction", async () => {
  const client = await PGlite.create()
  try {
    const seen: unknown[] = []
    const query = client.query.bind(client)
    client.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
      seen.push(options?.parsers)
      return query(text, params, options)
    }) as typeof client.query
    const transaction = client.transaction.bind(client)
    client.transaction = ((fn: (tx: Transaction) => Promise<unknown>) =>
      transaction((tx) => {
        const inner = tx.query.bind(tx)
        tx.query = ((text: string, params?: unknown[], options?: QueryOptions) => {
          seen.push(options?.parsers)
          return inner(text, params, options)
        }) as typeof tx.query
        return fn(tx)
      })) as typeof client.transaction
    const view = drizzleView(client)
    const answer = await view.client.query<{ at: unknown }>("select '2026-03-04T05:06:07Z'::timestamptz as at", [], {
      parsers: { 1184: (value: string) => value },
    })
    expect(seen).toEqual([undefined])
    expect(answer.rows[0]!.at).toBe('2026-03-04 05:06:07+00')
    await view.client.transaction(async (tx) => {
      const inside = await tx.query<{ at: unknown }>("select '2026-03-04T05:06:07Z'::timestamptz as at", [], { parsers: { 1184: (value: string) => value } })
      expect(inside.rows[0]!.at).toBe('2026-03-04 05:06:07+00')
      expect(tx.closed).toBe(false)
    })
    expect(seen).toEqual([undefined, undefined])
    expect(view.defaults[1184]!('2026-03-04 05:06:07+00')).toEqual(new Date('2026-03-04T05:06:07Z'))
  } finally {
    await client.close()
  }
})
