import { sql } from 'drizzle-orm'
import { index, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { sessionTables } from '../../platform/sessions'
import { ecosystems } from '../registry/schema'

export const customerSchema = pgSchema('customer')

/** An end user inside one ecosystem. Account users acting in an ecosystem have `user:<userId>`. */
export const customers = customerSchema.table(
  'customers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    externalId: text('external_id'),
    email: text('email'),
    phone: text('phone'),
    name: text('name'),
    avatarUrl: text('avatar_url'),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('customers_external_uq').on(t.ecosystemId, t.externalId),
    index('customers_email_idx').on(t.ecosystemId, sql`lower(${t.email})`),
    // Walks an ecosystem's customers in id order (announcement fan-out batches).
    index('customers_ecosystem_id_idx').on(t.ecosystemId, t.id),
  ],
)

/** Customer sessions and their rotating refresh tokens (see platform/sessions). */
export const { sessions: customerSessions, refreshTokens: customerRefreshTokens } = sessionTables(customerSchema, {
  name: 'customer',
  references: () => customers.id,
})

/** Columns other areas' tables use to belong to an ecosystem and a customer, deleted with them. */
export const tenantColumns = {
  ecosystemId: () =>
    uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
  customerId: () =>
    uuid('customer_id')
      .notNull()
      .references(() => customers.id, { onDelete: 'cascade' }),
}
