import type { ChatMessageSearch, ConversationSearch } from '../chat/service'
import type { PersonaService } from '../persona/service'
import { asCustomer } from '../../platform/tenancy'
import type { SearchBox } from './service'

interface ThreadView {
  id: string
  title: string
  body: string
  createdAt: string
}

/**
 * Search as chat's `search` tool: the first page of the customer's matching messages elsewhere, and,
 * for personas with `searchCommunity`, of the ecosystem's threads (in the ecosystem's search language).
 */
export function conversationSearchFor(
  messages: ChatMessageSearch,
  box: SearchBox,
  personas: Pick<PersonaService['personas'], 'searchesCommunity'>,
): ConversationSearch {
  return {
    async conversations(tenant, query, limit, excludeConversationId) {
      const { items } = await messages.find(tenant, query, { page: 1, pageSize: limit, offset: 0 }, { excludeConversationId })
      return items.map(({ conversationId, conversationTitle, role, snippet, createdAt }) => ({ conversationId, conversationTitle, role, snippet, createdAt }))
    },
    async threads(tenant, personaId, query, limit) {
      if (!personaId || !(await personas.searchesCommunity(tenant.ecosystemId, personaId))) return null
      const { items } = await box.find<ThreadView>('threads', asCustomer(tenant), query, await box.language(tenant), { page: 1, pageSize: limit, offset: 0 })
      return items.map((t) => ({ threadId: t.id, title: t.title, snippet: t.body.slice(0, 300), createdAt: t.createdAt }))
    },
  }
}
