import { t } from 'elysia'
import { rowsChanged } from '../../platform/changes'
import { defineAuditActions, defineEvent } from '../../platform/events'

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

export const replyReceived = defineEvent('community.reply.received', {
  description: 'Someone replied to a thread another customer started (the thread’s author is told).',
  payload: t.Object({ replyId: t.String(), threadId: t.String(), threadTitle: t.String(), threadAuthorId: t.String(), authorId: t.String(), body: t.String() }),
})

export const mentionCreated = defineEvent('community.mention.created', {
  description: 'A thread or reply @named a customer of the ecosystem (neither its author nor a thread author already told of the reply).',
  payload: t.Object({ customerId: t.String(), threadId: t.String(), replyId: t.Union([t.String(), t.Null()]), authorId: t.String(), text: t.String() }),
})

export const badgeEarned = defineEvent('community.badge.earned', {
  description: 'A customer reached a badge’s threshold and was awarded it.',
  payload: t.Object({ customerId: t.String(), badgeId: t.String(), name: t.String() }),
})

export const communityRowsChanged = rowsChanged('community')

export const COMMUNITY_EVENTS = [threadCreated, replyCreated, replyReceived, mentionCreated, badgeEarned, communityRowsChanged]

/** The audit actions community records (GET /audit/events). */
export const COMMUNITY_AUDIT = defineAuditActions('community', {
  'community.category.deleted': 'An admin deleted a category',
  'community.thread.deleted': 'An admin deleted a thread (moderation, or their own)',
  'community.reply.deleted': 'An admin deleted a reply (moderation, or their own)',
})
