import { Elysia, sse, t } from 'elysia'
import { shutdownEvent, ShutdownEvent } from '../../../platform/shutdown'
import type { Guards } from '../../../platform/guards'
import { MEDIA_TYPE } from '../../../platform/openapi'
import { pageParams, PageQuery, paged } from '../../../platform/paging'
import type { FeedService } from '../feed'
import { IdParam } from '../../../platform/params'

const Nullable = (description?: string) => t.Optional(t.Union([t.String(), t.Null()], description ? { description } : {}))
export const SiteFeedItem = t.Object(
  {
    id: t.String(),
    customerId: t.String(),
    ownerId: t.String({ description: 'The ecosystem id' }),
    source: t.String({ description: 'The area: `community`, `storage`, `persona_memory`, …' }),
    entityType: t.String(),
    entityId: Nullable(),
    action: t.String(),
    summary: t.String({ description: 'One line a person reads' }),
    actorId: Nullable('Who caused it, when someone did'),
    metadata: Nullable('JSON text with details'),
    isRead: t.Boolean(),
    createdAt: t.String(),
    deletedAt: Nullable(),
  },
  {
    title: 'SiteFeedItem',
    examples: [
      {
        id: 'f0e1d2c3-b4a5-4968-8776-655443322110',
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        source: 'community',
        entityType: 'reply',
        entityId: '4f3e2d1c-0b9a-4c8d-b7e6-a5f4c3b2d1e0',
        action: 'created',
        summary: 'New reply to your thread “Best cafés near the river?”',
        actorId: '7b6a5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2e',
        metadata: '{"threadId":"8d7c6b5a-4938-4271-8f6e-5d4c3b2a1908"}',
        isRead: false,
        createdAt: '2026-11-26T09:30:00.000Z',
        deletedAt: null,
      },
    ],
  },
)
const SiteFeedEvent = t.Union(
  [
    t.Object(
      { event: t.Literal('item'), id: t.String({ description: 'Send it back as Last-Event-ID to resume' }), data: SiteFeedItem },
      { description: 'A new item' },
    ),
    t.Object(
      { event: t.Literal('ping'), data: t.Object({}) },
      { description: 'On connecting, then every 25 s while nothing happens, so proxies keep the connection' },
    ),
    ShutdownEvent,
  ],
  { title: 'SiteFeedStreamEvent', description: 'Server-sent events (text/event-stream)', [MEDIA_TYPE]: 'text/event-stream' },
)

const OWN = 'The calling customer’s own items (a team member acts through its own customer record).'

/** The site activity feed (tag `site`). */
export function feedRoutes(feed: FeedService, guards: Guards) {
  return new Elysia({ name: 'site-feed', prefix: '/site/feed', detail: { tags: ['site'] } })
    .use(guards.tenancy)
    .get('', ({ tenant, query }) => feed.list(tenant, query, pageParams(query)), {
      tenant: 'customer',
      query: t.Composite([t.Object({ unread: t.Optional(t.Boolean()), source: t.Optional(t.String({ maxLength: 50 })) }), PageQuery]),
      response: { 200: paged(SiteFeedItem, 'SiteFeedPage') },
      detail: {
        operationId: 'siteFeed',
        summary: 'Activity items, newest first',
        description: `Written by the areas with the change they describe: an attachment became ready (storage), a reply to your thread and a badge earned (community), a memory saved by a chat persona (persona_memory), a change of your billing plan (billing); for ecosystem admins also a monitored site down or up (monitored_sites) and a webhook endpoint turned off (integrations). Read items are pruned FEED_RETENTION_DAYS after they were read. ${OWN}`,
      },
    })
    .get('/unread-count', ({ tenant }) => feed.unreadCount(tenant), {
      tenant: 'customer',
      response: { 200: t.Object({ count: t.Integer() }, { title: 'SiteFeedUnreadCount', examples: [{ count: 3 }] }) },
      detail: { operationId: 'siteFeedUnreadCount', summary: 'How many items are unread', description: OWN },
    })
    .post('/read-all', ({ tenant }) => feed.markAllRead(tenant), {
      tenant: 'customer',
      response: { 200: t.Object({ updated: t.Integer() }, { title: 'SiteFeedReadAllResult', examples: [{ updated: 3 }] }) },
      detail: { operationId: 'siteFeedReadAll', summary: 'Mark every item read', description: OWN },
    })
    .get(
      '/stream',
      async function* ({ tenant, headers, request, set }) {
        set.headers['x-accel-buffering'] = 'no'
        // The response starts with its first event: a ping at once, so the client knows it is connected.
        yield sse({ event: 'ping', data: {} })
        const last = Number(headers['last-event-id'])
        for await (const next of feed.stream(tenant, Number.isSafeInteger(last) && last >= 0 ? last : null, request.signal)) {
          yield next === 'shutdown' ? shutdownEvent() : next ? sse({ event: 'item', id: String(next.seq), data: next.item }) : sse({ event: 'ping', data: {} })
        }
      },
      {
        stream: 'customer',
        response: { 200: SiteFeedEvent },
        detail: {
          operationId: 'siteFeedStream',
          summary: 'New items, live',
          description: `Server-sent events: \`item\` for each new item as it is written (on any replica: PostgreSQL LISTEN/NOTIFY), with \`id\`; reconnect with \`Last-Event-ID\` to get every item written since, then live. \`ping\` on connecting and every 25 s. ${OWN}`,
        },
      },
    )
    .post('/:id/read', ({ tenant, params }) => feed.markRead(tenant, params.id), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: SiteFeedItem },
      detail: { operationId: 'siteFeedRead', summary: 'Mark an item read', description: OWN },
    })
}
