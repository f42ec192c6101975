import { defineModule } from '../module'
import { SEARCH_ERRORS } from './errors'
import { ChatMessageSearch, type ConversationSearch } from '../chat/service'
import type { SearchSource } from '../../platform/fulltext'
import type { ModuleDefinition } from '../module'
import { SearchBox } from './service'
import { conversationSearchFor } from './chat-tools'
import { searchRoutes } from './routes'

declare module '../module' {
  interface Services {
    search: { chatTools: ConversationSearch }
  }
}

export default defineModule({
  name: 'search',
  tags: {
    search:
      'Full-text search of chat messages, community threads and replies, documents and notes, with per-ecosystem language settings.',
  },
  errors: SEARCH_ERRORS,
  setup: (ctx) => {
    const messages = new ChatMessageSearch(ctx.deps)
    const box = new SearchBox(ctx.deps, ctx.modules.flatMap((m: ModuleDefinition): readonly SearchSource[] => m.search ?? []))
    return { services: { chatTools: conversationSearchFor(messages, box, ctx.use('persona').personas) }, routes: () => [searchRoutes(messages, box, ctx.guards)] }
  },
})
