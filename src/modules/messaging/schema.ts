import { sql } from 'drizzle-orm'
import { index, jsonb, pgSchema, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import { tenantColumns } from '../customer/schema'
import { ecosystems } from '../registry/schema'

export const messagingSchema = pgSchema('messaging')

const { ecosystemId } = tenantColumns

/** Reusable e-mail/SMS texts with `{{variable}}` placeholders; names are unique per ecosystem. */
export const templates = messagingSchema.table(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: ecosystemId(),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    htmlBody: text('html_body').notNull(),
    textBody: text('text_body').notNull(),
    smsBody: text('sms_body'),
    category: text('category').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('templates_name_uq').on(t.ecosystemId, t.name)],
)

/**
 * One row per send attempt (append-only). `customerId` carries no foreign key: the log outlives
 * the customer it was sent to, as a record of what went out.
 */
export const sendLog = messagingSchema.table(
  'log',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: ecosystemId(),
    customerId: uuid('customer_id').notNull(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    body: text('body').notNull(),
    templateId: uuid('template_id'),
    /** `sent` when the provider took it; an SMS then moves on with Twilio's status callbacks. */
    status: text('status', { enum: ['sent', 'failed', 'delivered', 'undelivered'] }).notNull(),
    providerId: text('provider_id'),
    errorMessage: text('error_message'),
    sentBy: uuid('sent_by'),
    createdAt: at('created_at').notNull().defaultNow(),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    index('log_ecosystem_created_idx').on(t.ecosystemId, t.createdAt.desc(), t.id.desc()),
    index('log_customer_created_idx').on(t.ecosystemId, t.customerId, t.createdAt.desc()),
  ],
)

/**
 * The embedded stand-in for a provider: messages that would have gone out when none is configured.
 * `ecosystemId` is null for the instance's own account e-mails (password reset, verification).
 */
export const outbox = messagingSchema.table(
  'outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: uuid('ecosystem_id').references(() => ecosystems.id, { onDelete: 'cascade' }),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject'),
    text: text('text').notNull(),
    html: text('html'),
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('outbox_ecosystem_created_idx').on(sql`coalesce(${t.ecosystemId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.createdAt.desc())],
)

/**
 * Claims of queued sends, so a retry after a crash does not send again what already went out: a
 * claim is written before the provider is called and marked sent after, by `key` (what the send is
 * for, e.g. a notification's e-mail copy). `messageId` is stable across the retries of one send
 * (the e-mail's Message-ID is made from it), so a receiver can tell a repeat from a new message.
 * Kept a week, long past the last retry of the job that made it.
 */
export const sendClaims = messagingSchema.table(
  'send_claims',
  {
    key: text('key').primaryKey(),
    messageId: uuid('message_id').notNull().defaultRandom(),
    ecosystemId: uuid('ecosystem_id').references(() => ecosystems.id, { onDelete: 'cascade' }),
    claimedAt: at('claimed_at').notNull().defaultNow(),
    sentAt: at('sent_at'),
  },
  (t) => [index('send_claims_claimed_idx').on(t.claimedAt)],
)
