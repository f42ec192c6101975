import { sql } from 'drizzle-orm'
import { index, jsonb, pgSchema, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'

export const auditSchema = pgSchema('audit')

/**
 * The audit log: one row per administrative change or security event, written in the transaction
 * of the change (a sign-in failure in its own statement). Append-only: nothing updates a row; the
 * retention job deletes rows older than AUDIT_RETENTION_DAYS. No foreign keys: an event outlives
 * the account, ecosystem or row it names. `ecosystem_id` null = not of one ecosystem (account and
 * instance events, and organization-wide ones such as team changes, which carry `organization_id`).
 */
export const auditEvents = auditSchema.table(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    at: at('at').notNull(),
    actorType: text('actor_type').$type<'user' | 'customer' | 'api_token' | 'system'>().notNull(),
    /** Null for a caller not yet identified (a failed sign-in). */
    actorId: text('actor_id'),
    /** The account behind an `api_token` actor. */
    actorUserId: uuid('actor_user_id'),
    ecosystemId: uuid('ecosystem_id'),
    organizationId: uuid('organization_id'),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    requestId: text('request_id'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
  },
  (t) => [
    // An ecosystem's list, newest first; and account-level (no ecosystem) events, all or by organization.
    index('audit_events_ecosystem_idx').on(t.ecosystemId, t.at.desc(), t.id.desc()),
    index('audit_events_account_idx').on(t.at.desc(), t.id.desc()).where(sql`${t.ecosystemId} is null`),
    index('audit_events_organization_idx').on(t.organizationId, t.at.desc(), t.id.desc()).where(sql`${t.ecosystemId} is null`),
    // The `actor` and `targetType`/`targetId` filters, and the retention job.
    index('audit_events_actor_idx').on(t.actorId, t.at.desc()),
    index('audit_events_actor_user_idx').on(t.actorUserId, t.at.desc()).where(sql`${t.actorUserId} is not null`),
    index('audit_events_target_idx').on(t.targetType, t.targetId, t.at.desc()),
    index('audit_events_at_idx').on(t.at),
  ],
)
