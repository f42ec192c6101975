import { sql } from 'drizzle-orm'
import { index, integer, jsonb, numeric, pgSchema, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import { customers } from '../customer/schema'
import { ecosystems } from '../registry/schema'
import type { ContractAccess, ContractColumn } from './model'

export const contractSchema = pgSchema('contract')

/** Tables an ecosystem's developers define at runtime: a definition row each, never DDL. */
export const contracts = contractSchema.table(
  'contracts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    columns: jsonb('columns').$type<ContractColumn[]>().notNull(),
    /** Dropped columns whose values rows still hold until a PATCH with `confirm: true`. */
    droppedColumns: jsonb('dropped_columns').$type<string[]>().notNull().default([]),
    access: jsonb('access').$type<ContractAccess>().notNull(),
    version: integer('version').notNull().default(1),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('contracts_ecosystem_name_uq').on(t.ecosystemId, t.name)],
)

/** The rows of every contract, values in one JSONB document each. */
export const contractRows = contractSchema.table(
  'rows',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    /** The customer that created the row (null: an ecosystem admin did). */
    customerId: uuid('customer_id').references(() => customers.id, { onDelete: 'cascade' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('rows_contract_idx').on(t.contractId, t.createdAt),
    index('rows_customer_idx').on(t.contractId, t.customerId),
    // Serves `eq` filters (as JSON containment) on any column.
    index('rows_data_idx').using('gin', sql`${t.data} jsonb_path_ops`),
  ],
)

/** One row per (contract, unique column, value): the unique constraint of a `unique` column. */
export const contractUniqueValues = contractSchema.table(
  'unique_values',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    column: text('column').notNull(),
    value: text('value').notNull(),
    rowId: uuid('row_id')
      .notNull()
      .references(() => contractRows.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.contractId, t.column, t.value] }), index('unique_values_row_idx').on(t.rowId)],
)

/**
 * Typed copies of the values of `indexed` columns, one row per (row, column), with btree indexes
 * that serve range and equality filters: per-contract expression indexes would be DDL per tenant.
 */
export const contractIndexedValues = contractSchema.table(
  'indexed_values',
  {
    contractId: uuid('contract_id')
      .notNull()
      .references(() => contracts.id, { onDelete: 'cascade' }),
    rowId: uuid('row_id')
      .notNull()
      .references(() => contractRows.id, { onDelete: 'cascade' }),
    column: text('column').notNull(),
    num: numeric('num'),
    at: at('at'),
    txt: text('txt'),
  },
  (t) => [
    primaryKey({ columns: [t.rowId, t.column] }),
    index('indexed_values_num_idx').on(t.contractId, t.column, t.num),
    index('indexed_values_at_idx').on(t.contractId, t.column, t.at),
    index('indexed_values_txt_idx').on(t.contractId, t.column, t.txt),
  ],
)
