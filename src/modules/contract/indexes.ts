import { and, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { Filter } from '../../platform/crud/query'
import type { Db } from '../../platform/db'
import type { ContractColumn } from './model'
import { contractIndexedValues as iv, contractRows } from './schema'

type Slot = 'num' | 'at' | 'txt'
const SLOTS: Partial<Record<ContractColumn['type'], Slot>> = { integer: 'num', number: 'num', timestamp: 'at', text: 'txt', uuid: 'txt' }
const RANGE_OPS: Partial<Record<Filter['op'], string>> = { eq: '=', gt: '>', gte: '>=', lt: '<', lte: '<=' }

/** The `indexed` columns whose values the side table holds, by name, with the typed column that holds them. */
export function indexedSlots(columns: readonly ContractColumn[]): Map<string, Slot> {
  return new Map(columns.flatMap((c) => (c.indexed && SLOTS[c.type] ? [[c.name, SLOTS[c.type]!] as const] : [])))
}

const stored = (slot: Slot, value: unknown) => (slot === 'at' ? new Date(value as string) : String(value))

/** Rewrites the side-table entries of `columns` for one row, in the row's transaction. */
export async function writeIndexed(
  tx: Db,
  contractId: string,
  rowId: string,
  slots: Map<string, Slot>,
  data: Record<string, unknown>,
  columns: Iterable<string>,
) {
  const names = [...columns].filter((c) => slots.has(c))
  if (!names.length) return
  await tx.delete(iv).where(and(eq(iv.rowId, rowId), inArray(iv.column, names)))
  const values = names
    .filter((name) => Object.hasOwn(data, name) && data[name] !== null && data[name] !== undefined)
    .map((name) => ({ contractId, rowId, column: name, [slots.get(name)!]: stored(slots.get(name)!, data[name]) }))
  if (values.length) await tx.insert(iv).values(values)
}

/** Fills the side table for an `indexed` column added to a contract that already has rows. */
export async function backfillIndexed(tx: Db, contractId: string, column: ContractColumn) {
  const slot = SLOTS[column.type]
  if (!column.indexed || !slot) return
  const text = sql`${contractRows.data} ->> ${column.name}::text`
  const value = slot === 'num' ? sql`(${text})::numeric` : slot === 'at' ? sql`(${text})::timestamptz` : text
  await tx.execute(sql`
    insert into ${iv} (contract_id, row_id, "column", ${sql.raw(slot)})
    select ${contractRows.contractId}, ${contractRows.id}, ${column.name}::text, ${value}
    from ${contractRows} where ${contractRows.contractId} = ${contractId} and ${text} is not null`)
}

/** A filter on an indexed column as a lookup in the side table's btree; null when it has no such form. */
export function indexedFilter(contractId: string, slots: Map<string, Slot>, f: Filter): SQL | null {
  const slot = slots.get(f.column)
  if (!slot) return null
  const param = (v: unknown) => (slot === 'at' ? sql`${(v as Date).toISOString()}::timestamptz` : slot === 'num' ? sql`${v}::numeric` : sql`${v}`)
  let condition: SQL
  if (f.op === 'in') condition = sql`${iv[slot]} in (${sql.join((f.value as unknown[]).map(param), sql`, `)})`
  else if (RANGE_OPS[f.op]) condition = sql`${iv[slot]} ${sql.raw(RANGE_OPS[f.op]!)} ${param(f.value)}`
  else return null
  return sql`${contractRows.id} in (select ${iv.rowId} from ${iv} where ${iv.contractId} = ${contractId} and ${iv.column} = ${f.column} and ${condition})`
}
