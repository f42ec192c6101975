import { sql } from 'drizzle-orm'
import { type AnyPgColumn, check, index, integer, pgSchema, real, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { customers } from '../customer/schema'
import { ecosystems } from '../registry/schema'

export const personaMemorySchema = pgSchema('persona_memory')

export const MEMORY_SCOPES = ['user', 'persona'] as const
export const MEMORY_TYPES = ['user', 'feedback', 'project', 'reference'] as const
export const MEMORY_STATUSES = ['active', 'superseded', 'archived'] as const
export const MEMORY_SOURCES = ['inferred', 'user_stated', 'tool'] as const

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/**
 * What a persona remembers, per ecosystem (`owner_id`): about one customer (`customer_id`, scope
 * `user`) or for everyone (`customer_id` null, scope `persona`). `persona_id` names a persona of
 * the ecosystem: the service checks it on create, and deleting the persona deletes its memories in
 * the same transaction (PersonaMemoryService.forgetPersona). `embedding` is `real[]` here; where
 * pgvector exists, vectors.ts turns it into `vector(EMBEDDING_DIMENSIONS)` with an HNSW index at boot.
 */
export const memories = personaMemorySchema.table(
  'memories',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    personaId: uuid('persona_id').notNull(),
    scope: text('scope', { enum: MEMORY_SCOPES }).notNull(),
    slug: text('slug').notNull(),
    memoryType: text('memory_type', { enum: MEMORY_TYPES }).notNull(),
    description: text('description').notNull(),
    body: text('body').notNull(),
    subjectTable: text('subject_table'),
    subjectId: text('subject_id'),
    status: text('status', { enum: MEMORY_STATUSES }).notNull().default('active'),
    supersedesId: uuid('supersedes_id').references((): AnyPgColumn => memories.id, { onDelete: 'set null' }),
    source: text('source', { enum: MEMORY_SOURCES }).notNull(),
    confidence: integer('confidence').notNull(),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    validFrom: at('valid_from'),
    validTo: at('valid_to'),
    recallCount: integer('recall_count').notNull().default(0),
    lastRecalledAt: at('last_recalled_at'),
    /** Unit length; null until embedded (and again after an edit of description or body). */
    embedding: real('embedding').array(),
    embeddingModel: text('embedding_model'),
    /** Last failed embedding attempt: the backfill tries rows that never failed first. */
    embeddingFailedAt: at('embedding_failed_at'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    check('memories_scope_owner_ck', sql`(${t.scope} = 'persona') = (${t.customerId} is null)`),
    check('memories_confidence_ck', sql`${t.confidence} between 0 and 100`),
    index('memories_persona_idx').on(t.ownerId, t.personaId, t.customerId),
    index('memories_created_idx').on(t.ownerId, t.createdAt),
    index('memories_embedding_model_idx').on(t.embeddingModel),
    index('memories_customer_idx').on(t.customerId),
    // At most one active memory per slug for each owner: supersede to change it.
    uniqueIndex('memories_active_slug_uq')
      .on(t.ownerId, t.personaId, sql`coalesce(${t.customerId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.slug)
      .where(sql`${t.status} = 'active' and ${t.deletedAt} is null`),
  ],
)
