import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const chatMessageCompleted = defineEvent('chat.message.completed', {
  description: 'A chat turn stored its reply; `status` is `complete`, `cancelled` or `failed`.',
  payload: t.Object({ conversationId: t.String(), messageId: t.String(), customerId: t.String(), status: t.String() }),
  webhook: 'chat.message.completed',
})

export const CHAT_EVENTS = [chatMessageCompleted]
