import { Elysia } from 'elysia'
import type { Guards } from '../../platform/guards'
import { pageParams } from '../../platform/paging'
import {
  DeliveryIds,
  Webhook,
  webhookBodies,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEventTypes,
  WebhookPage,
  WebhookDeliveryDetail,
  DeliveryListQuery,
  WebhookWithSecret,
  subscribable,
  type WebhookCatalogue,
} from './model'
import type { IntegrationsService } from './service'
import { adminResource } from '../../platform/crud/admin'
import { IdParam } from '../../platform/params'

/** Outbound webhooks (tag `integrations`); `catalogue` is every event type endpoints may subscribe to. */
export function integrationRoutes(webhooks: IntegrationsService, guards: Guards, catalogue: WebhookCatalogue) {
  const eventTypes = { items: subscribable(catalogue).map((type) => ({ type, description: catalogue[type]!.description })) }
  const { WebhookCreate, WebhookPatch } = webhookBodies(subscribable(catalogue))
  return new Elysia({ name: 'integrations', prefix: '/integrations', detail: { tags: ['integrations'] } })
    .use(guards.auth)
    .use(guards.tenancy)
    .get('/events', () => eventTypes, {
      tenant: 'admin',
      response: { 200: WebhookEventTypes },
      detail: {
        operationId: 'integrationsEventTypes',
        summary: 'The event types an endpoint can subscribe to',
        description: `Their payloads are published under \`webhooks\` in this document.`,
      },
    })
    .use(
      adminResource(guards, {
        path: '/webhooks',
        schemas: { page: WebhookPage, create: WebhookCreate, item: Webhook, detail: Webhook, patch: WebhookPatch, created: WebhookWithSecret },
        service: webhooks,
        operations: {
          list: { operationId: 'integrationsWebhooksList', summary: 'The ecosystem’s webhook endpoints' },
          create: {
            operationId: 'integrationsWebhooksCreate',
            summary: 'Add an endpoint',
            description:
              'The signing `secret` is in this answer only (stored sealed with the server key). Events of the ecosystem are queued for it in the transaction of the change that causes them, so a rolled-back change sends nothing.',
          },
          get: { operationId: 'integrationsWebhooksGet', summary: 'One endpoint (never its secret)' },
          update: { operationId: 'integrationsWebhooksUpdate', summary: 'Change an endpoint' },
          remove: { operationId: 'integrationsWebhooksDelete', summary: 'Delete an endpoint', deleted: 'Deleted, with its deliveries' },
        },
      }),
    )
    .post('/webhooks/:id/rotate-secret', ({ tenant, params }) => webhooks.rotate(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: WebhookWithSecret },
      detail: {
        operationId: 'integrationsWebhooksRotateSecret',
        summary: 'A new signing secret',
        description: `The new secret is in this answer only. For 24 h every delivery carries two signatures (new and old, space-separated in \`webhook-signature\`) so a receiver can switch without missing one.`,
      },
    })
    .post('/webhooks/:id/test', ({ tenant, params }) => webhooks.test(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: WebhookDelivery },
      detail: {
        operationId: 'integrationsWebhooksTest',
        summary: 'Queue a `webhook.test` event to this endpoint',
        description: `Sent whether the endpoint subscribes to it or is disabled; follow it in the deliveries.`,
      },
    })
    .get('/webhooks/:id/deliveries', ({ tenant, params, query }) => webhooks.deliveries(tenant, params.id, query.status, pageParams(query)), {
      tenant: 'admin',
      params: IdParam,
      query: DeliveryListQuery,
      response: { 200: WebhookDeliveryPage },
      detail: {
        operationId: 'integrationsWebhooksDeliveries',
        summary: 'Deliveries to this endpoint, newest first',
        description: '`status` narrows them to `pending`, `succeeded` or `failed`.',
      },
    })
    .get('/webhooks/:id/deliveries/:deliveryId', ({ tenant, params }) => webhooks.delivery(tenant, params.id, params.deliveryId), {
      tenant: 'admin',
      params: DeliveryIds,
      response: { 200: WebhookDeliveryDetail },
      detail: {
        operationId: 'integrationsWebhooksDelivery',
        summary: 'One delivery with its payload and every attempt',
        description:
          'Each attempt keeps its time, status code, duration, error and the first 1 KB of the answer; a manual retry adds attempts and removes none.',
      },
    })
    .post('/webhooks/:id/deliveries/:deliveryId/retry', ({ tenant, params }) => webhooks.retry(tenant, params.id, params.deliveryId), {
      tenant: 'admin',
      params: DeliveryIds,
      response: { 200: WebhookDelivery },
      detail: {
        operationId: 'integrationsWebhooksRetryDelivery',
        summary: 'Send a delivery again',
        description: `A fresh round of attempts, whatever its state (a failed one after the endpoint is fixed, say).`,
      },
    })
}
