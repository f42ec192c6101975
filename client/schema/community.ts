// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface CommunityCategory {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  name: string
  slug: string
  description: string
  position: number
}

export interface CommunityCategoriesPage {
  items: CommunityCategory[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityCategoryCreate {
  name: string
  slug: string
  description?: string
  position?: number
}

export interface CommunityCategoryPatch {
  name?: string
  slug?: string
  description?: string
  position?: number
}

export interface CommunityThread {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  categoryId: string
  title: string
  body: string
  locked: boolean
  pinned: boolean
  /** ISO 8601, UTC */
  deletedAt: string | null
}

export interface CommunityThreadsPage {
  items: CommunityThread[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityThreadCreate {
  title: string
  body?: string
  /** Default: the `general` category */
  categoryId?: string
  /** Admins only: no new replies */
  locked?: boolean
  /** Admins only: listed first */
  pinned?: boolean
}

export interface CommunityThreadPatch {
  title?: string
  body?: string
  /** Default: the `general` category */
  categoryId?: string
  /** Admins only: no new replies */
  locked?: boolean
  /** Admins only: listed first */
  pinned?: boolean
}

export interface CommunityReply {
  id: string
  ownerId: string
  customerId: string
  /** ISO 8601, UTC */
  createdAt: string
  /** ISO 8601, UTC */
  updatedAt: string
  threadId: string
  body: string
  /** ISO 8601, UTC */
  deletedAt: string | null
}

export interface CommunityRepliesPage {
  items: CommunityReply[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityReplyCreate {
  threadId: string
  body: string
}

export interface CommunityReplyPatch {
  body: string
}

/** Points per action; defaults {"threadCreated":5,"replyCreated":2,"replyReceived":1}. A badge earned gives its own pointValue. */
export interface CommunityPointRules {
  threadCreated: number
  replyCreated: number
  replyReceived: number
}

export interface CommunityPointsAward {
  customerId: string
  amount: number
  reason: string
  sourceType: string
  sourceId: string
}

export interface CommunityPoints {
  id: string
  amount: number
  reason: string
  sourceType: string
  sourceId: string
  createdAt: string
}

export interface CommunityPointsPage {
  items: CommunityPoints[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityBadge {
  id: string
  name: string
  description: string
  icon: string
  criteriaType: string
  criteriaThreshold: number
  pointValue: number
}

export interface CommunityBadgePage {
  items: CommunityBadge[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityBadgeCreate {
  name: string
  description?: string
  /** An emoji, icon name or image URL, as your front end shows it */
  icon?: string
  criteriaType: "points_total" | "threads_created" | "replies_created" | "replies_received"
  criteriaThreshold: number
  pointValue?: number
}

export interface CommunityBadgePatch {
  name?: string
  description?: string
  /** An emoji, icon name or image URL, as your front end shows it */
  icon?: string
  criteriaType?: "points_total" | "threads_created" | "replies_created" | "replies_received"
  criteriaThreshold?: number
  pointValue?: number
}

export interface CommunityUserBadge {
  id: string
  /** The badge definition’s id */
  badgeType: string
  name: string
  description: string
  icon: string
  awardedAt: string
}

export interface CommunityUserBadgePage {
  items: CommunityUserBadge[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityProfile {
  userId: string
  name: string | null
  avatarUrl: string
  totalPoints: number
  level: string
  /** All time: 1 + the customers with more points (ties share a rank) */
  rank: number
  badges: CommunityUserBadge[]
}

export interface CommunityLevel {
  name: string
  minPoints: number
}

export interface CommunityLevelPage {
  items: CommunityLevel[]
  total: number
  page: number
  pageSize: number
}

export interface CommunityLevelsReplace {
  levels: CommunityLevel[]
}

export interface CommunityLeaderboardEntry {
  userId: string
  name: string | null
  avatarUrl: string
  totalPoints: number
  level: string
}

export interface CommunityLeaderboard {
  items: CommunityLeaderboardEntry[]
  total: number
  page: number
  pageSize: number
}

/** The routes under /community. */
export interface CommunityRoutes {
  categories: ((params: { id: string | number }) => {
    /** One of categories */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityCategory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change one of categories */
    patch(body?: CommunityCategoryPatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityCategory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete one of categories */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** List categories */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; order?: string; select?: string; or?: string; and?: string; includeDeleted?: boolean; slug?: string; name?: string }>): Promise<Result<{ 200: CommunityCategoriesPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create one of categories */
    post(body: CommunityCategoryCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityCategory; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  threads: ((params: { id: string | number }) => {
    /** One of threads */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityThread; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change one of threads */
    patch(body?: CommunityThreadPatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityThread; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete one of threads */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** List threads */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; order?: string; select?: string; or?: string; and?: string; includeDeleted?: boolean; pinnedFirst?: boolean; categoryId?: string; customerId?: string; pinned?: string; locked?: string; createdAt?: string; title?: string }>): Promise<Result<{ 200: CommunityThreadsPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create one of threads */
    post(body: CommunityThreadCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityThread; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  replies: ((params: { id: string | number }) => {
    /** One of replies */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityReply; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change one of replies */
    patch(body: CommunityReplyPatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityReply; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete one of replies */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** List replies */
    get(options?: RequestOptions<{ page?: number; pageSize?: number; sort?: string; order?: string; select?: string; or?: string; and?: string; includeDeleted?: boolean; threadId?: string; customerId?: string; createdAt?: string }>): Promise<Result<{ 200: CommunityRepliesPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Create one of replies */
    post(body: CommunityReplyCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityReply; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  points: {
    /** Award or deduct points */
    post(body: CommunityPointsAward, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityPoints; 201: CommunityPoints; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** A customer’s points ledger, newest first */
    get(options?: RequestOptions<{ customerId?: string; page?: number; pageSize?: number }>): Promise<Result<{ 200: CommunityPointsPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    rules: {
      /** Points per action */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityPointRules; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      /** Change the points per action */
      put(body: CommunityPointRules, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityPointRules; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }
  badges: ((params: { id: string | number }) => {
    /** Change a badge */
    patch(body?: CommunityBadgePatch, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityBadge; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete a badge */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Badge definitions */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: CommunityBadgePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Define a badge */
    post(body: CommunityBadgeCreate, options?: RequestOptions<never>): Promise<Result<{ 201: CommunityBadge; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  users: ((params: { customerId: string | number }) => {
    /** A customer’s community summary */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: CommunityProfile; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    badges: {
      /** A customer’s badges, in the order earned */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: CommunityUserBadgePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  })
  levels: {
    /** Levels, by minPoints */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: CommunityLevelPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Replace the levels */
    put(body: CommunityLevelsReplace, options?: RequestOptions<never>): Promise<Result<{ 200: CommunityLevel[]; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  leaderboard: {
    /** Ranking by points in a period */
    get(options?: RequestOptions<{ period?: "all_time" | "year" | "month" | "week" | "day"; page?: number; pageSize?: number }>): Promise<Result<{ 200: CommunityLeaderboard; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
}
