import type { ConversationSearch } from '../chat/tools/search'
import type { SearchService } from './service'

/** Search as chat's `search` tool: the first page of the customer's matching messages elsewhere. */
export function conversationSearchFor(search: SearchService): ConversationSearch {
  return {
    async conversations(tenant, query, limit, excludeConversationId) {
      const { items } = await search.chatMessages(tenant, query, { page: 1, pageSize: limit, offset: 0 }, { excludeConversationId })
      return items.map(({ conversationId, conversationTitle, role, snippet, createdAt }) => ({ conversationId, conversationTitle, role, snippet, createdAt }))
    },
  }
}
