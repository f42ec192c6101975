import { and, eq, isNull, sql } from 'drizzle-orm'
import type { SearchSource } from '../../platform/fulltext'
import { replies, threads } from './schema'

const iso = (value: unknown) => new Date(value as string).toISOString()

/** Threads of the ecosystem that are not deleted. */
export const threadSearch: SearchSource = {
  name: 'threads',
  shape: (tenant) => ({
    from: sql`${threads}`,
    where: and(eq(threads.ownerId, tenant.ecosystemId), isNull(threads.deletedAt))!,
    vector: sql`${threads.search}`,
    select: sql`${threads.id} as id, ${threads.title} as title, ${threads.body} as body, ${threads.customerId} as author_id, ${threads.categoryId} as category_id, ${threads.createdAt} as created_at`,
    created: sql`${threads.createdAt}`,
    view: (r) => ({
      id: r.id as string,
      title: r.title as string,
      body: r.body as string,
      authorId: r.author_id as string,
      categoryId: r.category_id as string,
      createdAt: iso(r.created_at),
    }),
  }),
}

/** Replies of the ecosystem, neither they nor their thread deleted. */
export const replySearch: SearchSource = {
  name: 'replies',
  shape: (tenant) => ({
    from: sql`${replies} join ${threads} on ${threads.id} = ${replies.threadId}`,
    where: and(eq(replies.ownerId, tenant.ecosystemId), isNull(replies.deletedAt), isNull(threads.deletedAt))!,
    vector: sql`${replies.search}`,
    select: sql`${replies.id} as id, ${replies.threadId} as thread_id, ${replies.body} as body, ${replies.customerId} as author_id, ${replies.createdAt} as created_at`,
    created: sql`${replies.createdAt}`,
    view: (r) => ({
      id: r.id as string,
      threadId: r.thread_id as string,
      body: r.body as string,
      authorId: r.author_id as string,
      createdAt: iso(r.created_at),
    }),
  }),
}
