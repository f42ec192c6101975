import { sql } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'

/** The UTC day of a time column, as `YYYY-MM-DD`: what per-day counts group by. */
export const dayOf = (column: PgColumn) => sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`
