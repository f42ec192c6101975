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

export interface ThreadHit {
  threadId: string
  title: string
  snippet: string
  createdAt: string
}

/**
 * What chat needs from search: full-text search over the customer's other conversations, and over
 * the ecosystem's community threads where the persona allows it. The search area implements it;
 * app.ts passes it to ChatService.
 */
export interface ConversationSearch {
  conversations(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, query: string, limit: number, excludeConversationId: string): Promise<ConversationHit[]>
  /** Null when the persona (or a conversation without one) may not search the community. */
  threads?(tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>, personaId: string | null, query: string, limit: number): Promise<ThreadHit[] | null>
}

/**
 * `search`: finds what the user and the assistant said in the user's earlier conversations, or,
 * with `in: "community"` and a persona that allows it (`searchCommunity`), the ecosystem's
 * community threads.
 */
export function searchTool(search: ConversationSearch) {
  return defineTool({
    name: 'search',
    description:
      'Full-text search of this user\'s earlier conversations with you (not the current one), or with in="community" of the community\'s discussion threads where you are allowed to. Use it when the user refers to something discussed before. Returns matching excerpts, best first.',
    parameters: T.Object({
      query: T.String({ minLength: 1, maxLength: 200, description: 'Keywords to look for; every word must occur (prefixes match)' }),
      limit: T.Optional(T.Integer({ minimum: 1, maximum: 20, description: 'At most this many excerpts (default 5)' })),
      in: T.Optional(T.Union([T.Literal('conversations'), T.Literal('community')], { description: 'What to search (default conversations)' })),
    }),
    async run(args, context) {
      const limit = args.limit ?? 5
      if (args.in !== 'community') return { results: await search.conversations(context.tenant, args.query, limit, context.conversationId) }
      const threads = (await search.threads?.(context.tenant, context.personaId, args.query, limit)) ?? null
      if (threads === null) throw new Error('this persona may not search the community')
      return { results: threads }
    },
  })
}
