import { pgSchema, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import type { SearchLanguage } from '../../platform/fulltext'
import { ecosystems } from '../registry/schema'

export const searchSchema = pgSchema('search')

/** An ecosystem's search defaults; no row = the documented defaults. */
export const searchSettings = searchSchema.table('settings', {
  ecosystemId: uuid('ecosystem_id')
    .primaryKey()
    .references(() => ecosystems.id, { onDelete: 'cascade' }),
  language: text('language').$type<SearchLanguage>().notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
})
