import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const webhookDisabled = defineEvent('integrations.webhook.disabled', {
  description: 'The service turned a webhook endpoint off: every delivery to it failed for 3 days.',
  payload: t.Object({ webhookId: t.String(), url: t.String(), failingSince: t.String({ description: 'ISO 8601: when the deliveries started failing' }) }),
})

export const INTEGRATIONS_EVENTS = [webhookDisabled]
