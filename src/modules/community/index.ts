import { defineModule } from '../module'
import { replySearch, threadSearch } from './search'
import { COMMUNITY_ERRORS } from './errors'
import { changeSink } from '../../platform/changes'
import { resourceTopic } from '../../platform/crud/routes'
import { COMMUNITY_EVENTS, communityRowsChanged, COMMUNITY_AUDIT } from './events'
import { communityResources } from './resources'
import { communityRoutes } from './routes'
import { CommunityService } from './service'

export default defineModule({
  name: 'community',
  tags: {
    community: 'Categories, threads and replies with moderation, mentions, a points ledger, badges, levels and leaderboards.',
  },
  errors: COMMUNITY_ERRORS,
  events: COMMUNITY_EVENTS,
  audit: COMMUNITY_AUDIT,
  search: [threadSearch, replySearch],
  setup: (ctx) => {
    const community = new CommunityService(ctx.deps, ctx.bus, ctx.use('audit'))
    const changes = changeSink(ctx.bus, communityRowsChanged)
    return { topics: communityResources(community.hooks).map(resourceTopic), routes: () => [communityRoutes(community, ctx.guards, { ...ctx.deps, changes })] }
  },
})
