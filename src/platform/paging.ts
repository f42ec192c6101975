import { t, type TSchema } from 'elysia'

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

export function paged<T extends TSchema>(item: T, title: string) {
  return t.Object(
    { items: t.Array(item), total: t.Integer(), page: t.Integer(), pageSize: t.Integer() },
    { title },
  )
}

export function pageOf<T>(items: T[], total: number, params: PageParams) {
  return { items, total, page: params.page, pageSize: params.pageSize }
}
