import { type SQL, sql } from 'drizzle-orm'
import type { ColumnKind, Condition, Filter, SortKey } from '../../platform/crud/query'
import { conditionsSql } from '../../platform/crud/sql'
import { AppError } from '../../platform/errors'
import { isUuid } from '../../platform/params'
import { type ContractColumn, MAX_KEY_BYTES } from './model'
import { contractRows } from './schema'

const invalid = (message: string) => new AppError(400, 'validation_failed', message)

/** A value as a column of `type` stores it (timestamps as ISO strings in UTC), or a 400 naming the column. */
export function checkValue(
  column: Pick<ContractColumn, 'name' | 'type' | 'nullable' | 'unique' | 'indexed'>,
  value: unknown,
  where = `body.${column.name}`,
): unknown {
  if (value === null) {
    if (column.nullable === false) throw invalid(`${where}: may not be null`)
    return null
  }
  const typed = typedValue(column, value, where)
  const key = column.unique ? JSON.stringify(typed) : column.indexed && column.type === 'text' ? (typed as string) : null
  if (key !== null && Buffer.byteLength(key) > MAX_KEY_BYTES) throw invalid(`${where}: at most ${MAX_KEY_BYTES} bytes in a unique or indexed column`)
  return typed
}

function typedValue(column: Pick<ContractColumn, 'type'>, value: unknown, where: string): unknown {
  switch (column.type) {
    case 'text':
      if (typeof value !== 'string') throw invalid(`${where}: expected text`)
      return value
    case 'integer':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(`${where}: expected an integer`)
      return value
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw invalid(`${where}: expected a number`)
      return value
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(`${where}: expected true or false`)
      return value
    case 'timestamp': {
      const at = typeof value === 'string' && /^\d{4}-\d{2}-\d{2}(T[\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? new Date(value) : null
      if (!at || Number.isNaN(at.getTime())) throw invalid(`${where}: expected an ISO 8601 timestamp`)
      return at.toISOString()
    }
    case 'uuid':
      if (typeof value !== 'string' || !isUuid(value)) throw invalid(`${where}: expected a UUID`)
      return value.toLowerCase()
    case 'json':
      return value
  }
}

/**
 * The values a write stores: every key a column of the contract (400 naming an unknown one), each
 * checked against its column; on create, absent columns take their default, or null when nullable.
 */
export function checkValues(columns: readonly ContractColumn[], input: Record<string, unknown>, mode: 'create' | 'patch'): Record<string, unknown> {
  const byName = new Map(columns.map((c) => [c.name, c]))
  for (const key of Object.keys(input)) if (!byName.has(key)) throw invalid(`body.${key}: not a column of this contract`)
  const out: Record<string, unknown> = {}
  for (const column of columns) {
    // Own keys: a column may be called `constructor`, which every object has by inheritance.
    if (Object.hasOwn(input, column.name)) out[column.name] = checkValue(column, input[column.name])
    else if (mode === 'create') out[column.name] = checkValue(column, column.default ?? null)
  }
  return out
}

/** A column's value in SQL, typed for comparison; the column name is a bound parameter. */
function columnValue(name: string, kind: ColumnKind): SQL {
  const text = sql`(${contractRows.data} ->> ${name}::text)`
  switch (kind) {
    case 'integer':
    case 'number':
      return sql`${text}::numeric`
    case 'boolean':
      return sql`${text}::boolean`
    case 'timestamp':
      return sql`${text}::timestamptz`
    default:
      return text
  }
}

/** A Map, not an object: a column named `constructor` must not find Object.prototype's. */
const SYSTEM = new Map<string, SQL>([
  ['id', sql`${contractRows.id}`],
  ['customerId', sql`${contractRows.customerId}`],
  ['createdAt', sql`${contractRows.createdAt}`],
  ['updatedAt', sql`${contractRows.updatedAt}`],
])
const expression = (f: { column: string; kind: ColumnKind }) => SYSTEM.get(f.column) ?? columnValue(f.column, f.kind)
/** A value for comparison with `expression`: timestamps of values are compared as timestamptz. */
const param = (value: unknown) => (value instanceof Date ? sql`${value.toISOString()}::timestamptz` : sql`${value}`)

/**
 * WHERE conditions for parsed filters (and/or trees); `viaIndex` may answer a filter with an
 * index lookup instead. Under a `not` (its own or a group's) a filter keeps the column comparison
 * (`not (x = 1)` is null, so unmatched, for a null x, as on derived lists), never the containment
 * or index forms, which are false rather than null there, so their negation would match such rows.
 */
export function rowFilters(filters: readonly Condition[], viaIndex: (f: Filter) => SQL | null = () => null): SQL[] {
  return conditionsSql(filters, (f, negated) => {
    const indexed = negated ? null : viaIndex(f)
    if (indexed) return indexed
    const expr = expression(f)
    const system = SYSTEM.has(f.column)
    switch (f.op) {
      case 'eq':
        // Containment uses the rows' GIN index; values are stored normalised, so it is exact.
        if (!system && !negated)
          return sql`${contractRows.data} @> ${JSON.stringify({ [f.column]: f.value instanceof Date ? f.value.toISOString() : f.value })}::jsonb`
        return sql`${expr} = ${param(f.value)}`
      case 'neq':
        return sql`${expr} <> ${param(f.value)}`
      case 'gt':
        return sql`${expr} > ${param(f.value)}`
      case 'gte':
        return sql`${expr} >= ${param(f.value)}`
      case 'lt':
        return sql`${expr} < ${param(f.value)}`
      case 'lte':
        return sql`${expr} <= ${param(f.value)}`
      case 'in':
        return sql`${expr} in (${sql.join((f.value as unknown[]).map(param), sql`, `)})`
      case 'is':
        return f.value === null ? sql`${expr} is null` : f.value ? sql`${expr} is true` : sql`${expr} is false`
      case 'like':
        return sql`${expr} like ${f.value} escape '\\'`
      case 'ilike':
        return sql`${expr} ilike ${f.value} escape '\\'`
    }
  })
}

export function rowOrder(sort: readonly SortKey[], kinds: Readonly<Record<string, ColumnKind>>): SQL[] {
  return [
    ...sort.map(
      (k) =>
        sql`${expression({ column: k.column, kind: ownValue(kinds, k.column) ?? 'text' })} ${k.descending ? sql`desc` : sql`asc`} ${k.nulls === 'first' ? sql`nulls first` : sql`nulls last`}`,
    ),
    sql`${contractRows.id} asc`,
  ]
}

/** `record[key]` when it is the record's own key: never an inherited member such as `constructor`. */
export function ownValue<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(record, key) ? record[key] : undefined
}

/** The system fields every row shows: ContractRow requires them, so `select=` keeps them. */
const ALWAYS = ['id', 'customerId', 'createdAt', 'updatedAt']

/** A row with only the columns `select=` named (plus the system fields), or as it is when none were. */
export function selectValues<Row extends Record<string, unknown>>(row: Row, select: readonly string[] | null): Row {
  if (!select) return row
  return Object.fromEntries(Object.entries(row).filter(([key]) => ALWAYS.includes(key) || select.includes(key))) as Row
}
