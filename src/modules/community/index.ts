import { defineModule } from '../module'
import { replySearch, threadSearch } from './search'
import { COMMUNITY_ERRORS } from './errors'
import { COMMUNITY_EVENTS } from './events'
import { communityRoutes } from './routes'
import { CommunityService } from './service'

export default defineModule({
  name: 'community',
  tags: {
    community:
      'Categories, threads and replies with moderation, mentions, a points ledger, badges, levels and leaderboards.',
  },
  errors: COMMUNITY_ERRORS,
  events: COMMUNITY_EVENTS,
  search: [threadSearch, replySearch],
  setup: (ctx) => {
    const community = new CommunityService(ctx.deps, ctx.bus)
    return { routes: () => [communityRoutes(community, ctx.guards, ctx.deps)] }
  },
})
