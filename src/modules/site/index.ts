import { defineModule } from '../module'
import { SITE_ERRORS } from './errors'
import { entitlementsUpdated } from '../billing/events'
import { badgeEarned, replyReceived } from '../community/events'
import { memoryCreated } from '../persona_memory/events'
import { attachmentReady } from '../storage/events'
import { FeedService } from './feed'
import { feedRoutes } from './routes/feed'
import { pruneFeed } from './jobs'
import { siteRoutes } from './routes/services'
import { SiteServices } from './service'

declare module '../module' {
  interface Services {
    site: { sites: SiteServices; feed: FeedService }
  }
}

export default defineModule({
  name: 'site',
  tags: {
    site:
      'Site services of an ecosystem, the activity feed (paged and streamed), and version information.',
  },
  errors: SITE_ERRORS,
  jobs: [pruneFeed],
  setup: (ctx) => {
    const sites = new SiteServices(ctx.deps)
    const feed = new FeedService(ctx.deps)
    ctx.bus.on(attachmentReady, async (tx, { ecosystemId, payload: a }) => {
      if (!a.customerId) return
      await feed.record(tx, { ecosystemId, customerId: a.customerId, source: 'storage', entityType: 'attachment', entityId: a.id, action: 'ready', summary: `${a.filename} is uploaded and ready` })
    })
    ctx.bus.on(memoryCreated, async (tx, { ecosystemId, payload: m }) => {
      if (m.source !== 'tool' || !m.customerId) return
      const summary = `Saved to memory in chat: ${m.description}`.replace(/\s+/g, ' ').slice(0, 300)
      await feed.record(tx, { ecosystemId, customerId: m.customerId, source: 'persona_memory', entityType: 'memory', entityId: m.id, action: 'saved', summary, metadata: { personaId: m.personaId } })
    })
    ctx.bus.on(replyReceived, (tx, { ecosystemId, payload: r }) =>
      feed.record(tx, { ecosystemId, customerId: r.threadAuthorId, source: 'community', entityType: 'reply', entityId: r.replyId, action: 'created', summary: `New reply to your thread “${r.threadTitle}”`, actorId: r.authorId, metadata: { threadId: r.threadId } }),
    )
    ctx.bus.on(badgeEarned, (tx, { ecosystemId, payload: b }) =>
      feed.record(tx, { ecosystemId, customerId: b.customerId, source: 'community', entityType: 'badge', entityId: b.badgeId, action: 'earned', summary: `You earned the badge “${b.name}”` }),
    )
    ctx.bus.on(entitlementsUpdated, (tx, { ecosystemId, payload: e }) =>
      feed.record(tx, { ecosystemId, customerId: e.customerId, source: 'billing', entityType: 'plan', entityId: e.plan, action: 'changed', summary: e.plan ? `Your plan is now ${e.plan}` : 'You have no plan now', metadata: { source: e.source } }),
    )
    return { services: { sites, feed }, routes: () => [siteRoutes(sites, ctx.guards), feedRoutes(feed, ctx.guards)], listen: () => feed.listen() }
  },
})
