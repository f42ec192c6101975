import { asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import type { Filter, SortKey } from './query'

/** WHERE conditions for parsed filters over table columns (by API field name); values are bound. */
export function filterConditions(columns: Readonly<Record<string, PgColumn>>, filters: readonly Filter[]): SQL[] {
  return filters.map((f) => {
    const column = columns[f.column]!
    const value = f.value as never
    switch (f.op) {
      case 'eq':
        return eq(column, value)
      case 'neq':
        return ne(column, value)
      case 'gt':
        return gt(column, value)
      case 'gte':
        return gte(column, value)
      case 'lt':
        return lt(column, value)
      case 'lte':
        return lte(column, value)
      case 'in':
        return inArray(column, f.value as never[])
      case 'is':
        return f.value === null ? isNull(column) : f.value ? sql`${column} is true` : sql`${column} is false`
      case 'ilike':
        return sql`${column} ilike ${f.value} escape '\\'`
    }
  })
}

/** ORDER BY for parsed sort keys, then `tiebreak` so pages never overlap or skip rows. */
export function orderBy(columns: Readonly<Record<string, PgColumn | SQL>>, sort: readonly SortKey[], tiebreak: PgColumn): SQL[] {
  return [...sort.map((k) => (k.descending ? desc(columns[k.column]!) : asc(columns[k.column]!))), asc(tiebreak)]
}
