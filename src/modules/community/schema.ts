import { sql } from 'drizzle-orm'
import { boolean, index, integer, pgSchema, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { ownedColumns, timestampColumn as at } from '../../platform/crud/columns'
import { searchBoxVector, tsvector } from '../../platform/fulltext'
import { customers, tenantColumns } from '../customer/schema'
import { ecosystems } from '../registry/schema'

export const communitySchema = pgSchema('community')

const owned = () => ownedColumns({ ecosystem: () => ecosystems.id, customer: () => customers.id })
const { ecosystemId, customerId } = tenantColumns

/** Thread categories; every ecosystem has `general` (made on first use). `customerId` is the admin's record. */
export const categories = communitySchema.table(
  'categories',
  {
    ...owned(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    description: text('description').notNull().default(''),
    position: integer('position').notNull().default(0),
  },
  (t) => [uniqueIndex('categories_slug_uq').on(t.ownerId, t.slug)],
)

/** Discussion threads; `customerId` is the author. Soft-deleted (with their replies). */
export const threads = communitySchema.table(
  'threads',
  {
    ...owned(),
    categoryId: uuid('category_id')
      .notNull()
      .references(() => categories.id, { onDelete: 'restrict' }),
    title: text('title').notNull(),
    body: text('body').notNull().default(''),
    locked: boolean('locked').notNull().default(false),
    pinned: boolean('pinned').notNull().default(false),
    deletedAt: at('deleted_at'),
    search: tsvector('search').generatedAlwaysAs(sql`${searchBoxVector('title', 'body')}`),
  },
  (t) => [
    index('threads_list_idx').on(t.ownerId, t.createdAt).where(sql`${t.deletedAt} is null`),
    index('threads_category_idx').on(t.ownerId, t.categoryId),
    index('threads_search_idx').using('gin', t.search),
  ],
)

/** Replies to a thread; `customerId` is the author. */
export const replies = communitySchema.table(
  'replies',
  {
    ...owned(),
    threadId: uuid('thread_id')
      .notNull()
      .references(() => threads.id, { onDelete: 'cascade' }),
    body: text('body').notNull(),
    deletedAt: at('deleted_at'),
    search: tsvector('search').generatedAlwaysAs(sql`${searchBoxVector('body')}`),
  },
  (t) => [
    index('replies_thread_idx').on(t.threadId, t.createdAt),
    index('replies_list_idx').on(t.ownerId, t.createdAt).where(sql`${t.deletedAt} is null`),
    index('replies_search_idx').using('gin', t.search),
  ],
)

/** Points an ecosystem gives per action (defaults when it has no row). */
export const pointRules = communitySchema.table('point_rules', {
  ecosystemId: ecosystemId().primaryKey(),
  threadCreated: integer('thread_created').notNull(),
  replyCreated: integer('reply_created').notNull(),
  replyReceived: integer('reply_received').notNull(),
  updatedAt: at('updated_at').notNull().defaultNow(),
})

/** The append-only points ledger: one row per (customer, source), so an award happens at most once. */
export const points = communitySchema.table(
  'points',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    sourceType: text('source_type').notNull(),
    sourceId: text('source_id').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('points_source_uq').on(t.customerId, t.sourceType, t.sourceId), index('points_customer_idx').on(t.customerId, t.createdAt)],
)

/**
 * Running point totals per customer, period and bucket (the period's UTC start; `all_time` uses
 * the epoch), kept in the awarding transaction so leaderboards read one index range.
 */
export const pointTotals = communitySchema.table(
  'point_totals',
  {
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    period: text('period', { enum: ['all_time', 'year', 'month', 'week', 'day'] }).notNull(),
    bucket: at('bucket').notNull(),
    total: integer('total').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.customerId, t.period, t.bucket] }),
    index('point_totals_board_idx').on(t.ecosystemId, t.period, t.bucket, t.total.desc(), t.customerId),
  ],
)

/** How many customers each leaderboard (ecosystem, period, bucket) ranks: its `total`, without counting rows. */
export const pointBoards = communitySchema.table(
  'point_boards',
  {
    ecosystemId: ecosystemId(),
    period: text('period').notNull(),
    bucket: at('bucket').notNull(),
    customers: integer('customers').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.period, t.bucket] })],
)

/** Per-customer counts the badge criteria read, kept with the actions that change them. */
export const memberStats = communitySchema.table('member_stats', {
  customerId: customerId().primaryKey(),
  ecosystemId: ecosystemId(),
  threadsCreated: integer('threads_created').notNull().default(0),
  repliesCreated: integer('replies_created').notNull().default(0),
  repliesReceived: integer('replies_received').notNull().default(0),
})

export const CRITERIA = ['points_total', 'threads_created', 'replies_created', 'replies_received'] as const
export type Criteria = (typeof CRITERIA)[number]

export const badges = communitySchema.table(
  'badges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: ecosystemId(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    icon: text('icon').notNull().default(''),
    criteriaType: text('criteria_type', { enum: CRITERIA }).notNull(),
    criteriaThreshold: integer('criteria_threshold').notNull(),
    pointValue: integer('point_value').notNull().default(0),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('badges_criteria_idx').on(t.ecosystemId, t.criteriaType, t.criteriaThreshold)],
)

/** Badges awarded; at most once per customer and badge, also when two actions cross at once. */
export const userBadges = communitySchema.table(
  'user_badges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ecosystemId: ecosystemId(),
    customerId: customerId(),
    badgeId: uuid('badge_id')
      .notNull()
      .references(() => badges.id, { onDelete: 'cascade' }),
    awardedAt: at('awarded_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('user_badges_uq').on(t.customerId, t.badgeId)],
)

/** The ecosystem's levels (defaults when it has none); a customer's level is the highest minPoints ≤ its total. */
export const levels = communitySchema.table(
  'levels',
  {
    ecosystemId: ecosystemId(),
    name: text('name').notNull(),
    minPoints: integer('min_points').notNull(),
  },
  (t) => [primaryKey({ columns: [t.ecosystemId, t.minPoints] })],
)
