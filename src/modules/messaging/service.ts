import { randomUUID } from 'node:crypto'
import { and, desc, eq, gte, isNull, lt, sql, type SQL, inArray } from 'drizzle-orm'
import type { Db } from '../../platform/db'
import { countPerDay } from '../../platform/db/daily'
import type { Deps } from '../../deps'
import { isUniqueViolation } from '../../platform/db'
import { messagingError } from './errors'
import type { EventBus } from '../../platform/events'
import type { Metrics } from '../../platform/metrics'
import { messageFailed, messageSent } from './events'
import { listPage, type PageParams } from '../../platform/paging'
import { queryInstant } from '../../platform/params'
import type { Tenant } from '../../platform/tenancy'
import { customerDirectory } from '../customer/directory'
import type { SiteServices } from '../site/service'
import { MESSAGE_CATEGORIES, type MessageCategory, type PreferenceCategory } from './model'
import { oneLine, render, renderTemplate } from './render'
import { outbox, sendClaims, sendLog, templates } from './schema'
import { type Delivery, Transports } from './transports'
import { logView, outboxView, templateView } from './views'

type TemplateRow = typeof templates.$inferSelect
export type Channel = 'email' | 'sms'

export interface TemplateInput {
  name: string
  subject: string
  htmlBody: string
  textBody: string
  category: string
  smsBody?: string | null
}

/** What one send carries, already rendered. */
export interface Content {
  subject: string | null
  text: string
  html?: string
  /** Extra e-mail headers (List-Unsubscribe); values are one line. */
  headers?: Record<string, string>
}

/**
 * What customers chose to receive, per category and channel, and the one-click link that turns a
 * category's e-mail off (the notifications area answers both, through its manifest's `extends.consent`).
 */
export interface Consent {
  allows(customerId: string, category: PreferenceCategory, channel: Channel): Promise<boolean>
  unsubscribeUrl(customerId: string, category: PreferenceCategory): string
}

/** Where Twilio reports on each SMS (its StatusCallback, under PUBLIC_URL). */
export const SMS_STATUS_PATH = '/messaging/sms/status'
/** Twilio's final statuses, as the log records them. */
const SMS_OUTCOMES: Record<string, 'delivered' | 'undelivered' | 'failed'> = { delivered: 'delivered', undelivered: 'undelivered', failed: 'failed' }

/** A template's category; one stored before categories were checked counts as an announcement (preferences apply). */
const categoryOf = (stored: string): MessageCategory =>
  (MESSAGE_CATEGORIES as readonly string[]).includes(stored) ? (stored as MessageCategory) : 'admin_announcement'

export interface SendResult {
  status: 'sent' | 'failed'
  providerId?: string
  error?: string
}

export interface LogFilter {
  channel?: Channel
  status?: 'sent' | 'failed' | 'delivered' | 'undelivered'
  customerId?: string
  since?: string
  until?: string
}

const templateNotFound = () => messagingError(404, 'not_found', 'No such template in this ecosystem')
const nameTaken = (name: string) => messagingError(409, 'template_name_taken', `A template named ${name} already exists`)
const noRecipient = (what: string) => messagingError(400, 'no_recipient', `The customer has no ${what}`)

/** Plain text of an HTML body, for e-mails given only as HTML. */
const textOf = (html: string) =>
  html
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, '')
    .replace(/<br\s*\/?>|<\/(p|div|h[1-6]|li|tr)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim()

/**
 * E-mail and SMS: templates, sends through the ecosystem's provider (its site service, else the
 * instance default, else the local outbox), and the append-only log of every attempt.
 */
export class MessagingService {
  private readonly transports: Transports
  private readonly sends: ReturnType<Metrics['counter']>

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'now' | 'metrics'>,
    private readonly site: SiteServices,
    private readonly events: Pick<EventBus, 'emit'>,
    /** Who answers for customers' choices: the modules' `extends.consent` (the notifications area), read on first use. */
    private readonly consents: () => readonly Consent[],
  ) {
    this.transports = new Transports({
      timeoutMs: deps.config.messaging.timeoutSeconds * 1000,
      twilioApiUrl: deps.config.messaging.twilioApiUrl,
      smsStatusCallback: `${deps.config.publicUrl}${SMS_STATUS_PATH}`,
    })
    this.sends = deps.metrics.counter({
      name: 'ecobase_messages_sent_total',
      help: 'E-mail and SMS sends, by channel, transport (smtp, twilio, or outbox: no provider configured) and outcome (sent, failed: the provider refused or did not answer)',
      labelNames: ['channel', 'transport', 'outcome'],
    })
  }

  // ---- templates

  async listTemplates(tenant: Tenant, page: PageParams) {
    const where = eq(templates.ecosystemId, tenant.ecosystemId)
    return listPage(this.deps.db, templates, where, [templates.name], page, templateView)
  }

  async getTemplate(tenant: Tenant, id: string) {
    return templateView(await this.template(tenant.ecosystemId, id))
  }

  async createTemplate(tenant: Tenant, input: TemplateInput) {
    try {
      const [row] = await this.deps.db
        .insert(templates)
        .values({ ecosystemId: tenant.ecosystemId, ...input, smsBody: input.smsBody ?? null })
        .returning()
      return templateView(row!)
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(input.name)
      throw err
    }
  }

  async updateTemplate(tenant: Tenant, id: string, patch: Partial<TemplateInput>) {
    try {
      const [row] = await this.deps.db
        .update(templates)
        .set({ ...patch, updatedAt: this.deps.now() })
        .where(and(eq(templates.ecosystemId, tenant.ecosystemId), eq(templates.id, id)))
        .returning()
      if (!row) throw templateNotFound()
      return templateView(row)
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(patch.name ?? '')
      throw err
    }
  }

  async removeTemplate(tenant: Tenant, id: string): Promise<void> {
    const gone = await this.deps.db
      .delete(templates)
      .where(and(eq(templates.ecosystemId, tenant.ecosystemId), eq(templates.id, id)))
      .returning({ id: templates.id })
    if (!gone[0]) throw templateNotFound()
  }

  async preview(tenant: Tenant, id: string, variables: Record<string, string>) {
    const rendered = renderTemplate(await this.template(tenant.ecosystemId, id), variables)
    return { subject: rendered.subject, htmlBody: rendered.html, textBody: rendered.text, smsBody: rendered.sms }
  }

  // ---- status, log, outbox

  async status(tenant: Tenant) {
    const [smtp, twilio] = await Promise.all([
      this.site.effectiveProvider(tenant.ecosystemId, 'smtp'),
      this.site.effectiveProvider(tenant.ecosystemId, 'twilio'),
    ])
    return { email: smtp !== null, sms: twilio !== null }
  }

  async log(tenant: Tenant, filter: LogFilter, page: PageParams) {
    const where = and(eq(sendLog.ecosystemId, tenant.ecosystemId), isNull(sendLog.deletedAt), ...logConditions(filter))
    return listPage(this.deps.db, sendLog, where, [desc(sendLog.createdAt), desc(sendLog.id)], page, logView)
  }

  /** The local outbox of an ecosystem, or with `null` the instance's own (account e-mails). */
  async outbox(ecosystemId: string | null, page: PageParams) {
    const where = ecosystemId === null ? isNull(outbox.ecosystemId) : eq(outbox.ecosystemId, ecosystemId)
    return listPage(this.deps.db, outbox, where, [desc(outbox.createdAt), desc(outbox.id)], page, outboxView)
  }

  // ---- sends

  /** An admin's e-mail to one customer: from a template or given text, rendered, sent now, logged. */
  async sendEmail(
    tenant: Tenant,
    input: {
      customerId: string
      templateId?: string
      subject?: string
      html?: string
      text?: string
      variables?: Record<string, string>
      category?: MessageCategory
    },
  ): Promise<SendResult> {
    const customer = await this.customer(tenant.ecosystemId, input.customerId)
    if (!customer.email) throw noRecipient('e-mail address')
    const variables = { ...customerVariables(customer), ...input.variables }
    let content: Content
    let category = input.category ?? 'transactional'
    if (input.templateId) {
      const template = await this.template(tenant.ecosystemId, input.templateId)
      category = categoryOf(template.category)
      const rendered = renderTemplate(template, variables)
      content = { subject: rendered.subject, text: rendered.text, html: rendered.html }
    } else {
      if (input.subject === undefined || (input.text === undefined && input.html === undefined)) {
        throw messagingError(400, 'validation_failed', 'body: give templateId, or subject with text and/or html')
      }
      const html = input.html === undefined ? undefined : render(input.html, variables, 'html')
      content = {
        subject: oneLine(render(input.subject, variables, 'plain')),
        text: input.text === undefined ? textOf(html!) : render(input.text, variables, 'plain'),
        html,
      }
    }
    const unsubscribe = await this.consented(customer.id, category, 'email')
    if (unsubscribe) content.headers = { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' }
    return this.deliver(tenant.ecosystemId, 'email', customer, content, { templateId: input.templateId ?? null, sentBy: sentBy(tenant) })
  }

  /** An admin's SMS to one customer: a template's smsBody (else its textBody) or the given body. */
  async sendSms(
    tenant: Tenant,
    input: { customerId: string; templateId?: string; body?: string; variables?: Record<string, string>; category?: MessageCategory },
  ): Promise<SendResult> {
    const customer = await this.customer(tenant.ecosystemId, input.customerId)
    if (!customer.phone) throw noRecipient('phone number')
    const variables = { ...customerVariables(customer), ...input.variables }
    let text: string
    let category = input.category ?? 'transactional'
    if (input.templateId) {
      const template = await this.template(tenant.ecosystemId, input.templateId)
      category = categoryOf(template.category)
      text = render(template.smsBody ?? template.textBody, variables, 'plain')
    } else {
      if (input.body === undefined) throw messagingError(400, 'validation_failed', 'body: give templateId or body')
      text = render(input.body, variables, 'plain')
    }
    await this.consented(customer.id, category, 'sms')
    return this.deliver(tenant.ecosystemId, 'sms', customer, { subject: null, text }, { templateId: input.templateId ?? null, sentBy: sentBy(tenant) })
  }

  /**
   * One attempt to one customer through the ecosystem's provider, written to the log whatever the
   * outcome. Used by the admin sends (at once) and by queued notification deliveries.
   *
   * A queued send passes `key` (what it is for): the send is claimed in the database before the
   * provider is called and marked sent after, in the transaction that logs it. A retry of a send
   * that went out (its job ran again after a crash) is then skipped; only a crash during the
   * provider call itself can repeat a message, and then with the same Message-ID.
   */
  async deliver(
    ecosystemId: string,
    channel: Channel,
    to: { id: string; email: string | null; phone: string | null; name: string | null },
    content: Content,
    meta: { templateId: string | null; sentBy: string | null; key?: string },
  ): Promise<SendResult> {
    const recipient = channel === 'email' ? to.email : to.phone
    if (!recipient) throw noRecipient(channel === 'email' ? 'e-mail address' : 'phone number')
    const claim = meta.key === undefined ? { messageId: randomUUID(), sent: false } : await this.claim(meta.key, ecosystemId)
    if (claim.sent) return { status: 'sent' }
    const delivery = await this.transmit(ecosystemId, channel, { to: recipient, toName: to.name }, content, claim.messageId)
    await this.deps.db.transaction(async (tx) => {
      const [entry] = await tx
        .insert(sendLog)
        .values({
          ...(meta.key === undefined ? { id: claim.messageId } : {}),
          ecosystemId,
          customerId: to.id,
          channel,
          recipient,
          subject: content.subject,
          body: content.text,
          templateId: meta.templateId,
          status: delivery.ok ? 'sent' : 'failed',
          providerId: delivery.ok ? delivery.providerId : null,
          errorMessage: delivery.ok ? null : delivery.error,
          sentBy: meta.sentBy,
        })
        .returning({ id: sendLog.id })
      if (meta.key !== undefined && delivery.ok) await tx.update(sendClaims).set({ sentAt: this.deps.now() }).where(eq(sendClaims.key, meta.key))
      const logged = { logId: entry!.id, customerId: to.id, channel, templateId: meta.templateId }
      if (delivery.ok) await this.events.emit(tx, messageSent, ecosystemId, logged)
      else await this.events.emit(tx, messageFailed, ecosystemId, { ...logged, error: delivery.error })
    })
    if (!delivery.ok) this.deps.logger.warn('message not sent', { ecosystemId, channel, customerId: to.id, error: delivery.error })
    return delivery.ok ? { status: 'sent', providerId: delivery.providerId } : { status: 'failed', error: delivery.error }
  }

  /** Claims the send `key` (or finds its claim): its stable message id, and whether it was sent already. */
  private async claim(key: string, ecosystemId: string | null): Promise<{ messageId: string; sent: boolean }> {
    const [row] = await this.deps.db
      .insert(sendClaims)
      .values({ key, ecosystemId, claimedAt: this.deps.now() })
      .onConflictDoUpdate({ target: sendClaims.key, set: { claimedAt: sql`excluded.claimed_at` } })
      .returning({ messageId: sendClaims.messageId, sentAt: sendClaims.sentAt })
    return { messageId: row!.messageId, sent: row!.sentAt !== null }
  }

  /** The instance's own e-mail (password reset, verification): SMTP_URL, else the instance outbox. Not in any ecosystem's log. */
  async sendInstanceEmail(to: string, content: Content): Promise<Delivery> {
    return this.transmit(null, 'email', { to, toName: null }, content, randomUUID())
  }

  close(): void {
    this.transports.close()
  }

  /** A customer's contact details, for queued deliveries; null when the customer is gone. */
  contact(ecosystemId: string, customerId: string) {
    return customerDirectory.contact(this.deps.db, ecosystemId, customerId)
  }

  /** Sends through the ecosystem's provider (else to the outbox), counted in the metrics by outcome. */
  private async transmit(
    ecosystemId: string | null,
    channel: Channel,
    to: { to: string; toName: string | null },
    content: Content,
    messageId: string,
  ): Promise<Delivery> {
    const kind = channel === 'email' ? 'smtp' : 'twilio'
    const provider = await this.site.effectiveProvider(ecosystemId, kind)
    const delivery = await (provider ? this.send(channel, provider.config, to, content, messageId) : this.toOutbox(ecosystemId, channel, to.to, content))
    this.sends.of({ channel, transport: provider ? kind : 'outbox', outcome: delivery.ok ? 'sent' : 'failed' }).inc()
    return delivery
  }

  /** Hands the message to the provider's transport; an e-mail's Message-ID is made from `messageId`. */
  private send(
    channel: Channel,
    config: Record<string, unknown>,
    to: { to: string; toName: string | null },
    content: Content,
    messageId: string,
  ): Promise<Delivery> {
    if (channel === 'sms') return this.transports.sendSms(config, { to: to.to, body: content.text })
    return this.transports.sendEmail(config, {
      from: String(config.from ?? this.deps.config.providers.smtp?.from ?? defaultFrom(this.deps.config.publicUrl)),
      to: to.to,
      toName: to.toName,
      subject: content.subject ?? '',
      text: content.text,
      html: content.html,
      headers: content.headers,
      messageId: `<${messageId}@${new URL(this.deps.config.publicUrl).hostname}>`,
    })
  }

  private async toOutbox(ecosystemId: string | null, channel: Channel, recipient: string, content: Content): Promise<Delivery> {
    const [row] = await this.deps.db
      .insert(outbox)
      .values({ ecosystemId, channel, recipient, subject: content.subject, text: content.text, html: content.html ?? null, headers: content.headers ?? {} })
      .returning({ id: outbox.id })
    return { ok: true, providerId: `outbox:${row!.id}` }
  }

  /**
   * Twilio's report on an SMS (its StatusCallback): checked with the twilio SDK against the auth
   * token the message went out with (the ecosystem's service, else TWILIO_*), it moves the log entry
   * to `delivered`, `undelivered` or `failed`; a failure is also the `messaging.failed` event. Other
   * statuses (queued, sent, …) change nothing. False when no entry's token verifies the signature.
   */
  async smsStatus(signature: string, params: Record<string, string>): Promise<boolean> {
    const status = SMS_OUTCOMES[params.MessageStatus ?? '']
    const candidates = await this.deps.db
      .select()
      .from(sendLog)
      .where(and(eq(sendLog.channel, 'sms'), eq(sendLog.providerId, params.MessageSid ?? '')))
    const url = `${this.deps.config.publicUrl}${SMS_STATUS_PATH}`
    for (const entry of candidates) {
      const provider = await this.site.effectiveProvider(entry.ecosystemId, 'twilio')
      const token = provider?.config.authToken
      if (typeof token !== 'string' || !(await this.transports.validTwilioSignature(token, signature, url, params))) continue
      if (!status || entry.status === status) return true
      const error = status === 'delivered' ? null : `${params.MessageStatus}${params.ErrorCode ? ` (Twilio error ${params.ErrorCode})` : ''}`
      await this.deps.db.transaction(async (tx) => {
        await tx.update(sendLog).set({ status, errorMessage: error }).where(eq(sendLog.id, entry.id))
        if (error)
          await this.events.emit(tx, messageFailed, entry.ecosystemId, {
            logId: entry.id,
            customerId: entry.customerId,
            channel: 'sms',
            templateId: entry.templateId,
            error,
          })
      })
      return true
    }
    return false
  }

  /**
   * Refuses (409 `unsubscribed`) a non-transactional send the customer turned off for this channel;
   * for an allowed one answers its one-click unsubscribe link (null for `transactional`).
   */
  private async consented(customerId: string, category: MessageCategory, channel: Channel): Promise<string | null> {
    if (category === 'transactional') return null
    const [consent, ...more] = this.consents()
    if (!consent || more.length) throw new Error('exactly one module answers for consent (the notifications module)')
    if (!(await consent.allows(customerId, category, channel))) {
      throw messagingError(
        409,
        'unsubscribed',
        `The customer turned off ${channel === 'email' ? 'e-mail' : 'SMS'} for ${category}; send it as transactional only if it is one`,
      )
    }
    return consent.unsubscribeUrl(customerId, category)
  }

  private async template(ecosystemId: string, id: string): Promise<TemplateRow> {
    const [row] = await this.deps.db
      .select()
      .from(templates)
      .where(and(eq(templates.ecosystemId, ecosystemId), eq(templates.id, id)))
    if (!row) throw templateNotFound()
    return row
  }

  private async customer(ecosystemId: string, id: string) {
    const row = await this.contact(ecosystemId, id)
    if (!row) throw messagingError(404, 'not_found', 'No such customer in this ecosystem')
    return row
  }
}

/** Values every template may use without passing them: `customer.name`, `customer.email`, `customer.id`. */
function customerVariables(c: { id: string; email: string | null; name: string | null }): Record<string, string> {
  return { 'customer.id': c.id, 'customer.name': c.name ?? '', 'customer.email': c.email ?? '' }
}

const sentBy = (tenant: Tenant) => (tenant.actor.kind === 'user' ? tenant.actor.userId : null)

function defaultFrom(publicUrl: string): string {
  return `Ecobase <no-reply@${new URL(publicUrl).hostname}>`
}

function logConditions(filter: LogFilter): SQL[] {
  const where: SQL[] = []
  if (filter.channel) where.push(eq(sendLog.channel, filter.channel))
  if (filter.status) where.push(eq(sendLog.status, filter.status))
  if (filter.customerId) where.push(eq(sendLog.customerId, filter.customerId))
  if (filter.since) where.push(gte(sendLog.createdAt, queryInstant('since', filter.since)))
  if (filter.until) where.push(lt(sendLog.createdAt, queryInstant('until', filter.until)))
  return where
}

/** For the overview: messages sent (or delivered) per UTC day since `since`. */
export function sentPerDay(db: Db, ecosystemId: string, since: Date) {
  return countPerDay(
    db,
    sendLog,
    sendLog.createdAt,
    and(eq(sendLog.ecosystemId, ecosystemId), inArray(sendLog.status, ['sent', 'delivered']), isNull(sendLog.deletedAt), gte(sendLog.createdAt, since)),
  )
}
