import type { outbox, sendLog, templates } from './schema'

type TemplateRow = typeof templates.$inferSelect
type LogRow = typeof sendLog.$inferSelect
type OutboxRow = typeof outbox.$inferSelect

/** Messaging's rows as the API shows them (model.ts has their schemas). */

export const templateView = (r: TemplateRow) => ({
  id: r.id,
  name: r.name,
  subject: r.subject,
  htmlBody: r.htmlBody,
  textBody: r.textBody,
  category: r.category,
  ...(r.smsBody === null ? {} : { smsBody: r.smsBody }),
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
})

export const logView = (r: LogRow) => ({
  id: r.id,
  customerId: r.customerId,
  deletedAt: r.deletedAt?.toISOString() ?? null,
  ownerId: r.ecosystemId,
  channel: r.channel,
  recipient: r.recipient,
  subject: r.subject,
  body: r.body,
  templateId: r.templateId,
  status: r.status,
  providerId: r.providerId,
  errorMessage: r.errorMessage,
  sentBy: r.sentBy,
  createdAt: r.createdAt.toISOString(),
})

export const outboxView = (r: OutboxRow) => ({
  id: r.id,
  channel: r.channel,
  recipient: r.recipient,
  subject: r.subject,
  text: r.text,
  html: r.html,
  headers: r.headers,
  createdAt: r.createdAt.toISOString(),
})
