import { Elysia } from 'elysia'
import type { Deps } from '../../deps'
import type { PrincipalSource } from '../../platform/auth'
import { errors } from '../../platform/errors'
import { pageParams, paged } from '../../platform/paging'
import { type TenancySource, tenancyGuard } from '../../platform/tenancy'
import { CUSTOMER } from '../chat/routes/conversations'
import { SearchChatMessageResult, SearchQuery } from './model'
import { CHAT_SEARCH_CANDIDATES, type SearchService } from './service'

export function searchRoutes(deps: Deps, search: SearchService, users: PrincipalSource, tenancy: TenancySource) {
  return new Elysia({ name: 'search', prefix: '/search', detail: { tags: ['search'] } })
    .use(tenancyGuard({ tokens: deps.tokens, users, tenancy }))
    .get('/chat/messages', ({ tenant, query }) => search.chatMessages(tenant, query.q, pageParams(query)), {
      tenant: 'customer',
      query: SearchQuery,
      response: { 200: paged(SearchChatMessageResult, 'SearchChatMessagePage'), ...errors(400, 401, 403, 404) },
      detail: {
        operationId: 'searchChatMessages',
        summary: "Full-text search of the caller's chat messages",
        description:
          "User and assistant messages of the caller's own conversations (tool results are not searched), best match first, then newest. " +
          'Words are matched as prefixes in any language (no stemming); only the first 100,000 characters of a message are indexed. ' +
          `When more than ${CHAT_SEARCH_CANDIDATES} messages match, only the newest ${CHAT_SEARCH_CANDIDATES} of them are ranked and counted (\`total\` is then ${CHAT_SEARCH_CANDIDATES}): add words to narrow the search. ` +
          `A query with no searchable word finds nothing. ${CUSTOMER}`,
      },
    })
}
