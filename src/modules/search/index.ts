import { defineModule } from '../module'
import { SEARCH_ERRORS } from './errors'
import type { SearchSource } from '../../platform/fulltext'
import type { ModuleDefinition } from '../module'
import { SearchService } from './service'
import { searchRoutes } from './routes'

declare module '../module' {
  interface Services {
    search: SearchService
  }
}

export default defineModule({
  name: 'search',
  tags: {
    search: 'Full-text search of chat messages, community threads and replies, documents and notes, with per-ecosystem language settings.',
  },
  errors: SEARCH_ERRORS,
  setup: (ctx) => {
    const search = new SearchService(
      ctx.deps,
      ctx.modules.flatMap((m: ModuleDefinition): readonly SearchSource[] => m.search ?? []),
      ctx.use('persona').personas,
    )
    return { services: search, routes: () => [searchRoutes(search.messages, search.box, ctx.guards)] }
  },
})
