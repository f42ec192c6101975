import { sql } from 'drizzle-orm'
import { bigint, boolean, index, jsonb, pgSchema, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import { customers } from '../customer/schema'
import { ecosystems } from '../registry/schema'

export const siteSchema = pgSchema('site')

/** Provider settings an ecosystem configures (SMTP, Twilio, OpenAI, webhook); the config is sealed, its key names are not. */
export const siteServices = siteSchema.table(
  'services',
  {
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    kind: text('kind').notNull(),
    enabled: boolean('enabled').notNull(),
    configSealed: text('config_sealed').notNull(),
    configKeys: jsonb('config_keys').$type<string[]>().notNull(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.slug] })],
)

/**
 * Activity items of a customer, written by the areas in the transaction of the change they
 * describe. `seq` orders them for the live stream (`Last-Event-ID`).
 */
export const feedItems = siteSchema.table(
  'feed_items',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity().notNull(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    customerId: uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
    source: text('source').notNull(),
    entityType: text('entity_type').notNull(),
    entityId: text('entity_id'),
    action: text('action').notNull(),
    summary: text('summary').notNull(),
    actorId: text('actor_id'),
    metadata: text('metadata'),
    isRead: boolean('is_read').notNull().default(false),
    readAt: at('read_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('feed_items_customer_idx').on(t.customerId, t.createdAt.desc(), t.id.desc()),
    index('feed_items_unread_idx').on(t.customerId).where(sql`not ${t.isRead}`),
    index('feed_items_seq_idx').on(t.customerId, t.seq),
    index('feed_items_read_idx').on(t.readAt).where(sql`${t.isRead}`),
  ],
)
