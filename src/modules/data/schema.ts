import { sql } from 'drizzle-orm'
import { index, pgSchema, text, uuid } from 'drizzle-orm/pg-core'
import { ownedColumns, timestampColumn as at } from '../../platform/crud/columns'
import { searchBoxVector, searchVector, tsvector } from '../../platform/fulltext'
import { customers } from '../customer/schema'
import { ecosystems } from '../registry/schema'

export const dataSchema = pgSchema('data')

const owned = () => ownedColumns({ ecosystem: () => ecosystems.id, customer: () => customers.id })

/** A customer's documents; soft-deleted (`deleted_at`), their blocks go with them. */
export const documents = dataSchema.table(
  'documents',
  {
    ...owned(),
    title: text('title').notNull(),
    deletedAt: at('deleted_at'),
    /** For the search area; never shown. */
    search: tsvector('search').generatedAlwaysAs(sql`${searchVector('title')}`),
  },
  (t) => [
    index('documents_customer_idx').on(t.ownerId, t.customerId, t.createdAt).where(sql`${t.deletedAt} is null`),
    index('documents_search_idx').using('gin', t.search),
  ],
)

/** Blocks of a document, in `position` order: byte-wise ("C") so any string can sit between two others. */
export const documentBlocks = dataSchema.table(
  'document_blocks',
  {
    ...owned(),
    documentId: uuid('document_id')
      .notNull()
      .references(() => documents.id, { onDelete: 'cascade' }),
    blockType: text('block_type').notNull(),
    position: text('position').notNull(),
    content: text('content').notNull().default(''),
    search: tsvector('search').generatedAlwaysAs(sql`${searchBoxVector('content')}`),
  },
  (t) => [
    index('document_blocks_document_idx').on(t.documentId, sql`${t.position} collate "C"`),
    index('document_blocks_search_idx').using('gin', t.search),
    // Newest first within an ecosystem: the search box walks it to find the newest matches of a common word, a phrase or an exclusion.
    index('document_blocks_recent_idx').on(t.ownerId, t.createdAt),
  ],
)
