import { Elysia, type Static } from 'elysia'
import type { Guards } from '../../platform/guards'
import { pageParams, paged } from '../../platform/paging'
import { CUSTOMER } from '../chat/model'
import { CHAT_SEARCH_CANDIDATES, type ChatMessageSearch } from '../chat/service'
import { SEARCH_BOX_CANDIDATES, type SearchBox } from './service'
import {
  SearchBoxQuery,
  SearchChatMessageResult,
  SearchDiscussionReplyResult,
  SearchDiscussionThreadResult,
  SearchDocumentResult,
  SearchNoteResult,
  SearchQuery,
  SearchSettings,
} from './model'

export function searchRoutes(messages: ChatMessageSearch, box: SearchBox, guards: Guards) {
  const ranked = `Best match first (\`rank\`), then newest; the ecosystem only. When more than ${SEARCH_BOX_CANDIDATES} rows match, the newest ${SEARCH_BOX_CANDIDATES} are ranked and counted (\`total\` is then ${SEARCH_BOX_CANDIDATES}): add words to narrow the search.`
  return new Elysia({ name: 'search', prefix: '/search', detail: { tags: ['search'] } })
    .use(guards.tenancy)
    .get('/chat/messages', ({ tenant, query }) => messages.find(tenant, query.q, pageParams(query)), {
      tenant: 'customer',
      query: SearchQuery,
      response: { 200: paged(SearchChatMessageResult, 'SearchChatMessagePage') },
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
    .get('/settings', ({ tenant }) => box.settings(tenant), {
      tenant: 'customer',
      response: { 200: SearchSettings },
      detail: {
        operationId: 'searchSettings',
        summary: 'The ecosystem’s search defaults',
        description: 'Anyone of the ecosystem (customers, members) reads them.',
      },
    })
    .put('/settings', ({ tenant, body }) => box.saveSettings(tenant, body), {
      tenant: 'admin',
      body: SearchSettings,
      response: { 200: SearchSettings },
      detail: { operationId: 'searchSettingsUpdate', summary: 'Change the ecosystem’s search defaults' },
    })
    .get(
      '/threads',
      async ({ tenant, query }) =>
        box.find<Static<typeof SearchDiscussionThreadResult>>('threads', tenant, query.q, await box.language(tenant, query.language), pageParams(query)),
      {
        tenant: 'customer',
        query: SearchBoxQuery,
        response: { 200: paged(SearchDiscussionThreadResult, 'SearchDiscussionThreadPage') },
        detail: {
          operationId: 'searchThreads',
          summary: 'Full-text search of community threads (title and body)',
          description: `Live threads of the ecosystem's community. ${ranked}`,
        },
      },
    )
    .get(
      '/replies',
      async ({ tenant, query }) =>
        box.find<Static<typeof SearchDiscussionReplyResult>>('replies', tenant, query.q, await box.language(tenant, query.language), pageParams(query)),
      {
        tenant: 'customer',
        query: SearchBoxQuery,
        response: { 200: paged(SearchDiscussionReplyResult, 'SearchDiscussionReplyPage') },
        detail: { operationId: 'searchReplies', summary: 'Full-text search of community replies', description: `Live replies of live threads. ${ranked}` },
      },
    )
    .get(
      '/documents',
      async ({ tenant, query }) =>
        box.find<Static<typeof SearchDocumentResult>>('documents', tenant, query.q, await box.language(tenant, query.language), pageParams(query)),
      {
        tenant: 'customer',
        query: SearchBoxQuery,
        response: { 200: paged(SearchDocumentResult, 'SearchDocumentPage') },
        detail: {
          operationId: 'searchDocuments',
          summary: 'Full-text search of document blocks',
          description: `One result per matching block of the caller's own live documents (ecosystem admins: every document of the ecosystem), with a plain-text snippet. ${ranked}`,
        },
      },
    )
    .get(
      '/notes',
      async ({ tenant, query }) =>
        box.find<Static<typeof SearchNoteResult>>('notes', tenant, query.q, await box.language(tenant, query.language), pageParams(query)),
      {
        tenant: 'customer',
        query: SearchBoxQuery,
        response: { 200: paged(SearchNoteResult, 'SearchNotePage') },
        detail: {
          operationId: 'searchNotes',
          summary: "Full-text search of the caller's notes (title and body)",
          description: `The caller's own live notes. ${ranked}`,
        },
      },
    )
}
