import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

const NullableString = t.Union([t.String(), t.Null()])

export const messageSent = defineEvent('messaging.message.sent', {
  description: 'An e-mail or SMS was accepted by the provider (or written to the local outbox).',
  payload: t.Object({ logId: t.String(), customerId: t.String(), channel: t.String(), templateId: NullableString }),
  webhook: 'messaging.sent',
})

export const messageFailed = defineEvent('messaging.message.failed', {
  description: 'The provider refused an e-mail or SMS, or could not be reached.',
  payload: t.Object({ logId: t.String(), customerId: t.String(), channel: t.String(), templateId: NullableString, error: t.String() }),
  webhook: 'messaging.failed',
})

export const MESSAGING_EVENTS = [messageSent, messageFailed]
