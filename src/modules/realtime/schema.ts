import { sql } from 'drizzle-orm'
import { bigint, customType, index, integer, jsonb, pgSchema, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'

export const realtimeSchema = pgSchema('realtime')

/** A 64-bit transaction id (`pg_current_xact_id()`), read as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' })

/**
 * The changes outbox: one row per changed row of a realtime topic, written in the transaction of the
 * change. Rows are read in `(tx, seq)` order, and only once every transaction that started before
 * theirs has ended, so a reader never passes a row that commits later (see RealtimeHub).
 */
export const changes = realtimeSchema.table(
  'changes',
  {
    tx: xid8('tx').notNull().default(sql`pg_current_xact_id()`),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    topic: text('topic').notNull(),
    key: text('key'),
    ecosystemId: uuid('ecosystem_id').notNull(),
    customerId: uuid('customer_id'),
    audience: text('audience').notNull(),
    op: text('op').notNull(),
    rowId: text('row_id').notNull(),
    record: jsonb('record'),
    at: at('at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tx, t.seq] }), index('changes_ecosystem_idx').on(t.ecosystemId, t.tx, t.seq), index('changes_at_idx').on(t.at)],
)

/** The last position the retention job purged: a stream resuming from before it gets `event: reset`. */
export const purged = realtimeSchema.table('purged', {
  id: integer('id').primaryKey().default(1),
  tx: xid8('tx').notNull(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
})

/** Single-use stream tickets (hashed): the tenant and credential they stand for, for 60 s. */
export const tickets = realtimeSchema.table(
  'tickets',
  {
    hash: text('hash').primaryKey(),
    ecosystemId: uuid('ecosystem_id').notNull(),
    organizationId: uuid('organization_id').notNull(),
    customerId: uuid('customer_id').notNull(),
    kind: text('kind').$type<'customer' | 'user'>().notNull(),
    subjectId: uuid('subject_id').notNull(),
    sessionId: uuid('session_id'),
    apiTokenId: uuid('api_token_id'),
    credentialExpiresAt: at('credential_expires_at'),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('tickets_expires_idx').on(t.expiresAt)],
)
