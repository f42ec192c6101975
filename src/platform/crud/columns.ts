import { type AnyPgColumn, timestamp, uuid } from 'drizzle-orm/pg-core'

/** Milliseconds, as the API shows them: a time read from a response filters back exactly (`eq.`, `lte.`). */
export const timestampColumn = (name: string) => timestamp(name, { withTimezone: true, mode: 'date', precision: 3 })

/**
 * The columns every derived table starts with: id, the ecosystem (`ownerId`) and customer that own
 * the row (deleted with them), and its times. New builders on every call: one set per table.
 */
export function ownedColumns(refs: { ecosystem: () => AnyPgColumn; customer: () => AnyPgColumn }) {
  return {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id').notNull().references(refs.ecosystem, { onDelete: 'cascade' }),
    customerId: uuid('customer_id').notNull().references(refs.customer, { onDelete: 'cascade' }),
    createdAt: timestampColumn('created_at').notNull().defaultNow(),
    updatedAt: timestampColumn('updated_at').notNull().defaultNow(),
  }
}
