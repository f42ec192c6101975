import { type TSchema, t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { paged } from '../../platform/paging'

const Uuid = t.String({ format: 'uuid' })
const NullableString = t.Union([t.String(), t.Null()])

/** Every event type with what its `data` holds; the OpenAPI document publishes them under `webhooks`. */
export const EVENT_CATALOGUE = {
  'customer.created': {
    description: 'A customer was registered or first resolved by its externalId (not a team member’s own record).',
    data: t.Object({ id: t.String(), externalId: NullableString, email: NullableString, name: NullableString, createdAt: t.String() }),
  },
  'customer.deleted': { description: 'A customer was deleted, with everything it owned.', data: t.Object({ id: t.String() }) },
  'chat.message.completed': {
    description: 'A chat turn stored its reply; `status` is `complete`, `cancelled` or `failed`.',
    data: t.Object({ conversationId: t.String(), messageId: t.String(), customerId: t.String(), status: t.String() }),
  },
  'storage.attachment.ready': {
    description: 'An upload completed and counts toward its owner’s quota.',
    data: t.Object({ id: t.String(), customerId: NullableString, filename: t.String(), contentType: t.String(), sizeBytes: t.Integer() }),
  },
  'community.thread.created': {
    description: 'A thread was started.',
    data: t.Object({ id: t.String(), categoryId: t.String(), customerId: t.String(), title: t.String() }),
  },
  'community.reply.created': { description: 'A reply was posted.', data: t.Object({ id: t.String(), threadId: t.String(), customerId: t.String() }) },
  'messaging.sent': {
    description: 'An e-mail or SMS was accepted by the provider (or written to the local outbox).',
    data: t.Object({ logId: t.String(), customerId: t.String(), channel: t.String(), templateId: NullableString }),
  },
  'messaging.failed': {
    description: 'The provider refused an e-mail or SMS, or could not be reached.',
    data: t.Object({ logId: t.String(), customerId: t.String(), channel: t.String(), templateId: NullableString, error: t.String() }),
  },
  'monitored_site.down': {
    description: 'A monitored site failed two checks in a row.',
    data: t.Object({ siteId: t.String(), name: t.String(), url: t.String(), error: NullableString, statusCode: t.Union([t.Integer(), t.Null()]) }),
  },
  'monitored_site.up': {
    description: 'A monitored site that was down answered as expected again.',
    data: t.Object({ siteId: t.String(), name: t.String(), url: t.String(), statusCode: t.Union([t.Integer(), t.Null()]) }),
  },
  'webhook.test': { description: 'Sent by `POST /integrations/webhooks/{id}/test`, subscribed or not.', data: t.Object({ webhookId: t.String() }) },
} as const satisfies Record<string, { description: string; data: TSchema }>

export type EventType = keyof typeof EVENT_CATALOGUE
export const EVENTS = Object.keys(EVENT_CATALOGUE) as EventType[]

const HEADERS =
  'Standard Webhooks: `webhook-id` (the delivery id, the same on every attempt: deduplicate on it), `webhook-timestamp` (Unix seconds; refuse old ones), `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret’s base64 part after `whsec_`; during the 24 h after a rotation two signatures, space-separated). Answer 2xx within 10 s.'

/** The plugin's types know no `webhooks` key, but it copies every key of the documentation into the document. */
type WebhooksSection = Record<string, never>

/** The `webhooks` section of the OpenAPI 3.1 document: one POST per event type, as receivers get it. */
export function webhooksDocumentation(): WebhooksSection {
  const section = Object.fromEntries(
    Object.entries(EVENT_CATALOGUE).map(([type, event]) => [
      type,
      {
        post: {
          tags: ['integrations'],
          operationId: `webhook${type.split(/[._]/).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')}`,
          summary: type,
          description: `${event.description} ${HEADERS}`,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: t.Object({ type: t.Literal(type), timestamp: t.String({ description: 'When the event happened (ISO 8601)' }), data: event.data }, { title: `WebhookEvent ${type}` }),
              },
            },
          },
          responses: { '200': { description: 'Any 2xx acknowledges the delivery; anything else, or no answer within 10 s, is retried' } },
        },
      },
    ]),
  )
  return section as unknown as WebhooksSection
}

const EventName = t.String({ description: `One of: ${EVENTS.filter((e) => e !== 'webhook.test').join(', ')}` })
const webhookFields = {
  url: t.String({
    maxLength: 2000,
    format: 'uri',
    description: 'https; http only to a private (e.g. loopback) address where the instance allows them (WEBHOOK_PRIVATE_ADDRESSES=allow). Its host is checked when saved (400 `validation_failed` for a private address, or a name resolving to one, under the default deny; link-local and metadata addresses always) and at every delivery, which connects to the address checked. Redirects are not followed.',
  }),
  events: t.Array(EventName, { maxItems: EVENTS.length, description: 'Event types sent to this endpoint (none: it only gets what POST …/test sends)' }),
  enabled: t.Optional(t.Boolean({ default: true })),
  description: t.Optional(t.String({ maxLength: 500 })),
}
export const WebhookCreate = t.Object(webhookFields, { title: 'WebhookCreate' })
export const WebhookPatch = t.Partial(t.Object(webhookFields), { title: 'WebhookPatch', description: '`enabled: true` also clears `disabledReason`' })

export const Webhook = t.Object(
  {
    id: t.String(),
    url: t.String(),
    events: t.Array(t.String()),
    enabled: t.Boolean(),
    description: t.String(),
    disabledReason: t.Union([t.String(), t.Null()], { description: 'Why the service turned it off (every delivery failing for 3 days)' }),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'Webhook' },
)
export const WebhookWithSecret = t.Composite([Webhook, t.Object({ secret: t.String({ description: 'The signing secret (`whsec_…`): shown in this answer only' }) })], {
  title: 'WebhookWithSecret',
})
export const WebhookList = t.Object({ items: t.Array(Webhook) }, { title: 'WebhookList' })
export const WebhookEventTypes = t.Object({ items: t.Array(t.Object({ type: t.String(), description: t.String() })) }, { title: 'WebhookEventTypes' })

export const WebhookDelivery = t.Object(
  {
    id: t.String({ description: 'Also the `webhook-id` header of every attempt' }),
    webhookId: t.String(),
    eventType: t.String(),
    status: t.Union([t.Literal('pending'), t.Literal('succeeded'), t.Literal('failed')], {
      description: '`pending` while attempts remain (13 attempts, 1 min doubling to 6 h apart: about a day), then `failed`',
    }),
    attempts: t.Integer(),
    responseCode: t.Union([t.Integer(), t.Null()]),
    latencyMs: t.Union([t.Integer(), t.Null()]),
    lastError: t.Union([t.String(), t.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'WebhookDelivery' },
)
export const WebhookDeliveryPage = paged(WebhookDelivery, 'WebhookDeliveryPage')
export const DeliveryIds = t.Object({ id: Uuid, deliveryId: Uuid }, { title: 'WebhookDeliveryIds' })
