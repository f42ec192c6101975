import { defineModule } from '../module'
import { INTEGRATIONS_ERRORS } from './errors'
import { INTEGRATIONS_EVENTS, INTEGRATIONS_AUDIT } from './events'
import { subscribable, webhookCatalogue, webhooksDocumentation } from './model'
import { integrationRoutes } from './routes'
import { IntegrationsService } from './service'
import { INTEGRATIONS_SUBSCRIPTIONS } from './subscriptions'

declare module '../module' {
  interface Services {
    integrations: IntegrationsService
  }
}

export default defineModule({
  name: 'integrations',
  tags: {
    integrations:
      'Outbound webhooks. An ecosystem’s admins register endpoints (`url`, `events`, `enabled`, `description`); events of the ecosystem are queued as deliveries in the transaction of the change that causes them and POSTed as JSON signed per Standard Webhooks (`webhook-id`, `webhook-timestamp`, `webhook-signature`). 2xx within WEBHOOK_TIMEOUT_SECONDS (10) succeeds; otherwise 13 attempts with exponential backoff over about a day, then `failed`; an endpoint failing for 3 days is disabled and its admins told. Event payloads are under `webhooks` in this document.',
  },
  errors: INTEGRATIONS_ERRORS,
  events: INTEGRATIONS_EVENTS,
  audit: INTEGRATIONS_AUDIT,
  http: { webhooks: (events) => webhooksDocumentation(webhookCatalogue(events)) },
  subscriptions: INTEGRATIONS_SUBSCRIPTIONS,
  setup: (ctx) => {
    const catalogue = webhookCatalogue(ctx.events)
    const webhooks = new IntegrationsService(ctx.deps, subscribable(catalogue), ctx.bus, ctx.use('audit'))
    return { services: webhooks, queues: webhooks.queueHandlers(), routes: () => [integrationRoutes(webhooks, ctx.guards, catalogue)] }
  },
})
