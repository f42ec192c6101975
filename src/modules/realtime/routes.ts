import { Elysia, sse, t } from 'elysia'
import type { TopicDefinition } from '../../platform/changes'
import type { Guards } from '../../platform/guards'
import { streamCredential } from '../../platform/tenancy'
import type { AccessTokens } from '../../platform/jwt'
import { shutdownEvent } from '../../platform/shutdown'
import { errors } from './errors'
import { cursorOf } from './cursor'
import type { Frame } from './subscription'
import { MAX_TOPICS, type RealtimeService } from './service'
import { RealtimeEvent, Ticket } from './model'
import { TICKET_TTL_SECONDS } from './tickets'

/** A comment line: proxies and Bun's idle timeout see traffic, EventSource ignores it (the typed union leaves it out). */
const HEARTBEAT = { toSSE: () => ': ping\n\n' } as never
/** A frame as the stream writes it. */
function render(frame: Frame, epoch: string) {
  switch (frame.kind) {
    case 'ready':
      return sse({ event: 'ready', id: cursorOf(epoch, frame.position), data: { cursor: cursorOf(epoch, frame.position) } })
    case 'change':
      return sse({ event: 'change', id: cursorOf(epoch, frame.position), data: frame.data })
    case 'reset':
      return sse({ event: 'reset', id: cursorOf(epoch, frame.position), data: { reason: frame.reason } })
    case 'closed':
      return sse({ event: 'error', data: { code: frame.code, message: frame.message } })
    case 'shutdown':
      return shutdownEvent()
  }
}

function topicList(topics: TopicDefinition[]): string {
  return topics
    .map(
      (d) =>
        `- \`${d.topic.endsWith('*') ? `${d.topic.slice(0, -1)}<name>` : d.topic}\`${d.keyedBy ? ` (or \`${d.topic}:<${d.keyedBy}>\`)` : ''}: ${d.description}`,
    )
    .join('\n')
}

/** Realtime change streams and their tickets (tag `realtime`). */
export function realtimeRoutes(realtime: RealtimeService, guards: Guards, tokens: AccessTokens, topics: TopicDefinition[]) {
  return new Elysia({ name: 'realtime', prefix: '/realtime', detail: { tags: ['realtime'] } })
    .use(guards.tenancy)
    .post('/tickets', async ({ tenant, headers }) => realtime.tickets.issue(tenant, await streamCredential(tenant, headers, tokens)), {
      tenant: 'customer',
      response: { 200: Ticket },
      detail: {
        operationId: 'realtimeTicket',
        summary: 'A single-use ticket to open one stream without a header',
        description: `For browsers’ EventSource, which cannot send Authorization: \`new EventSource('/realtime/stream?topics=…&ticket=' + ticket)\`. Valid ${TICKET_TTL_SECONDS} s and once, on any replica; bound to the caller, its ecosystem and its session (or API token), which the stream still ends with. Access tokens never go in URLs. Also accepted by \`GET /site/feed/stream\`. Anyone in the ecosystem.`,
      },
    })
    .get(
      '/stream',
      async function* ({ tenant, credential, query, headers, request }) {
        const sub = await realtime.subscribe(tenant, credential, query.topics, headers['last-event-id'] ?? query.since ?? null)
        for await (const frame of realtime.frames(sub, request.signal)) yield frame ? render(frame, realtime.epoch) : HEARTBEAT
      },
      {
        stream: 'customer',
        query: t.Object(
          {
            topics: t.String({
              minLength: 1,
              maxLength: 4000,
              description: `Comma-separated topics, 1 to ${MAX_TOPICS}: \`<topic>\`, \`<topic>:<key>\` where the topic says so, \`<topic>/<id>\` for one row, and any of them with \`?<filters>\` in the list grammar (URL-encode the whole parameter)`,
            }),
            since: t.Optional(t.String({ maxLength: 40, description: 'Resume after this cursor (as Last-Event-ID does; the header wins)' })),
          },
          { additionalProperties: true },
        ),
        response: { 200: RealtimeEvent, ...errors({ 400: ['unknown_topic', 'invalid_cursor'] }) },
        detail: {
          operationId: 'realtimeStream',
          summary: 'Changes to lists, live',
          description: `Server-sent events: \`ready\` on connecting, then a \`change\` for each row of the topics inserted, updated or deleted, on any replica, in commit order, each with \`id\` (a cursor, \`<epoch>.<pos>.<seq>\`). Reconnect with \`Last-Event-ID\` (EventSource does it by itself) or \`?since=\` to get every change since, without loss or repeats, while it is within REALTIME_RETENTION_HOURS (default 24); an older cursor gets \`reset\` (\`expired\`), and one this instance did not send (restored, moved, older version, or ahead of its newest change) \`reset\` (\`unknown_cursor\`). A subscriber receives a change only if the topic’s list route would show it that row (own rows, ecosystem, soft deletes as deletes), decided in memory.

Topics narrow: \`data/documents/<id>\` follows one row; \`data/documents?status=eq.open\` (the list grammar: the list route’s filterable fields and operators, \`or=(…)\` trees included; URL-encode the whole \`topics\` value) only rows that match, decided on the change’s record. A filter on a field the list route does not let the caller filter is 400 \`validation_failed\`. An update that moves a row out of a filtered topic arrives once as \`op: "leave"\`; a row moving in arrives as its update.

Changes are delivered in the order their transactions committed; a transaction left open anywhere (another database, idle in transaction, a long migration) delays no one else’s changes. The stream ends with \`error\` within 5 s of its access token expiring or its session being revoked, and with \`shutdown\` (and \`retry:\`) when the server stops.

Topics:
${topicList(topics)}`,
        },
      },
    )
}
