import { entitlementsUpdated } from '../billing/events'
import { badgeEarned, replyReceived } from '../community/events'
import { subscriber } from '../module'
import { memoryCreated } from '../persona_memory/events'
import { attachmentReady } from '../storage/events'
import type { SiteService } from './service'

const { on } = subscriber<SiteService>()

/** What lands in a customer's activity feed, written in the transaction of the change. */
export const SITE_SUBSCRIPTIONS = [
  on(attachmentReady, "a feed item for the customer's upload", ({ feed }) => async (tx, { ecosystemId, payload: a }) => {
    if (!a.customerId) return
    await feed.record(tx, {
      ecosystemId,
      customerId: a.customerId,
      source: 'storage',
      entityType: 'attachment',
      entityId: a.id,
      action: 'ready',
      summary: `${a.filename} is uploaded and ready`,
    })
  }),
  on(memoryCreated, 'a feed item for a memory saved in chat', ({ feed }) => async (tx, { ecosystemId, payload: m }) => {
    if (m.source !== 'tool' || !m.customerId) return
    const summary = `Saved to memory in chat: ${m.description}`.replace(/\s+/g, ' ').slice(0, 300)
    await feed.record(tx, {
      ecosystemId,
      customerId: m.customerId,
      source: 'persona_memory',
      entityType: 'memory',
      entityId: m.id,
      action: 'saved',
      summary,
      metadata: { personaId: m.personaId },
    })
  }),
  on(
    replyReceived,
    "a feed item for the thread's author",
    ({ feed }) =>
      (tx, { ecosystemId, payload: r }) =>
        feed.record(tx, {
          ecosystemId,
          customerId: r.threadAuthorId,
          source: 'community',
          entityType: 'reply',
          entityId: r.replyId,
          action: 'created',
          summary: `New reply to your thread “${r.threadTitle}”`,
          actorId: r.authorId,
          metadata: { threadId: r.threadId },
        }),
  ),
  on(
    badgeEarned,
    'a feed item for the customer',
    ({ feed }) =>
      (tx, { ecosystemId, payload: b }) =>
        feed.record(tx, {
          ecosystemId,
          customerId: b.customerId,
          source: 'community',
          entityType: 'badge',
          entityId: b.badgeId,
          action: 'earned',
          summary: `You earned the badge “${b.name}”`,
        }),
  ),
  on(
    entitlementsUpdated,
    'a feed item for the customer',
    ({ feed }) =>
      (tx, { ecosystemId, payload: e }) =>
        feed.record(tx, {
          ecosystemId,
          customerId: e.customerId,
          source: 'billing',
          entityType: 'plan',
          entityId: e.plan,
          action: 'changed',
          summary: e.plan ? `Your plan is now ${e.plan}` : 'You have no plan now',
          metadata: { source: e.source },
        }),
  ),
]
