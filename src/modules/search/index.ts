import { defineModule } from '../module'
import { SEARCH_ERRORS } from './errors'
import type { ConversationSearch } from '../chat/service'
import { SearchBox } from './box'
import { conversationSearchFor } from './chat-tools'
import { searchRoutes } from './routes'
import { SearchService } from './service'

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
    const search = new SearchService(ctx.deps)
    const box = new SearchBox(ctx.deps)
    return { services: { chatTools: conversationSearchFor(search, box, ctx.use('persona').personas) }, routes: () => [searchRoutes(search, box, ctx.guards)] }
  },
})
