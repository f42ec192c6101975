import { boolean, jsonb, pgSchema, primaryKey, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
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
