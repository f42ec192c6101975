import { t, type TSchema } from 'elysia'
import { count, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { Db } from './db'
import { Int } from './numbers'

/** Deeper pages cost a scan of every row before them; narrow the list with its filters instead. */
export const MAX_PAGE = 10_000

export const PageQuery = t.Object({
  page: t.Optional(t.Integer({ minimum: 1, maximum: MAX_PAGE, default: 1, description: `Page number, starting at 1 (at most ${MAX_PAGE})` })),
  pageSize: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Items per page (1-100)' })),
})

export interface PageParams {
  page: number
  pageSize: number
  offset: number
}

export function pageParams(query: { page?: number; pageSize?: number }): PageParams {
  const page = query.page ?? 1
  const pageSize = query.pageSize ?? 20
  return { page, pageSize, offset: (page - 1) * pageSize }
}

/** A page of `item`s; when the item's model names an example, the page shows a page of one. */
export function paged<T extends TSchema>(item: T, title: string) {
  const example = (item.examples as unknown[] | undefined)?.[0]
  return t.Object(
    { items: t.Array(item), total: Int(), page: Int(), pageSize: Int() },
    { title, ...(example === undefined ? {} : { examples: [{ items: [example], total: 1, page: 1, pageSize: 20 }] }) },
  )
}

export function pageOf<T>(items: T[], total: number, params: PageParams) {
  return { items, total, page: params.page, pageSize: params.pageSize }
}

/** One page of a set read whole because it is small and bounded (an ecosystem's levels, its contracts). */
export function pageOfAll<T>(all: T[], params: PageParams) {
  return pageOf(all.slice(params.offset, params.offset + params.pageSize), all.length, params)
}

/**
 * One page of a table's rows that match `where`, in `orderBy` order, with the count of all that
 * match: the two queries run together. For lists that read one table; joins write their own.
 */
export async function listPage<T extends PgTable, V>(
  db: Db,
  table: T,
  where: SQL | undefined,
  orderBy: (PgColumn | SQL)[],
  page: PageParams,
  view: (row: T['$inferSelect']) => V,
) {
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(table as PgTable)
      .where(where)
      .orderBy(...orderBy)
      .limit(page.pageSize)
      .offset(page.offset),
    db
      .select({ n: count() })
      .from(table as PgTable)
      .where(where),
  ])
  return pageOf((rows as T['$inferSelect'][]).map(view), total?.n ?? 0, page)
}
