import { t } from 'elysia'
import { MEDIA_TYPE } from '../../platform/openapi'
import { ShutdownEvent } from '../../platform/shutdown'
import { MAX_BUFFER } from './subscription'
import { TICKET_TTL_SECONDS } from './tickets'

export const Cursor = t.String({ description: 'The cursor: send it back as Last-Event-ID (or `since`) to resume from here' })
export const RealtimeChange = t.Object(
  {
    topic: t.String({ description: 'The topic the row belongs to (without a `:` suffix)' }),
    op: t.Union([t.Literal('insert'), t.Literal('update'), t.Literal('delete'), t.Literal('leave')], {
      description: '`leave`: an update moved the row out of a filtered topic (drop it from that list; no record)',
    }),
    id: t.String({ description: 'The row’s id' }),
    record: t.Optional(t.Record(t.String(), t.Unknown(), { description: 'The row exactly as the topic’s list route returns it; absent on delete and leave' })),
    at: t.String({ description: 'When the writing transaction started (ISO 8601)' }),
  },
  { title: 'RealtimeChange' },
)
export const RealtimeEvent = t.Union(
  [
    t.Object(
      { event: t.Literal('ready'), id: Cursor, data: t.Object({ cursor: t.String() }) },
      {
        description:
          'First, on connecting: the cursor the stream starts from. Every change acknowledged before the stream’s request arrived is at or before it, every later one after it: open the stream, wait for `ready`, then load the lists, and each change is seen exactly once (in the list or on the stream)',
      },
    ),
    t.Object(
      { event: t.Literal('change'), id: Cursor, data: RealtimeChange },
      { description: 'A row of a subscribed topic was inserted, updated or deleted (soft deletes are deletes)' },
    ),
    t.Object(
      {
        event: t.Literal('reset'),
        id: Cursor,
        data: t.Object({ reason: t.Union([t.Literal('expired'), t.Literal('overflow'), t.Literal('unknown_cursor')]) }),
      },
      {
        description: `Reload the lists: \`expired\` — the cursor is older than the retention window (the stream goes on from now); \`unknown_cursor\` — this instance did not send that cursor (another epoch: the instance was restored or moved; an older version's form; or a place past its newest change), and the stream goes on from now; \`overflow\` — the client fell ${MAX_BUFFER} changes behind (the stream then ends; reconnect with this id)`,
      },
    ),
    t.Object(
      { event: t.Literal('error'), data: t.Object({ code: t.Union([t.Literal('unauthorized'), t.Literal('token_expired')]), message: t.String() }) },
      {
        description:
          'The access token expired or its session (or API token) was revoked: the stream ends; reconnect with a fresh token (or ticket) and the last id',
      },
    ),
    ShutdownEvent,
  ],
  {
    title: 'RealtimeStreamEvent',
    description: 'Server-sent events (text/event-stream); a `: ping` comment every 15 s of silence',
    [MEDIA_TYPE]: 'text/event-stream',
  },
)
export const Ticket = t.Object(
  { ticket: t.String({ description: 'Pass as `?ticket=` to one stream request' }), expiresAt: t.String({ description: `${TICKET_TTL_SECONDS} s from now` }) },
  { title: 'RealtimeTicket', examples: [{ ticket: 'rt_ZXhhbXBsZS10aWNrZXQtbm90LXJlYWwh', expiresAt: '2026-11-26T09:01:00.000Z' }] },
)
