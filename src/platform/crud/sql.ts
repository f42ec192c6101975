import { and, asc, desc, eq, gt, gte, inArray, isNull, lt, lte, ne, not, or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn } from 'drizzle-orm/pg-core'
import { type Condition, type Filter, isGroup, type SortKey } from './query'

/**
 * WHERE conditions for parsed filters over table columns (by API field name); values are bound.
 * `leaf` turns one filter into SQL, told whether a `not` applies to it (itself or a group around
 * it): there a condition must be null, not false, for a null value, as a plain comparison is.
 */
export function conditionsSql(conditions: readonly Condition[], leaf: (f: Filter, negated: boolean) => SQL): SQL[] {
  const build = (c: Condition, negated: boolean): SQL => {
    const inner = negated || c.not === true
    const condition = isGroup(c) ? (c.combine === 'or' ? or : and)(...c.conditions.map((x) => build(x, inner)))! : leaf(c, inner)
    return c.not ? not(condition) : condition
  }
  return conditions.map((c) => build(c, false))
}

export function filterConditions(columns: Readonly<Record<string, PgColumn>>, filters: readonly Condition[]): SQL[] {
  return conditionsSql(filters, (f) => {
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
      case 'like':
        return sql`${column} like ${f.value} escape '\\'`
      case 'ilike':
        return sql`${column} ilike ${f.value} escape '\\'`
    }
  })
}

const nullsSql = (k: SortKey) => (k.nulls === 'first' ? sql` nulls first` : k.nulls === 'last' ? sql` nulls last` : sql``)

/** ORDER BY for parsed sort keys, then `tiebreak` so pages never overlap or skip rows. */
export function orderBy(columns: Readonly<Record<string, PgColumn | SQL>>, sort: readonly SortKey[], tiebreak: PgColumn): SQL[] {
  return [
    ...sort.map((k) => {
      const column = columns[k.column]!
      if (!k.nulls) return k.descending ? desc(column) : asc(column)
      return sql`${column} ${k.descending ? sql`desc` : sql`asc`}${nullsSql(k)}`
    }),
    asc(tiebreak),
  ]
}
