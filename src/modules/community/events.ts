import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const threadCreated = defineEvent('community.thread.created', {
  description: 'A thread was started.',
  payload: t.Object({ id: t.String(), categoryId: t.String(), customerId: t.String(), title: t.String() }),
  webhook: 'community.thread.created',
})

export const replyCreated = defineEvent('community.reply.created', {
  description: 'A reply was posted.',
  payload: t.Object({ id: t.String(), threadId: t.String(), customerId: t.String() }),
  webhook: 'community.reply.created',
})

export const COMMUNITY_EVENTS = [threadCreated, replyCreated]
