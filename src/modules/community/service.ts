import { and, asc, eq, isNull, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Db, queryRows } from '../../platform/db'
import { communityError } from './errors'
import type { EventBus } from '../../platform/events'
import { mentionCreated, replyCreated, replyReceived, threadCreated } from './events'
import type { ResourceHooks } from '../../platform/crud/resource'
import { listPage, pageOf, pageOfAll, type PageParams } from '../../platform/paging'
import { isAdmin, type Tenant } from '../../platform/tenancy'
import { customerDirectory } from '../customer/directory'
import type { AuditService } from '../audit/service'
import { type Award, type DEFAULT_RULES, type Period, PointsLedger, pointsView } from './points'
import { badges, categories, type Criteria, replies, threads, userBadges } from './schema'

type BadgeInput = { name: string; description?: string; icon?: string; criteriaType: Criteria; criteriaThreshold: number; pointValue?: number }

const GENERAL = { name: 'General', slug: 'general', description: 'Everything else', position: 0 }
const MENTION = /(?:^|[^\w@])@([A-Za-z0-9][A-Za-z0-9_.:-]{0,254})/g

const badgeView = (r: typeof badges.$inferSelect) => ({
  id: r.id,
  name: r.name,
  description: r.description,
  icon: r.icon,
  criteriaType: r.criteriaType,
  criteriaThreshold: r.criteriaThreshold,
  pointValue: r.pointValue,
})
const badgeNotFound = () => communityError(404, 'not_found', 'No such badge in this ecosystem')

/**
 * Community: categories, threads and replies (table-derived resources with these rules as hooks),
 * the points ledger with its rules, badges, levels, leaderboards and profiles. Everything an action
 * causes (points, badges, notifications) is written in the action's own transaction.
 */
export class CommunityService {
  readonly ledger: PointsLedger
  /** Ecosystems known to have their `general` category (it is never deleted). */
  private readonly withGeneral = new Set<string>()

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly events: Pick<EventBus, 'emit'>,
    private readonly audit: AuditService,
  ) {
    this.ledger = new PointsLedger(deps, events)
  }

  readonly hooks: { categories: ResourceHooks; threads: ResourceHooks; replies: ResourceHooks } = {
    categories: {
      beforeRead: (tenant) => this.ensureGeneral(this.deps.db, tenant).then(() => undefined),
      beforeDelete: async (tx, tenant, id) => {
        const [row] = await tx
          .select({ slug: categories.slug })
          .from(categories)
          .where(and(eq(categories.ownerId, tenant.ecosystemId), eq(categories.id, id)))
        if (row?.slug === GENERAL.slug) throw communityError(409, 'default_category', 'The general category cannot be deleted')
        const [used] = await tx.select({ id: threads.id }).from(threads).where(eq(threads.categoryId, id)).limit(1)
        if (used) throw communityError(409, 'category_not_empty', 'Move or delete its threads first')
      },
      afterDelete: (tx, tenant, id) => this.audit.record(tx, tenant, { action: 'community.category.deleted', target: { type: 'category', id } }),
    },
    threads: {
      beforeWrite: async (tx, tenant, values, op) => {
        if ((values.locked !== undefined || values.pinned !== undefined) && !isAdmin(tenant)) {
          throw communityError(403, 'forbidden', 'Only ecosystem admins lock or pin threads')
        }
        if (typeof values.categoryId === 'string') {
          const [category] = await tx
            .select({ id: categories.id })
            .from(categories)
            .where(and(eq(categories.ownerId, tenant.ecosystemId), eq(categories.id, values.categoryId)))
          if (!category) throw communityError(404, 'category_not_found', 'categoryId names no category of this ecosystem')
        } else if (op === 'create') {
          values.categoryId = await this.ensureGeneral(tx, tenant)
        }
      },
      afterCreate: async (tx, tenant, row) => {
        const rules = await this.ledger.rules(tx, tenant.ecosystemId)
        await this.ledger.bump(tx, tenant.ecosystemId, tenant.customerId, 'threadsCreated')
        await this.award(tx, tenant, rules.threadCreated, 'Thread created', 'thread', String(row.id))
        await this.mention(tx, tenant, `${row.title} ${row.body}`, { threadId: String(row.id), replyId: null, skip: [] })
        await this.events.emit(tx, threadCreated, tenant.ecosystemId, {
          id: String(row.id),
          categoryId: String(row.categoryId),
          customerId: String(row.customerId),
          title: String(row.title),
        })
      },
      afterDelete: async (tx, tenant, id, changes) => {
        const hidden = await tx
          .update(replies)
          .set({ deletedAt: this.deps.now() })
          .where(and(eq(replies.threadId, id), isNull(replies.deletedAt)))
          .returning({ id: replies.id, customerId: replies.customerId })
        await changes(
          tx,
          tenant.ecosystemId,
          'community/replies',
          hidden.map((r) => ({ op: 'delete', id: r.id, customerId: r.customerId, audience: 'shared', key: id })),
        )
        if (isAdmin(tenant)) await this.recordModeration(tx, tenant, 'thread', id)
      },
    },
    replies: {
      beforeWrite: async (tx, tenant, values) => {
        if (typeof values.threadId !== 'string') return
        const [thread] = await tx
          .select({ locked: threads.locked })
          .from(threads)
          .where(and(eq(threads.ownerId, tenant.ecosystemId), eq(threads.id, values.threadId), isNull(threads.deletedAt)))
          .for('share')
        if (!thread) throw communityError(404, 'thread_not_found', 'threadId names no thread of this ecosystem')
        if (thread.locked && !isAdmin(tenant)) throw communityError(409, 'thread_locked', 'This thread is locked')
      },
      afterCreate: async (tx, tenant, row) => {
        const rules = await this.ledger.rules(tx, tenant.ecosystemId)
        const replyId = String(row.id)
        const [thread] = await tx
          .select({ author: threads.customerId, title: threads.title })
          .from(threads)
          .where(eq(threads.id, String(row.threadId)))
        await this.ledger.bump(tx, tenant.ecosystemId, tenant.customerId, 'repliesCreated')
        await this.award(tx, tenant, rules.replyCreated, 'Reply created', 'reply', replyId)
        if (thread && thread.author !== tenant.customerId) {
          await this.ledger.bump(tx, tenant.ecosystemId, thread.author, 'repliesReceived')
          await this.ledger.award(tx, {
            ecosystemId: tenant.ecosystemId,
            customerId: thread.author,
            amount: rules.replyReceived,
            reason: 'Reply received',
            sourceType: 'reply_received',
            sourceId: replyId,
          })
          await this.events.emit(tx, replyReceived, tenant.ecosystemId, {
            replyId,
            threadId: String(row.threadId),
            threadTitle: thread.title,
            threadAuthorId: thread.author,
            authorId: tenant.customerId,
            body: String(row.body).slice(0, 500),
          })
        }
        await this.mention(tx, tenant, String(row.body), { threadId: String(row.threadId), replyId, skip: thread ? [thread.author] : [] })
        await this.events.emit(tx, replyCreated, tenant.ecosystemId, { id: replyId, threadId: String(row.threadId), customerId: String(row.customerId) })
      },
      afterDelete: async (tx, tenant, id) => {
        if (isAdmin(tenant)) await this.recordModeration(tx, tenant, 'reply', id)
      },
    },
  }

  /** An admin deleting a thread or reply (moderation, or their own post): recorded in the audit log with its author. */
  private async recordModeration(tx: Db, tenant: Tenant, kind: 'thread' | 'reply', id: string) {
    const table = kind === 'thread' ? threads : replies
    const [row] = await tx.select({ author: table.customerId }).from(table).where(eq(table.id, id))
    await this.audit.record(tx, tenant, {
      action: kind === 'thread' ? 'community.thread.deleted' : 'community.reply.deleted',
      target: { type: kind, id },
      metadata: { authorId: row?.author ?? null },
    })
  }

  // ---- points

  async rules(tenant: Tenant) {
    return this.ledger.rules(this.deps.db, tenant.ecosystemId)
  }

  async setRules(tenant: Tenant, rules: typeof DEFAULT_RULES) {
    return this.ledger.setRules(tenant.ecosystemId, rules)
  }

  /** An admin's award or deduction; the same (customer, sourceType, sourceId) twice gives the first row back (`created: false`). */
  async grant(tenant: Tenant, input: Omit<Award, 'ecosystemId'>) {
    await this.customer(tenant, input.customerId)
    return this.deps.db.transaction(async (tx) => {
      const row = await this.ledger.award(tx, { ...input, ecosystemId: tenant.ecosystemId })
      if (row) return { created: true, points: pointsView(row) }
      const [existing] = await queryRows<{ id: string; amount: number; reason: string; source_type: string; source_id: string; created_at: Date | string }>(
        tx,
        sql`select id, amount, reason, source_type, source_id, created_at from community.points where customer_id = ${input.customerId} and source_type = ${input.sourceType} and source_id = ${input.sourceId}`,
      )
      const e = existing!
      // The same award again is idempotent; another amount for the same source is a different claim.
      if (e.amount !== input.amount) {
        throw communityError(
          409,
          'conflict',
          `This source was already awarded ${e.amount} points (id ${e.id}); an award is never changed: award another source, or deduct with one`,
        )
      }
      return {
        created: false,
        points: {
          id: e.id,
          amount: e.amount,
          reason: e.reason,
          sourceType: e.source_type,
          sourceId: e.source_id,
          createdAt: new Date(e.created_at).toISOString(),
        },
      }
    })
  }

  /** A customer's points history: the caller's own; admins may name any customer of the ecosystem. */
  async history(tenant: Tenant, customerId: string | undefined, page: PageParams) {
    const whose = customerId ?? tenant.customerId
    if (whose !== tenant.customerId) {
      if (!isAdmin(tenant)) throw communityError(403, 'forbidden', 'Only ecosystem admins read other customers’ points')
      await this.customer(tenant, whose)
    }
    return this.ledger.history(tenant.ecosystemId, whose, page)
  }

  // ---- badges

  async listBadges(tenant: Tenant, page: PageParams) {
    return listPage(
      this.deps.db,
      badges,
      eq(badges.ecosystemId, tenant.ecosystemId),
      [asc(badges.criteriaType), asc(badges.criteriaThreshold), asc(badges.name), asc(badges.id)],
      page,
      badgeView,
    )
  }

  async createBadge(tenant: Tenant, input: BadgeInput) {
    const [row] = await this.deps.db
      .insert(badges)
      .values({ ecosystemId: tenant.ecosystemId, ...input })
      .returning()
    return badgeView(row!)
  }

  async updateBadge(tenant: Tenant, id: string, patch: Partial<BadgeInput>) {
    const [row] = await this.deps.db
      .update(badges)
      .set(patch)
      .where(and(eq(badges.ecosystemId, tenant.ecosystemId), eq(badges.id, id)))
      .returning()
    if (!row) throw badgeNotFound()
    return badgeView(row)
  }

  async removeBadge(tenant: Tenant, id: string) {
    const gone = await this.deps.db
      .delete(badges)
      .where(and(eq(badges.ecosystemId, tenant.ecosystemId), eq(badges.id, id)))
      .returning({ id: badges.id })
    if (!gone[0]) throw badgeNotFound()
  }

  async userBadges(tenant: Tenant, customerId: string, page: PageParams) {
    await this.customer(tenant, customerId)
    const [items, [count]] = await Promise.all([
      this.earned(tenant.ecosystemId, customerId, page),
      this.deps.db
        .select({ n: sql<number>`count(*)::int` })
        .from(userBadges)
        .where(and(eq(userBadges.ecosystemId, tenant.ecosystemId), eq(userBadges.customerId, customerId))),
    ])
    return pageOf(items, count!.n, page)
  }

  /** The badges a customer earned, in the order earned: one page of them, or all. */
  private async earned(ecosystemId: string, customerId: string, page?: PageParams) {
    const query = this.deps.db
      .select({
        id: userBadges.id,
        badgeType: badges.id,
        name: badges.name,
        description: badges.description,
        icon: badges.icon,
        awardedAt: userBadges.awardedAt,
      })
      .from(userBadges)
      .innerJoin(badges, eq(badges.id, userBadges.badgeId))
      .where(and(eq(userBadges.ecosystemId, ecosystemId), eq(userBadges.customerId, customerId)))
      .orderBy(asc(userBadges.awardedAt), asc(badges.name), asc(userBadges.id))
    const rows = page ? await query.limit(page.pageSize).offset(page.offset) : await query
    return rows.map((r) => ({ ...r, awardedAt: r.awardedAt.toISOString() }))
  }

  // ---- levels, leaderboard, profiles

  async levels(tenant: Tenant, page: PageParams) {
    return pageOfAll(await this.ledger.levels(this.deps.db, tenant.ecosystemId), page)
  }

  setLevels(tenant: Tenant, list: { name: string; minPoints: number }[]) {
    return this.ledger.setLevels(tenant.ecosystemId, list)
  }

  leaderboard(tenant: Tenant, period: Period, page: PageParams) {
    return this.ledger.leaderboard(tenant.ecosystemId, period, page, this.deps.now())
  }

  async profile(tenant: Tenant, customerId: string) {
    const customer = await this.customer(tenant, customerId)
    const [standing, earned] = await Promise.all([
      this.ledger.standing(tenant.ecosystemId, customerId, this.deps.now()),
      this.earned(tenant.ecosystemId, customerId),
    ])
    return { userId: customerId, name: customer.name, avatarUrl: customer.avatarUrl ?? '', ...standing, badges: earned }
  }

  // ---- internals

  private async award(tx: Db, tenant: Tenant, amount: number, reason: string, sourceType: string, sourceId: string) {
    if (amount === 0) return
    await this.ledger.award(tx, { ecosystemId: tenant.ecosystemId, customerId: tenant.customerId, amount, reason, sourceType, sourceId })
  }

  /** `community.mention.created` for the customers `@named` in `text` (not the author, not those in `skip`). */
  private async mention(tx: Db, tenant: Tenant, text: string, about: { threadId: string; replyId: string | null; skip: string[] }) {
    const names = [...new Set([...text.matchAll(MENTION)].map((m) => m[1]!.replace(/[.:-]+$/, '')))].slice(0, 20)
    if (names.length === 0) return
    for (const id of await customerDirectory.named(tx, tenant.ecosystemId, names, 20)) {
      if (id === tenant.customerId || about.skip.includes(id)) continue
      await this.events.emit(tx, mentionCreated, tenant.ecosystemId, {
        customerId: id,
        threadId: about.threadId,
        replyId: about.replyId,
        authorId: tenant.customerId,
        text: text.slice(0, 500),
      })
    }
  }

  /** The ecosystem's `general` category, made on first use. */
  private async ensureGeneral(db: Db, tenant: Tenant): Promise<string> {
    const find = () =>
      db
        .select({ id: categories.id })
        .from(categories)
        .where(and(eq(categories.ownerId, tenant.ecosystemId), eq(categories.slug, GENERAL.slug)))
    if (this.withGeneral.has(tenant.ecosystemId)) {
      const [known] = await find()
      if (known) return known.id
    }
    await db
      .insert(categories)
      .values({ ownerId: tenant.ecosystemId, customerId: tenant.customerId, ...GENERAL })
      .onConflictDoNothing({ target: [categories.ownerId, categories.slug] })
    const [row] = await find()
    this.withGeneral.add(tenant.ecosystemId)
    return row!.id
  }

  private async customer(tenant: Tenant, id: string) {
    const row = await customerDirectory.contact(this.deps.db, tenant.ecosystemId, id)
    if (!row) throw communityError(404, 'not_found', 'No such customer in this ecosystem')
    return row
  }
}
