import { sql } from 'drizzle-orm'
import { bigint, customType, index, integer, jsonb, pgSchema, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'

export const realtimeSchema = pgSchema('realtime')

/** A 64-bit transaction id (`pg_current_xact_id()`), read as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' })

/**
 * The changes outbox: one row per changed row of a realtime topic, written in the transaction of the
 * change. When that transaction commits it takes its place in `commits` (a deferred trigger, see
 * drizzle/0041), and rows are read in `(commits.pos, seq)` order: the order transactions committed in.
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
  (t) => [primaryKey({ columns: [t.tx, t.seq] }), index('changes_ecosystem_idx').on(t.ecosystemId, t.tx, t.seq)],
)

/**
 * Each writing transaction's place in commit order, taken as it commits (a deferred constraint trigger
 * on `changes` numbers it from `commit_pos` while holding a shared advisory lock until its commit
 * ends). A number that is missing below a visible one belongs to a transaction still committing (the
 * reader waits for the lock) or to one that rolled back (never filled).
 */
export const commits = realtimeSchema.table(
  'commits',
  {
    tx: xid8('tx').primaryKey(),
    pos: bigint('pos', { mode: 'number' }).notNull(),
    /** When it took its place (the retention job purges whole transactions by it). */
    committedAt: at('committed_at').notNull().default(sql`clock_timestamp()`),
  },
  (t) => [uniqueIndex('commits_pos_idx').on(t.pos), index('commits_committed_idx').on(t.committedAt)],
)

/** The last position the retention job purged: a stream resuming from before it gets `event: reset`. */
export const purged = realtimeSchema.table('purged', {
  id: integer('id').primaryKey().default(1),
  pos: bigint('pos', { mode: 'number' }).notNull(),
  seq: bigint('seq', { mode: 'number' }).notNull(),
})

/**
 * This instance's epoch, in every cursor: a restored backup or a database moved elsewhere gets a new
 * one (`renewEpoch`), so cursors of the history it no longer continues reset instead of skipping.
 */
export const epoch = realtimeSchema.table('epoch', {
  id: integer('id').primaryKey().default(1),
  value: text('value').notNull(),
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
