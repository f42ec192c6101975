import { expect, test } from 'bun:test'
import { getTableColumns, sql } from 'drizzle-orm'
import { bigserial, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { queryRows } from '../../src/platform/db'
import { rowFromJson } from '../../src/platform/db/json-rows'
import { freshDatabase } from '../support/database'

// A database function answers rows as JSON (chat.take_turn); rowFromJson must give the fields,
// types and values Drizzle gives for the same rows.

const things = pgTable('json_rows_things', {
  id: uuid('id').primaryKey().defaultRandom(),
  seq: bigserial('seq', { mode: 'number' }),
  label: text('label').notNull(),
  note: text('note'),
  seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull(),
})
const columns = getTableColumns(things)

test('a row read as to_jsonb maps to what Drizzle selects, in any session time zone', async () => {
  const database = await freshDatabase()
  try {
    const { db } = database.database
    await db.execute(
      sql`create table json_rows_things (id uuid primary key default gen_random_uuid(), seq bigserial, label text not null, note text, seen_at timestamptz not null)`,
    )
    await db.insert(things).values([
      { label: 'exact', seenAt: new Date('2026-11-30T12:57:20.386Z') },
      { label: 'microseconds', note: 'a note', seenAt: sql`clock_timestamp()` },
    ])
    await db.transaction(async (tx) => {
      await tx.execute(sql`set local time zone 'Asia/Kolkata'`)
      const selected = await tx.select().from(things).orderBy(things.seq)
      const json = await queryRows<{ row: Record<string, unknown> }>(tx, sql`select to_jsonb(t) as row from json_rows_things t order by seq`)
      const mapped = json.map((r) => rowFromJson<typeof things.$inferSelect>(columns, r.row))
      expect(mapped).toEqual(selected)
      expect(mapped[0]!.seenAt.toISOString()).toBe('2026-11-30T12:57:20.386Z')
      expect(mapped[1]!.seq).toBe(mapped[0]!.seq + 1)
    })
  } finally {
    await database.drop()
  }
})

test('a column missing from the row is an error, not a field left undefined', () => {
  expect(() => rowFromJson(columns, { id: crypto.randomUUID(), seq: 1, label: 'a', note: null })).toThrow('The row has no column "seen_at"')
})
