import { boolean, pgSchema, text, timestamp, uuid } from 'drizzle-orm/pg-core'

export const settingsSchema = pgSchema('settings')

/** Platform-wide switches for sign-in methods; a missing row means the method's default. */
export const authMethods = settingsSchema.table('auth_methods', {
  method: text('method').primaryKey(),
  enabled: boolean('enabled').notNull(),
  updatedBy: uuid('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
})
