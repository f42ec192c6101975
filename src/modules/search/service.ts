import { and, desc, eq, ne, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { matches, prefixQuery, rank, snippet } from '../../platform/fulltext'
import { pageOf, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import { conversations, messages } from '../chat/schema'

export interface ChatMessageSearch {
  /** Leaves one conversation out (the chat tool's own conversation, which the model already sees). */
  excludeConversationId?: string
}

/**
 * Full-text search across areas, always within the caller's ecosystem and, for customer-owned
 * content, the caller's own records.
 */
export class SearchService {
  constructor(private readonly deps: Deps) {}

  /** The caller's own user and assistant messages, best match first (then newest). */
  async chatMessages(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, text: string, page: PageParams, options: ChatMessageSearch = {}) {
    const query = prefixQuery(text)
    const where = and(
      eq(messages.ownerId, tenant.ecosystemId),
      eq(messages.customerId, tenant.customerId),
      matches(messages.searchVector, query),
      options.excludeConversationId ? ne(messages.conversationId, options.excludeConversationId) : undefined,
    )
    const relevance = rank(messages.searchVector, query)
    const hits = this.deps.db
      .select({ id: messages.id, rank: relevance.as('rank') })
      .from(messages)
      .where(where)
      .orderBy(desc(relevance), desc(messages.createdAt), desc(messages.id))
      .limit(page.pageSize)
      .offset(page.offset)
      .as('hits')
    const [rows, [count]] = await Promise.all([
      this.deps.db
        .select({
          messageId: messages.id,
          conversationId: messages.conversationId,
          conversationTitle: conversations.title,
          role: messages.role,
          snippet: snippet(messages.content, query),
          createdAt: messages.createdAt,
          rank: hits.rank,
        })
        .from(hits)
        .innerJoin(messages, eq(messages.id, hits.id))
        .innerJoin(conversations, and(eq(conversations.id, messages.conversationId), eq(conversations.ownerId, tenant.ecosystemId)))
        .orderBy(desc(hits.rank), desc(messages.createdAt), desc(messages.id)),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(messages).where(where),
    ])
    const items = rows.map((r) => ({
      ...r,
      role: r.role as 'user' | 'assistant',
      createdAt: r.createdAt.toISOString(),
      rank: Number(r.rank),
    }))
    return pageOf(items, count!.n, page)
  }
}
