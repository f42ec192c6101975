import { and, count, desc, eq, ne, type SQL, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { queryRows } from '../../platform/db'
import { lexemesOf, matches, prefixQuery, rank, snippet } from '../../platform/fulltext'
import { pageOf, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import { conversations, messages } from './schema'

export interface ChatMessageSearchOptions {
  /** Leaves one conversation out (the chat tool's own conversation, which the model already sees). */
  excludeConversationId?: string
}

/**
 * At most this many matching messages, the newest, are ranked and counted: ranking reads every
 * candidate, so without a bound a common word costs one row read per message of the customer
 * (bench/search.ts: ≈ 0.3 s at 100k messages).
 */
export const CHAT_SEARCH_CANDIDATES = 1000

/**
 * A customer with at most this many messages is searched by reading them all (a few ms), never
 * through the full-text index, whose cost grows with the matches in the whole table.
 */
export const CHAT_SEARCH_SCAN_MESSAGES = 2000

/** Full-text search of a customer's own chat messages (served at /search/chat/messages and by the chat `search` tool). */
export class ChatMessageSearch {
  constructor(private readonly deps: Pick<Deps, 'db'>) {}

  /** The caller's own user and assistant messages, best match first (then newest), among the newest matches. */
  async find(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, text: string, page: PageParams, options: ChatMessageSearchOptions = {}) {
    const db = this.deps.db
    const own = and(eq(messages.ownerId, tenant.ecosystemId), eq(messages.customerId, tenant.customerId))
    const words = await this.words(own, text)
    const query = prefixQuery(words.lexemes)
    if (!query) return pageOf([], 0, page)
    const candidates = db.$with('candidates').as(
      db
        .select({
          id: messages.id,
          conversationId: messages.conversationId,
          role: messages.role,
          content: messages.content,
          createdAt: messages.createdAt,
          searchVector: messages.searchVector,
        })
        .from(messages)
        .where(
          and(
            own,
            matches(messages.searchVector, query, words.many),
            options.excludeConversationId ? ne(messages.conversationId, options.excludeConversationId) : undefined,
          ),
        )
        .orderBy(desc(messages.createdAt), desc(messages.id))
        .limit(CHAT_SEARCH_CANDIDATES),
    )
    const relevance = rank(candidates.searchVector, query)
    const hits = db
      .with(candidates)
      .select({
        id: candidates.id,
        conversationId: candidates.conversationId,
        role: candidates.role,
        content: candidates.content,
        createdAt: candidates.createdAt,
        rank: relevance.as('rank'),
        total: sql<number>`count(*) over ()`.as('total'),
      })
      .from(candidates)
      .orderBy(desc(relevance), desc(candidates.createdAt), desc(candidates.id))
      .limit(page.pageSize)
      .offset(page.offset)
      .as('hits')
    const rows = await db
      .select({
        messageId: hits.id,
        conversationId: hits.conversationId,
        conversationTitle: conversations.title,
        role: hits.role,
        snippet: snippet(hits.content, query),
        createdAt: hits.createdAt,
        rank: hits.rank,
        total: hits.total,
      })
      .from(hits)
      .innerJoin(conversations, and(eq(conversations.id, hits.conversationId), eq(conversations.ownerId, tenant.ecosystemId)))
      .orderBy(desc(hits.rank), desc(hits.createdAt), desc(hits.id))
    const items = rows.map(({ total: _, ...r }) => ({
      ...r,
      role: r.role as 'user' | 'assistant',
      createdAt: r.createdAt.toISOString(),
      rank: Number(r.rank),
    }))
    // Past the last page there is no row to carry the total.
    const total = rows[0] ? Number(rows[0].total) : page.offset === 0 ? 0 : (await db.with(candidates).select({ n: count() }).from(candidates))[0]!.n
    return pageOf(items, total, page)
  }

  /** The query's words, and whether the customer has too many messages to read them all (one round trip). */
  private async words(own: SQL | undefined, text: string) {
    const [row] = await queryRows<{ lexemes: string[]; many: boolean }>(
      this.deps.db,
      sql`select array(${lexemesOf(text)}) as lexemes,
                 (select count(*) from (select 1 from ${messages} where ${own} limit ${CHAT_SEARCH_SCAN_MESSAGES + 1}) mine) > ${CHAT_SEARCH_SCAN_MESSAGES} as many`,
    )
    return row!
  }
}
