import { defineModule } from '../module'
import { SITE_AUDIT } from './events'
import { SITE_ERRORS } from './errors'
import { pruneFeed } from './jobs'
import { siteAreaRoutes } from './routes'
import { SiteService } from './service'
import { SITE_SUBSCRIPTIONS } from './subscriptions'

declare module '../module' {
  interface Services {
    site: SiteService
  }
}

export default defineModule({
  name: 'site',
  tags: {
    site: 'Site services of an ecosystem, the activity feed (paged and streamed), and version information.',
  },
  errors: SITE_ERRORS,
  audit: SITE_AUDIT,
  jobs: [pruneFeed],
  subscriptions: SITE_SUBSCRIPTIONS,
  setup: (ctx) => {
    const site = new SiteService(ctx.deps, ctx.use('audit'))
    return { services: site, routes: () => siteAreaRoutes(site, ctx.guards), listen: () => site.feed.listen() }
  },
})
