import { type TSchema, t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import type { EventDefinition } from '../../platform/events'
import { PageQuery, paged } from '../../platform/paging'
import { Int } from '../../platform/numbers'

const Uuid = t.String({ format: 'uuid' })

/** What a webhook event's `data` holds, by type. */
export type WebhookCatalogue = Record<string, { description: string; data: TSchema }>

/** Sent by `POST /integrations/webhooks/{id}/test` only: not a domain event. */
export const TEST_EVENT = 'webhook.test'

/**
 * The webhook event types: every domain event that names a `webhook` type (its payload is the
 * `data`), in module order, then `webhook.test`. The OpenAPI document publishes them under `webhooks`.
 */
export function webhookCatalogue(events: readonly EventDefinition[]): WebhookCatalogue {
  const catalogue: WebhookCatalogue = {}
  for (const event of events) if (event.webhook) catalogue[event.webhook] = { description: event.description, data: event.payload }
  catalogue[TEST_EVENT] = { description: 'Sent by `POST /integrations/webhooks/{id}/test`, subscribed or not.', data: t.Object({ webhookId: t.String() }) }
  return catalogue
}

/** The types an endpoint may subscribe to: all but `webhook.test`. */
export const subscribable = (catalogue: WebhookCatalogue) => Object.keys(catalogue).filter((type) => type !== TEST_EVENT)

const HEADERS =
  'Standard Webhooks: `webhook-id` (the delivery id, the same on every attempt: deduplicate on it), `webhook-timestamp` (Unix seconds; refuse old ones), `webhook-signature` (`v1,` + base64 HMAC-SHA256 of `id.timestamp.body` keyed by the secret’s base64 part after `whsec_`; during the 24 h after a rotation two signatures, space-separated). Answer 2xx within 10 s.'

/** The plugin's types know no `webhooks` key, but it copies every key of the documentation into the document. */
type WebhooksSection = Record<string, never>

/** The `webhooks` section of the OpenAPI 3.1 document: one POST per event type, as receivers get it. */
export function webhooksDocumentation(catalogue: WebhookCatalogue): WebhooksSection {
  const section = Object.fromEntries(
    Object.entries(catalogue).map(([type, event]) => [
      type,
      {
        post: {
          tags: ['integrations'],
          operationId: `webhook${type
            .split(/[._]/)
            .map((w) => w[0]!.toUpperCase() + w.slice(1))
            .join('')}`,
          summary: type,
          description: `${event.description} ${HEADERS}`,
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: t.Object(
                  { type: t.Literal(type), timestamp: t.String({ description: 'When the event happened (ISO 8601)' }), data: event.data },
                  { title: `WebhookEvent ${type}` },
                ),
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

const webhookFields = (types: string[]) => ({
  url: t.String({
    maxLength: 2000,
    format: 'uri',
    description:
      'https; http only to a private (e.g. loopback) address where the instance allows them (WEBHOOK_PRIVATE_ADDRESSES=allow). Its host is checked when saved (400 `validation_failed` for a private address, or a name resolving to one, under the default deny; link-local and metadata addresses always) and at every delivery, which connects to the address checked. Redirects are not followed.',
  }),
  events: t.Array(t.String({ description: `One of: ${types.join(', ')}` }), {
    maxItems: types.length,
    description: 'Event types sent to this endpoint (none: it only gets what POST …/test sends)',
  }),
  enabled: t.Optional(t.Boolean({ default: true })),
  description: t.Optional(t.String({ maxLength: 500 })),
})

/** The bodies that name event types, whose descriptions list the types this app has (`subscribable`). */
export function webhookBodies(types: string[]) {
  const fields = webhookFields(types)
  return {
    WebhookCreate: t.Object(fields, {
      title: 'WebhookCreate',
      examples: [{ url: 'https://hooks.example.com/ecobase', events: ['customer.created', 'community.thread.created'], description: 'CRM sync' }],
    }),
    WebhookPatch: t.Partial(t.Object(fields), {
      title: 'WebhookPatch',
      examples: [{ enabled: false, description: 'CRM sync (paused)' }],
      description: '`enabled: true` also clears `disabledReason`',
    }),
  }
}

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
  {
    title: 'Webhook',
    examples: [
      {
        id: 'c9b8a796-8574-4362-9150-4f3e2d1c0b9a',
        url: 'https://hooks.example.com/ecobase',
        events: ['customer.created', 'community.thread.created'],
        enabled: true,
        description: 'CRM sync',
        disabledReason: null,
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const WebhookWithSecret = t.Composite(
  [Webhook, t.Object({ secret: t.String({ description: 'The signing secret (`whsec_…`): shown in this answer only' }) })],
  {
    title: 'WebhookWithSecret',
    examples: [{ ...Webhook.examples[0], secret: 'whsec_ZXhhbXBsZS1vbmx5LW5vdC1hLXJlYWwta2V5' }],
  },
)
export const WebhookPage = paged(Webhook, 'WebhookPage')
export const WebhookEventTypes = t.Object(
  { items: t.Array(t.Object({ type: t.String(), description: t.String() })) },
  {
    title: 'WebhookEventTypes',
    examples: [
      {
        items: [
          { type: 'customer.created', description: 'A customer was registered or first resolved by its externalId (not a team member’s own record).' },
          { type: 'community.thread.created', description: 'A thread was started.' },
        ],
      },
    ],
  },
)

const DELIVERY_EXAMPLE = {
  id: '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d',
  webhookId: 'c9b8a796-8574-4362-9150-4f3e2d1c0b9a',
  eventType: 'customer.created',
  status: 'succeeded',
  attempts: 1,
  responseCode: 200,
  latencyMs: 184,
  lastError: null,
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:01.000Z',
}
export const WebhookDelivery = t.Object(
  {
    id: t.String({ description: 'Also the `webhook-id` header of every attempt' }),
    webhookId: t.String(),
    eventType: t.String(),
    status: t.Union([t.Literal('pending'), t.Literal('succeeded'), t.Literal('failed')], {
      description: '`pending` while attempts remain (13 attempts, 1 min doubling to 6 h apart: about a day), then `failed`',
    }),
    attempts: Int(),
    responseCode: t.Union([Int(), t.Null()]),
    latencyMs: t.Union([Int(), t.Null()]),
    lastError: t.Union([t.String(), t.Null()]),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  },
  { title: 'WebhookDelivery', examples: [DELIVERY_EXAMPLE] },
)
export const WebhookDeliveryPage = paged(WebhookDelivery, 'WebhookDeliveryPage')

export const DeliveryStatus = t.Union([t.Literal('pending'), t.Literal('succeeded'), t.Literal('failed')])
export const DeliveryListQuery = t.Composite([PageQuery, t.Object({ status: t.Optional(DeliveryStatus) })])

export const WebhookDeliveryAttempt = t.Object(
  {
    attemptedAt: Timestamp,
    responseCode: t.Union([Int(), t.Null()], { description: 'The receiver’s status code; null when it did not answer' }),
    durationMs: t.Union([Int(), t.Null()]),
    error: t.Union([t.String(), t.Null()], { description: 'Why the attempt failed (null when it succeeded)' }),
    responseBody: t.Union([t.String(), t.Null()], { description: 'The first 1 KB of the answer, as text' }),
  },
  { title: 'WebhookDeliveryAttempt' },
)
export const WebhookDeliveryDetail = t.Composite(
  [
    WebhookDelivery,
    t.Object({
      payload: t.String({ description: 'The body every attempt sent' }),
      history: t.Array(WebhookDeliveryAttempt, { description: 'Every attempt, oldest first, across manual retries' }),
    }),
  ],
  {
    title: 'WebhookDeliveryDetail',
    examples: [
      {
        ...DELIVERY_EXAMPLE,
        payload:
          '{"type":"customer.created","timestamp":"2026-11-26T09:00:00.000Z","data":{"id":"5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170","externalId":"user-42","email":"grace@example.com","name":"Grace Hopper","createdAt":"2026-11-26T09:00:00.000Z"}}',
        history: [{ attemptedAt: '2026-11-26T09:00:01.000Z', responseCode: 200, durationMs: 184, error: null, responseBody: '{"ok":true}' }],
      },
    ],
  },
)
export const DeliveryIds = t.Object({ id: Uuid, deliveryId: Uuid }, { title: 'WebhookDeliveryIds' })
