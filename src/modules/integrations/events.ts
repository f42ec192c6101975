import type { ChatService } from '../chat/service'
import type { CommunityService } from '../community/service'
import type { CustomerService } from '../customer/service'
import type { MessagingService } from '../messaging/service'
import type { Attachments } from '../storage/attachments'
import type { EventSink } from './service'

interface Sources {
  customers: Pick<CustomerService, 'onCreate' | 'onRemove'>
  attachments: Pick<Attachments, 'onReady'>
  chat: Pick<ChatService, 'onReply'>
  community: Pick<CommunityService, 'onCreate'>
  messaging: Pick<MessagingService, 'onLogged'>
}

/** Turns the areas' changes into webhook events, each queued in the transaction of its change. */
export function emitWebhookEvents(sink: EventSink, areas: Sources): void {
  areas.customers.onCreate((tx, c) =>
    sink.emit(tx, c.ecosystemId, 'customer.created', { id: c.id, externalId: c.externalId, email: c.email, name: c.name, createdAt: c.createdAt }),
  )
  areas.customers.onRemove((tx, ecosystemId, id) => sink.emit(tx, ecosystemId, 'customer.deleted', { id }))
  areas.attachments.onReady((tx, a) =>
    sink.emit(tx, a.ecosystemId, 'storage.attachment.ready', { id: a.id, customerId: a.customerId, filename: a.filename, contentType: a.contentType, sizeBytes: a.sizeBytes }),
  )
  areas.chat.onReply((tx, r) =>
    sink.emit(tx, r.ecosystemId, 'chat.message.completed', { conversationId: r.conversationId, messageId: r.messageId, customerId: r.customerId, status: r.status }),
  )
  areas.community.onCreate((tx, kind, tenant, row) =>
    kind === 'thread'
      ? sink.emit(tx, tenant.ecosystemId, 'community.thread.created', { id: row.id, categoryId: row.categoryId, customerId: row.customerId, title: row.title })
      : sink.emit(tx, tenant.ecosystemId, 'community.reply.created', { id: row.id, threadId: row.threadId, customerId: row.customerId }),
  )
  areas.messaging.onLogged((tx, entry) =>
    entry.status === 'sent'
      ? sink.emit(tx, entry.ecosystemId, 'messaging.sent', { logId: entry.id, customerId: entry.customerId, channel: entry.channel, templateId: entry.templateId })
      : sink.emit(tx, entry.ecosystemId, 'messaging.failed', { logId: entry.id, customerId: entry.customerId, channel: entry.channel, templateId: entry.templateId, error: entry.error }),
  )
}
