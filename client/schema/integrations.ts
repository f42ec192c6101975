// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface WebhookEventTypes {
  items: {
    type: string
    description: string
  }[]
}

export interface Webhook {
  id: string
  url: string
  events: string[]
  enabled: boolean
  description: string
  /** Why the service turned it off (every delivery failing for 3 days) */
  disabledReason: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface WebhookPage {
  items: Webhook[]
  total: number
  page: number
  pageSize: number
}

export interface WebhookCreate {
  /** https; http only to a private (e.g. loopback) address where the instance allows them (WEBHOOK_PRIVATE_ADDRESSES=allow). Its host is checked when saved (400 `validation_failed` for a private address, or a name resolving to one, under the default deny; link-local and metadata addresses always) and at every delivery, which connects to the address checked. Redirects are not followed. */
  url: string
  /** Event types sent to this endpoint (none: it only gets what POST …/test sends) */
  events: string[]
  enabled?: boolean
  description?: string
}

export interface WebhookWithSecret {
  id: string
  url: string
  events: string[]
  enabled: boolean
  description: string
  /** Why the service turned it off (every delivery failing for 3 days) */
  disabledReason: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  /** The signing secret (`whsec_…`): shown in this answer only */
  secret: string
}

/** `enabled: true` also clears `disabledReason` */
export interface WebhookPatch {
  /** https; http only to a private (e.g. loopback) address where the instance allows them (WEBHOOK_PRIVATE_ADDRESSES=allow). Its host is checked when saved (400 `validation_failed` for a private address, or a name resolving to one, under the default deny; link-local and metadata addresses always) and at every delivery, which connects to the address checked. Redirects are not followed. */
  url?: string
  /** Event types sent to this endpoint (none: it only gets what POST …/test sends) */
  events?: string[]
  enabled?: boolean
  description?: string
}

export interface WebhookDelivery {
  /** Also the `webhook-id` header of every attempt */
  id: string
  webhookId: string
  eventType: string
  status: "pending" | "succeeded" | "failed"
  attempts: number
  responseCode: number | null
  latencyMs: number | null
  lastError: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
}

export interface WebhookDeliveryPage {
  items: WebhookDelivery[]
  total: number
  page: number
  pageSize: number
}

export interface WebhookDeliveryAttempt {
  /** ISO 8601, UTC */
  attemptedAt: string
  /** The receiver’s status code; null when it did not answer */
  responseCode: number | null
  durationMs: number | null
  /** Why the attempt failed (null when it succeeded) */
  error: string | null
  /** The first 1 KB of the answer, as text */
  responseBody: string | null
}

export interface WebhookDeliveryDetail {
  /** Also the `webhook-id` header of every attempt */
  id: string
  webhookId: string
  eventType: string
  status: "pending" | "succeeded" | "failed"
  attempts: number
  responseCode: number | null
  latencyMs: number | null
  lastError: string | null
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  /** The body every attempt sent */
  payload: string
  /** Every attempt, oldest first, across manual retries */
  history: WebhookDeliveryAttempt[]
}

export interface WebhookEventCustomerCreated {
  type: "customer.created"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    externalId: string | null
    email: string | null
    name: string | null
    createdAt: string
  }
}

export interface WebhookEventCustomerDeleted {
  type: "customer.deleted"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
  }
}

export interface WebhookEventStorageAttachmentReady {
  type: "storage.attachment.ready"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    customerId: string | null
    filename: string
    contentType: string
    sizeBytes: number
  }
}

export interface WebhookEventChatMessageCompleted {
  type: "chat.message.completed"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    conversationId: string
    messageId: string
    customerId: string
    status: string
  }
}

export interface WebhookEventMessagingSent {
  type: "messaging.sent"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    logId: string
    customerId: string
    channel: string
    templateId: string | null
  }
}

export interface WebhookEventMessagingFailed {
  type: "messaging.failed"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    logId: string
    customerId: string
    channel: string
    templateId: string | null
    error: string
  }
}

export interface WebhookEventCommunityThreadCreated {
  type: "community.thread.created"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    categoryId: string
    customerId: string
    title: string
  }
}

export interface WebhookEventCommunityReplyCreated {
  type: "community.reply.created"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    id: string
    threadId: string
    customerId: string
  }
}

export interface WebhookEventMonitoredSiteDown {
  type: "monitored_site.down"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    siteId: string
    name: string
    url: string
    error: string | null
    statusCode: number | null
    /** Failed checks in a row */
    failures: number
  }
}

export interface WebhookEventMonitoredSiteUp {
  type: "monitored_site.up"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    siteId: string
    name: string
    url: string
    statusCode: number | null
  }
}

export interface WebhookEventBillingSubscriptionUpdated {
  type: "billing.subscription.updated"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    customerId: string
    subscriptionId: string
    plan: string | null
    status: string
    cancelAtPeriodEnd: boolean
    currentPeriodEnd: string | null
  }
}

export interface WebhookEventBillingEntitlementsUpdated {
  type: "billing.entitlements.updated"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    customerId: string
    plan: string | null
    source: "default" | "manual" | "stripe"
  }
}

export interface WebhookEventBillingSubscriptionUnmatched {
  type: "billing.subscription.unmatched"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    customerId: string
    subscriptionId: string
    priceIds: string[]
    status: string
  }
}

export interface WebhookEventWebhookTest {
  type: "webhook.test"
  /** When the event happened (ISO 8601) */
  timestamp: string
  data: {
    webhookId: string
  }
}

/** The routes under /integrations. */
export interface IntegrationsRoutes {
  events: {
    /** The event types an endpoint can subscribe to */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: WebhookEventTypes; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  webhooks: ((params: { id: string | number }) => {
    /** One endpoint (never its secret) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: Webhook; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change an endpoint */
    patch(body?: WebhookPatch, options?: RequestOptions<never>): Promise<Result<{ 200: Webhook; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete an endpoint */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    "rotate-secret": {
      /** A new signing secret */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: WebhookWithSecret; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
    test: {
      /** Queue a `webhook.test` event to this endpoint */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: WebhookDelivery; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
    deliveries: ((params: { deliveryId: string | number }) => {
      /** One delivery with its payload and every attempt */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: WebhookDeliveryDetail; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      retry: {
        /** Send a delivery again */
        post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: WebhookDelivery; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      }
    }) & {
      /** Deliveries to this endpoint, newest first */
      get(options?: RequestOptions<{ page?: number; pageSize?: number; status?: "pending" | "succeeded" | "failed" }>): Promise<Result<{ 200: WebhookDeliveryPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** The ecosystem’s webhook endpoints */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: WebhookPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Add an endpoint */
    post(body: WebhookCreate, options?: RequestOptions<never>): Promise<Result<{ 201: WebhookWithSecret; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
