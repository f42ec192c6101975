import { sql } from 'drizzle-orm'
import { boolean, index, integer, jsonb, pgSchema, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import { tenantColumns } from '../customer/schema'
import { PREFERENCE_CATEGORIES, type PreferenceCategory } from '../messaging/model'

export const notificationsSchema = pgSchema('notifications')

/** The categories customers choose e-mail and SMS for: messaging's preference categories. */
export const CATEGORIES = PREFERENCE_CATEGORIES
export type Category = PreferenceCategory

const { ecosystemId, customerId } = tenantColumns

/**
 * In-app notifications of customers. `threadId` is what the notification is about (a thread, or
 * the announcement); an announcement reaches each customer at most once (unique index), which
 * keeps its fan-out exact when a batch runs again after a crash.
 */
export const notifications = notificationsSchema.table(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    type: text('type').notNull(),
    threadId: text('thread_id').notNull().default(''),
    replyId: text('reply_id'),
    actorId: text('actor_id').notNull().default(''),
    subject: text('subject').notNull().default(''),
    body: text('body').notNull().default(''),
    isRead: boolean('is_read').notNull().default(false),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('notifications_customer_idx').on(t.customerId, t.createdAt.desc(), t.id.desc()),
    index('notifications_unread_idx').on(t.customerId, t.createdAt.desc()).where(sql`not ${t.isRead}`),
    uniqueIndex('notifications_announcement_uq').on(t.threadId, t.customerId).where(sql`${t.type} = 'admin_announcement'`),
  ],
)

/** A customer's choices per category; categories without a row use the documented defaults. */
export const preferences = notificationsSchema.table(
  'preferences',
  {
    customerId: customerId(),
    category: text('category').notNull(),
    email: boolean('email').notNull(),
    sms: boolean('sms').notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.category] })],
)

/** An admin's announcement and how far its fan-out has come (`cursor` = the last customer id reached). */
export const announcements = notificationsSchema.table('announcements', {
  id: uuid('id').primaryKey().defaultRandom(),
  ecosystemId: ecosystemId(),
  subject: text('subject').notNull(),
  body: text('body').notNull(),
  channels: jsonb('channels').$type<('email' | 'sms')[]>().notNull(),
  createdBy: text('created_by').notNull(),
  recipients: integer('recipients').notNull(),
  cursor: uuid('cursor'),
  finishedAt: at('finished_at'),
  createdAt: at('created_at').notNull().defaultNow(),
})

/**
 * When a customer was last e-mailed about replies to a thread, and whether a digest of the replies
 * since is already queued: at most one reply e-mail per thread and customer per REPLY_EMAIL_WINDOW.
 */
export const replyEmails = notificationsSchema.table(
  'reply_emails',
  {
    customerId: customerId(),
    threadId: text('thread_id').notNull(),
    lastEmailedAt: at('last_emailed_at').notNull(),
    digestQueued: boolean('digest_queued').notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.customerId, t.threadId] })],
)
