import { boolean, index, integer, jsonb, pgSchema, text, uuid } from 'drizzle-orm/pg-core'
import { timestampColumn as at } from '../../platform/crud/columns'
import { tenantColumns } from '../customer/schema'

export const integrationsSchema = pgSchema('integrations')

/** An ecosystem's outbound webhook endpoints; secrets are sealed with the server key. */
export const webhooks = integrationsSchema.table(
  'webhooks',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: tenantColumns.ecosystemId(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    description: text('description').notNull().default(''),
    secretSealed: text('secret_sealed').notNull(),
    /** After a rotation the old secret also signs, until `previousExpiresAt`. */
    previousSecretSealed: text('previous_secret_sealed'),
    previousExpiresAt: at('previous_expires_at'),
    /** Since when every delivery has failed; cleared by a success. */
    failingSince: at('failing_since'),
    disabledReason: text('disabled_reason'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [index('webhooks_ecosystem_idx').on(t.ecosystemId)],
)

/** One event for one endpoint; its id is the `webhook-id` of every attempt. */
export const deliveries = integrationsSchema.table(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    ecosystemId: tenantColumns.ecosystemId(),
    eventType: text('event_type').notNull(),
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    responseCode: integer('response_code'),
    latencyMs: integer('latency_ms'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('deliveries_webhook_idx').on(t.webhookId, t.createdAt.desc()),
    index('deliveries_webhook_status_idx').on(t.webhookId, t.status, t.createdAt.desc()),
  ],
)

/** Every attempt of a delivery, kept with it (manual retries add rounds; nothing is overwritten). */
export const deliveryAttempts = integrationsSchema.table(
  'delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => deliveries.id, { onDelete: 'cascade' }),
    attemptedAt: at('attempted_at').notNull(),
    responseCode: integer('response_code'),
    durationMs: integer('duration_ms'),
    error: text('error'),
    /** The first 1 KB of the receiver's answer (as text). */
    responseBody: text('response_body'),
  },
  (t) => [index('delivery_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
)
