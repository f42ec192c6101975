import { Type as T } from '@sinclair/typebox'
import type { Tenant } from '../../../platform/tenancy'
import { defineTool } from './registry'

export interface ConversationHit {
  conversationId: string
  conversationTitle: string
  role: 'user' | 'assistant'
  snippet: string
  createdAt: string
}

/**
 * What chat needs from search: full-text search over the customer's other conversations. The
 * search area implements it; app.ts passes it to ChatService.
 */
export interface ConversationSearch {
  conversations(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, query: string, limit: number, excludeConversationId: string): Promise<ConversationHit[]>
}

/** `search`: finds what the user and the assistant said in the user's earlier conversations. */
export function searchTool(search: ConversationSearch) {
  return defineTool({
    name: 'search',
    description:
      "Full-text search of this user's earlier conversations with you (not the current one). Use it when the user refers to something discussed before. Returns matching excerpts, best first.",
    parameters: T.Object({
      query: T.String({ minLength: 1, maxLength: 200, description: 'Keywords to look for; every word must occur (prefixes match)' }),
      limit: T.Optional(T.Integer({ minimum: 1, maximum: 20, description: 'At most this many excerpts (default 5)' })),
    }),
    async run(args, context) {
      return { results: await search.conversations(context.tenant, args.query, args.limit ?? 5, context.conversationId) }
    },
  })
}
