import { count, type SQL, sql } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './index'

/** The UTC day of a time column, as `YYYY-MM-DD`: what per-day counts group by. */
export const dayOf = (column: PgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`

/** Rows of `table` that `where` picks, counted per UTC day of `at` (days without rows are absent). */
export function countPerDay(db: Db, table: PgTable, at: PgColumn, where: SQL | undefined) {
  return db
    .select({ day: dayOf(at), n: count() })
    .from(table)
    .where(where)
    .groupBy(dayOf(at))
}
