import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { pageParams, PageQuery } from '../../platform/paging'
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
import type { WebhookService } from './service'
import { IdParam } from '../../platform/params'

/** Outbound webhooks (tag `integrations`); `catalogue` is every event type endpoints may subscribe to. */
export function integrationRoutes(webhooks: WebhookService, guards: Guards, catalogue: WebhookCatalogue) {
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
    .get('/webhooks', ({ tenant, query }) => webhooks.list(tenant, pageParams(query)), {
      tenant: 'admin',
      query: PageQuery,
      response: { 200: WebhookPage },
      detail: { operationId: 'integrationsWebhooksList', summary: 'The ecosystem’s webhook endpoints' },
    })
    .post(
      '/webhooks',
      async ({ tenant, body, set }) => {
        const created = await webhooks.create(tenant, body)
        set.status = 201
        return created
      },
      {
        tenant: 'admin',
        body: WebhookCreate,
        response: { 201: WebhookWithSecret },
        detail: {
          operationId: 'integrationsWebhooksCreate',
          summary: 'Add an endpoint',
          description: `The signing \`secret\` is in this answer only (stored sealed with the server key). Events of the ecosystem are queued for it in the transaction of the change that causes them, so a rolled-back change sends nothing.`,
        },
      },
    )
    .get('/webhooks/:id', ({ tenant, params }) => webhooks.get(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: Webhook },
      detail: { operationId: 'integrationsWebhooksGet', summary: 'One endpoint (never its secret)' },
    })
    .patch('/webhooks/:id', ({ tenant, params, body }) => webhooks.update(tenant, params.id, body), {
      tenant: 'admin',
      params: IdParam,
      body: WebhookPatch,
      response: { 200: Webhook },
      detail: { operationId: 'integrationsWebhooksUpdate', summary: 'Change an endpoint' },
    })
    .delete(
      '/webhooks/:id',
      async ({ tenant, params, status }) => {
        await webhooks.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted, with its deliveries' }) },
        detail: { operationId: 'integrationsWebhooksDelete', summary: 'Delete an endpoint' },
      },
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
      detail: { operationId: 'integrationsWebhooksDeliveries', summary: 'Deliveries to this endpoint, newest first', description: '`status` narrows them to `pending`, `succeeded` or `failed`.' },
    })
    .get('/webhooks/:id/deliveries/:deliveryId', ({ tenant, params }) => webhooks.delivery(tenant, params.id, params.deliveryId), {
      tenant: 'admin',
      params: DeliveryIds,
      response: { 200: WebhookDeliveryDetail },
      detail: {
        operationId: 'integrationsWebhooksDelivery',
        summary: 'One delivery with its payload and every attempt',
        description: 'Each attempt keeps its time, status code, duration, error and the first 1 KB of the answer; a manual retry adds attempts and removes none.',
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
