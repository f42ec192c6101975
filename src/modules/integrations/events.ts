import { t } from 'elysia'
import { defineAuditActions, defineAuditedEvent } from '../../platform/events'

export const webhookDisabled = defineAuditedEvent('integrations.webhook.disabled', {
  description: 'The service turned a webhook endpoint off: every delivery to it failed for 3 days.',
  payload: t.Object({ webhookId: t.String(), url: t.String(), failingSince: t.String({ description: 'ISO 8601: when the deliveries started failing' }) }),
  audit: {
    target: ({ webhookId }) => ({ type: 'webhook', id: webhookId }),
    metadata: ({ url, failingSince }) => ({ host: new URL(url).host, enabled: false, failingSince }),
  },
})

export const INTEGRATIONS_EVENTS = [webhookDisabled]

/** The audit actions integrations records (GET /audit/events). */
export const INTEGRATIONS_AUDIT = defineAuditActions('integrations', {
  'integrations.webhook.created': 'A webhook endpoint was registered',
  'integrations.webhook.updated': 'A webhook endpoint changed',
  'integrations.webhook.deleted': 'A webhook endpoint was deleted',
  'integrations.webhook.secret_rotated': 'A webhook endpoint’s signing secret was rotated',
})
