import { sql } from 'drizzle-orm'
import { index, pgSchema, text } from 'drizzle-orm/pg-core'
import { ownedColumns, timestampColumn as at } from '../../platform/crud/columns'
import { searchBoxVector, tsvector } from '../../platform/fulltext'
import { customers } from '../customer/schema'
import { ecosystems } from '../registry/schema'

export const userdataSchema = pgSchema('userdata')

const owned = () => ownedColumns({ ecosystem: () => ecosystems.id, customer: () => customers.id })

/** A customer's notes, optionally about a subject (another table's row); soft-deleted. */
export const notes = userdataSchema.table(
  'notes',
  {
    ...owned(),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    occurredAt: at('occurred_at').notNull().defaultNow(),
    subjectTable: text('subject_table'),
    subjectId: text('subject_id'),
    deletedAt: at('deleted_at'),
    search: tsvector('search').generatedAlwaysAs(sql`${searchBoxVector('title', 'body')}`),
  },
  (t) => [
    // Live rows only: lists filter on deleted_at, so a count over a range is an index-only scan.
    index('notes_customer_idx').on(t.ownerId, t.customerId, t.occurredAt).where(sql`${t.deletedAt} is null`),
    index('notes_subject_idx').on(t.ownerId, t.subjectTable, t.subjectId),
    index('notes_search_idx').using('gin', t.search),
  ],
)
