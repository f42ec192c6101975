import { and, asc, count, desc, eq, gt, inArray, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { ChangeSink, RowChange } from '../../platform/changes'
import { defineQueueHandler, type QueueHandler } from '../../platform/queue'
import { constant, type Db, queryRows } from '../../platform/db'
import { safeEqual, signValue } from '../../platform/crypto'
import { notificationError } from './errors'
import { listPage, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import { customerDirectory } from '../customer/directory'
import { escapeHtml } from '../../platform/html'
import type { Channel, MessagingService } from '../messaging/service'
import { announcements, CATEGORIES, type Category, notifications, preferences, replyEmails } from './schema'

type NotificationRow = typeof notifications.$inferSelect
type Preference = { category: Category; email: boolean; sms: boolean }

/** Defaults for categories a customer has not chosen for: e-mail for account and replies, no SMS. */
export const DEFAULT_PREFERENCES: Record<Category, { email: boolean; sms: boolean }> = {
  account: { email: true, sms: false },
  community_reply: { email: true, sms: false },
  community_mention: { email: false, sms: false },
  admin_announcement: { email: false, sms: false },
}

export interface NotifyInput {
  ecosystemId: string
  customerId: string
  type: Category
  threadId?: string
  replyId?: string | null
  actorId?: string
  /** The e-mail subject (and the notification's title); `body` its text. */
  subject: string
  body: string
}

const DELIVER = 'notification-deliver'
const FAN_OUT = 'announcement-fan-out'
const REPLY_DIGEST = 'reply-email-digest'
/** At most one e-mail about replies to one thread per customer in this long; later replies go in one digest at its end. */
export const REPLY_EMAIL_WINDOW_MS = 15 * 60 * 1000
const UNSUBSCRIBE = 'notification-unsubscribe'
export const UNSUBSCRIBE_PATH = '/notifications/unsubscribe'

const view = (r: NotificationRow) => ({
  id: r.id,
  userId: r.customerId,
  ecosystemId: r.ecosystemId,
  type: r.type,
  threadId: r.threadId,
  replyId: r.replyId,
  actorId: r.actorId,
  subject: r.subject,
  body: r.body,
  isRead: r.isRead,
  createdAt: r.createdAt.toISOString(),
})

/** The realtime topic of notifications: each customer sees only its own. */
export const NOTIFICATIONS_TOPIC = 'notifications'

/**
 * In-app notifications of customers, their per-category preferences, and the e-mail/SMS copies
 * those preferences ask for: queued in the transaction that creates the notification, delivered
 * by a job through messaging (with a one-click unsubscribe), retried on provider failure.
 */
export class NotificationsService {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now' | 'queue' | 'secret'> & { changes: ChangeSink },
    private readonly messaging: MessagingService,
  ) {}

  /** Tells the realtime outbox, in the writing transaction, about notifications of one ecosystem. */
  private async changed(tx: Db, op: RowChange['op'], rows: NotificationRow[]): Promise<void> {
    for (const [ecosystemId, group] of Map.groupBy(rows, (r) => r.ecosystemId)) {
      await this.deps.changes(
        tx,
        ecosystemId,
        NOTIFICATIONS_TOPIC,
        group.map((r) => ({ op, id: r.id, customerId: r.customerId, audience: 'self', record: view(r) })),
      )
    }
  }

  /** The queue jobs that deliver copies and fan announcements out (the module's manifest registers them). */
  queueHandlers(): QueueHandler[] {
    return [
      defineQueueHandler<{ notificationId: string; channel: Channel }>({ name: DELIVER, handle: (job) => this.deliver(job.notificationId, job.channel) }),
      defineQueueHandler<{ announcementId: string }>({ name: FAN_OUT, handle: (job) => this.fanOutBatch(job.announcementId) }),
      defineQueueHandler<{ customerId: string; threadId: string }>({ name: REPLY_DIGEST, handle: (job) => this.sendReplyDigest(job.customerId, job.threadId) }),
    ]
  }

  /** Records a notification in the caller's transaction and queues the e-mail/SMS its recipient wants. */
  async notify(tx: Db, input: NotifyInput): Promise<string> {
    const [row] = await tx
      .insert(notifications)
      .values({
        ecosystemId: input.ecosystemId,
        customerId: input.customerId,
        type: input.type,
        threadId: input.threadId ?? '',
        replyId: input.replyId ?? null,
        actorId: input.actorId ?? '',
        subject: input.subject,
        body: input.body,
      })
      .returning()
    await this.changed(tx, 'insert', [row!])
    const wanted = await this.preferenceOf(tx, input.customerId, input.type)
    const channels = (['email', 'sms'] as const).filter((c) => wanted[c])
    for (const channel of channels) {
      if (channel === 'email' && input.type === 'community_reply' && input.threadId && !(await this.replyEmailNow(tx, input.customerId, input.threadId)))
        continue
      await this.deps.queue.send(tx, DELIVER, { notificationId: row!.id, channel })
    }
    return row!.id
  }

  /**
   * Whether a reply's e-mail goes now: yes when the customer got none about this thread within
   * REPLY_EMAIL_WINDOW_MS; otherwise the reply waits for the window's digest, queued once.
   */
  private async replyEmailNow(tx: Db, customerId: string, threadId: string): Promise<boolean> {
    const now = this.deps.now()
    const [current] = await tx
      .insert(replyEmails)
      .values({ customerId, threadId, lastEmailedAt: now })
      .onConflictDoUpdate({ target: [replyEmails.customerId, replyEmails.threadId], set: { customerId } })
      // xmax is 0 on a row this statement inserted: the first reply e-mail about this thread.
      .returning({ lastEmailedAt: replyEmails.lastEmailedAt, digestQueued: replyEmails.digestQueued, inserted: sql<boolean>`(xmax = 0)` })
    const row = current!
    if (row.inserted) return true
    if (now.getTime() - row.lastEmailedAt.getTime() >= REPLY_EMAIL_WINDOW_MS) {
      await tx
        .update(replyEmails)
        .set({ lastEmailedAt: now, digestQueued: false })
        .where(and(eq(replyEmails.customerId, customerId), eq(replyEmails.threadId, threadId)))
      return true
    }
    if (!row.digestQueued) {
      await tx
        .update(replyEmails)
        .set({ digestQueued: true })
        .where(and(eq(replyEmails.customerId, customerId), eq(replyEmails.threadId, threadId)))
      await this.deps.queue.send(tx, REPLY_DIGEST, { customerId, threadId }, { startAfter: new Date(row.lastEmailedAt.getTime() + REPLY_EMAIL_WINDOW_MS) })
    }
    return false
  }

  /**
   * The job at a window's end: one e-mail with the replies to the thread since the last one (none:
   * nothing is sent), then the window starts again. A retry after a crash sends no second copy: the
   * send is claimed under a key of the replies it holds.
   */
  async sendReplyDigest(customerId: string, threadId: string): Promise<void> {
    const where = and(eq(replyEmails.customerId, customerId), eq(replyEmails.threadId, threadId))
    const [window] = await this.deps.db.select().from(replyEmails).where(where)
    if (!window?.digestQueued) return
    const pending = await this.deps.db
      .select()
      .from(notifications)
      .where(
        and(
          eq(notifications.customerId, customerId),
          eq(notifications.threadId, threadId),
          eq(notifications.type, 'community_reply'),
          gt(notifications.createdAt, window.lastEmailedAt),
        ),
      )
      .orderBy(asc(notifications.createdAt), asc(notifications.id))
    const first = pending[0]
    const to = first ? await this.messaging.contact(first.ecosystemId, customerId) : null
    if (first && to?.email) {
      const digest = {
        ...first,
        subject: pending.length === 1 ? first.subject : `${pending.length} new replies: ${first.subject}`,
        body: pending.map((n) => n.body).join('\n\n---\n\n'),
      }
      const content = this.emailContent(digest, this.unsubscribeUrl(customerId, 'community_reply'))
      const result = await this.messaging.deliver(first.ecosystemId, 'email', to, content, {
        templateId: null,
        sentBy: null,
        key: `reply-digest:${pending.at(-1)!.id}`,
      })
      if (result.status === 'failed') throw new Error(`reply digest not delivered: ${result.error}`)
    }
    await this.deps.db.update(replyEmails).set({ lastEmailedAt: this.deps.now(), digestQueued: false }).where(where)
  }

  async list(tenant: Tenant, filter: { unread?: boolean; type?: Category }, page: PageParams) {
    const where = and(
      eq(notifications.customerId, tenant.customerId),
      filter.unread ? eq(notifications.isRead, constant(false)) : undefined,
      filter.type ? eq(notifications.type, filter.type) : undefined,
    )
    return listPage(this.deps.db, notifications, where, [desc(notifications.createdAt), desc(notifications.id)], page, view)
  }

  async unreadCount(tenant: Tenant): Promise<{ count: number }> {
    const [row] = await this.deps.db
      .select({ count: count() })
      .from(notifications)
      .where(and(eq(notifications.customerId, tenant.customerId), eq(notifications.isRead, constant(false))))
    return { count: row!.count }
  }

  async markRead(tenant: Tenant, id: string) {
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(notifications)
        .set({ isRead: true })
        .where(and(eq(notifications.customerId, tenant.customerId), eq(notifications.id, id)))
        .returning()
      if (!row) throw notificationError(404, 'not_found', 'No such notification')
      await this.changed(tx, 'update', [row])
      return view(row)
    })
  }

  async markAllRead(tenant: Tenant) {
    return this.deps.db.transaction(async (tx) => {
      const rows = await tx
        .update(notifications)
        .set({ isRead: true })
        .where(and(eq(notifications.customerId, tenant.customerId), eq(notifications.isRead, constant(false))))
        .returning()
      await this.changed(tx, 'update', rows)
      return { updated: rows.length }
    })
  }

  async preferences(tenant: Tenant): Promise<Preference[]> {
    const rows = await this.deps.db.select().from(preferences).where(eq(preferences.customerId, tenant.customerId))
    const chosen = new Map(rows.map((r) => [r.category, r]))
    return CATEGORIES.map((category) => {
      const row = chosen.get(category)
      return { category, email: row?.email ?? DEFAULT_PREFERENCES[category].email, sms: row?.sms ?? DEFAULT_PREFERENCES[category].sms }
    })
  }

  async setPreference(tenant: Tenant, category: Category, choice: { email: boolean; sms: boolean }): Promise<Preference> {
    await this.save(this.deps.db, tenant.customerId, category, choice)
    return { category, ...choice }
  }

  /** Whether the customer takes this category on this channel (its preference, else the default). */
  async allows(customerId: string, category: Category, channel: Channel): Promise<boolean> {
    return (await this.preferenceOf(this.deps.db, customerId, category))[channel]
  }

  /** The link an e-mail's List-Unsubscribe header carries: one POST turns the category's e-mail off. */
  unsubscribeUrl(customerId: string, category: Category): string {
    const value = `${customerId}.${category}`
    return `${this.deps.config.publicUrl}${UNSUBSCRIBE_PATH}?token=${value}.${signValue(this.deps.secret, UNSUBSCRIBE, value)}`
  }

  /** RFC 8058 one-click unsubscribe: the token names the customer and category and is signed by this server. */
  async unsubscribe(token: string): Promise<Preference> {
    const [customerId, category, mac] = token.split('.')
    const valid =
      customerId !== undefined &&
      category !== undefined &&
      mac !== undefined &&
      (CATEGORIES as readonly string[]).includes(category) &&
      safeEqual(mac, signValue(this.deps.secret, UNSUBSCRIBE, `${customerId}.${category}`))
    if (!valid) throw notificationError(400, 'invalid_token', 'This unsubscribe link is not valid')
    if (!(await customerDirectory.stillThere(this.deps.db, customerId))) throw notificationError(404, 'not_found', 'The recipient no longer exists')
    const current = await this.preferenceOf(this.deps.db, customerId, category as Category)
    const choice = { email: false, sms: current.sms }
    await this.save(this.deps.db, customerId, category as Category, choice)
    return { category: category as Category, ...choice }
  }

  /**
   * An announcement to every customer of the ecosystem (team members' own records excepted):
   * recorded with its recipient count and fanned out by queued batches, enqueued here.
   */
  async announce(tenant: Tenant, input: { subject: string; body: string; channels?: Channel[] }) {
    return this.deps.db.transaction(async (tx) => {
      const n = await customerDirectory.announceableCount(tx, tenant.ecosystemId)
      const [row] = await tx
        .insert(announcements)
        .values({
          ecosystemId: tenant.ecosystemId,
          subject: input.subject,
          body: input.body,
          channels: [...new Set<Channel>(input.channels ?? ['email'])],
          createdBy: tenant.actor.kind === 'user' ? tenant.actor.userId : tenant.customerId,
          recipients: n,
        })
        .returning({ id: announcements.id })
      await this.deps.queue.send(tx, FAN_OUT, { announcementId: row!.id })
      return { recipients: n }
    })
  }

  /**
   * One batch of an announcement's fan-out, in one transaction: the next customers by id after the
   * cursor get their notification and queued deliveries, the cursor moves, and the next batch is
   * queued. The row lock and the cursor make a repeated or concurrent run pick up the next batch,
   * and the unique index makes a customer's notification exist at most once.
   */
  async fanOutBatch(announcementId: string): Promise<void> {
    const size = this.deps.config.messaging.batchSize
    await this.deps.db.transaction(async (tx) => {
      const [a] = await tx.select().from(announcements).where(eq(announcements.id, announcementId)).for('update')
      if (!a || a.finishedAt) return
      const wants = (channel: Channel) =>
        sql`coalesce(p.${sql.raw(channel)}, ${DEFAULT_PREFERENCES.admin_announcement[channel]}) and ${a.channels.includes(channel)}`
      // One statement: the batch, its notifications, and which of them want an e-mail or SMS; only ids come back.
      const [batch] = await queryRows<{ last: string | null; n: number; created: string[] | null; email: string[] | null; sms: string[] | null }>(
        tx,
        sql`with batch as (${customerDirectory.announceableIds(a.ecosystemId, a.cursor, size)}), created as (
              insert into ${notifications} (ecosystem_id, customer_id, type, thread_id, actor_id, subject, body)
              select ${a.ecosystemId}, id, 'admin_announcement', ${a.id}, ${a.createdBy}, ${a.subject}, ${a.body} from batch
              on conflict (thread_id, customer_id) where type = 'admin_announcement' do nothing
              returning id, customer_id
            )
            select (select id from batch order by id desc limit 1) as last,
                   (select count(*)::int from batch) as n,
                   (select array_agg(id) from created) as created,
                   (select array_agg(n.id) from created n left join ${preferences} p on p.customer_id = n.customer_id and p.category = 'admin_announcement' where ${wants('email')}) as email,
                   (select array_agg(n.id) from created n left join ${preferences} p on p.customer_id = n.customer_id and p.category = 'admin_announcement' where ${wants('sms')}) as sms`,
      )
      if (batch?.created?.length) await this.changed(tx, 'insert', await tx.select().from(notifications).where(inArray(notifications.id, batch.created)))
      for (const channel of ['email', 'sms'] as const) {
        await this.deps.queue.sendMany(
          tx,
          DELIVER,
          (batch?.[channel] ?? []).map((notificationId) => ({ notificationId, channel })),
        )
      }
      const finished = (batch?.n ?? 0) < size
      await tx
        .update(announcements)
        .set({ cursor: batch?.last ?? a.cursor, finishedAt: finished ? this.deps.now() : null })
        .where(eq(announcements.id, a.id))
      if (!finished) await this.deps.queue.send(tx, FAN_OUT, { announcementId: a.id })
    })
  }

  /** Sends a notification's e-mail or SMS; a provider failure throws so the queue retries it. */
  async deliver(notificationId: string, channel: Channel): Promise<void> {
    const [n] = await this.deps.db.select().from(notifications).where(eq(notifications.id, notificationId))
    if (!n) return
    const to = await this.messaging.contact(n.ecosystemId, n.customerId)
    if (!to || !(channel === 'email' ? to.email : to.phone)) return
    const category = n.type as Category
    const content = channel === 'sms' ? { subject: null, text: `${n.subject}: ${n.body}` } : this.emailContent(n, this.unsubscribeUrl(n.customerId, category))
    const result = await this.messaging.deliver(n.ecosystemId, channel, to, content, { templateId: null, sentBy: null, key: `notification:${n.id}:${channel}` })
    if (result.status === 'failed') throw new Error(`notification ${channel} not delivered: ${result.error}`)
  }

  private emailContent(n: NotificationRow, unsubscribe: string) {
    return {
      subject: n.subject,
      text: `${n.body}\n\n--\nStop these e-mails: ${unsubscribe}`,
      html: `<p>${escapeHtml(n.body).replace(/\n/g, '<br>')}</p><hr><p><a href="${escapeHtml(unsubscribe)}">Stop these e-mails</a></p>`,
      headers: { 'List-Unsubscribe': `<${unsubscribe}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    }
  }

  private async preferenceOf(db: Db, customerId: string, category: Category) {
    const [row] = await db
      .select()
      .from(preferences)
      .where(and(eq(preferences.customerId, customerId), eq(preferences.category, category)))
    return row ? { email: row.email, sms: row.sms } : DEFAULT_PREFERENCES[category]
  }

  private async save(db: Db, customerId: string, category: Category, choice: { email: boolean; sms: boolean }) {
    const values = { ...choice, updatedAt: this.deps.now() }
    await db
      .insert(preferences)
      .values({ customerId, category, ...values })
      .onConflictDoUpdate({ target: [preferences.customerId, preferences.category], set: values })
  }
}
