import { t } from 'elysia'
import { Int } from '../../platform/numbers'
import { DEFAULT_RULES } from './points'

/** The HTTP shapes of points, badges, levels and leaderboards (the derived resources' are in resources.ts). */
export const Uuid = t.String({ format: 'uuid' })
export const Amount = Int({ minimum: -1_000_000, maximum: 1_000_000 })
const Criteria = t.Union([t.Literal('points_total'), t.Literal('threads_created'), t.Literal('replies_created'), t.Literal('replies_received')], {
  title: 'CommunityCriteria',
})

export const CommunityLevel = t.Object(
  { name: t.String({ minLength: 1, maxLength: 100 }), minPoints: Int({ minimum: 0, maximum: 1_000_000_000 }) },
  { title: 'CommunityLevel', examples: [{ name: 'Regular', minPoints: 100 }] },
)
export const CommunityBadge = t.Object(
  {
    id: t.String(),
    name: t.String(),
    description: t.String(),
    icon: t.String(),
    criteriaType: t.String(),
    criteriaThreshold: Int(),
    pointValue: Int(),
  },
  {
    title: 'CommunityBadge',
    examples: [
      {
        id: 'd4c3b2a1-0f9e-4d8c-a7b6-c5d4e3f2a1b0',
        name: 'Helper',
        description: 'Ten replies to others',
        icon: 'hands',
        criteriaType: 'replies_created',
        criteriaThreshold: 10,
        pointValue: 50,
      },
    ],
  },
)
export const BadgeWrite = {
  name: t.String({ minLength: 1, maxLength: 100 }),
  description: t.Optional(t.String({ maxLength: 1000 })),
  icon: t.Optional(t.String({ maxLength: 2000, description: 'An emoji, icon name or image URL, as your front end shows it' })),
  criteriaType: Criteria,
  criteriaThreshold: Int({ minimum: 1, maximum: 1_000_000_000 }),
  pointValue: t.Optional(Int({ minimum: 0, maximum: 1_000_000 })),
}
/** A badge as a customer earned it; also in the profile's example. */
export const USER_BADGE_EXAMPLE = {
  id: 'b0a9f8e7-d6c5-4b4a-9382-71605f4e3d2c',
  badgeType: 'd4c3b2a1-0f9e-4d8c-a7b6-c5d4e3f2a1b0',
  name: 'Helper',
  description: 'Ten replies to others',
  icon: 'hands',
  awardedAt: '2026-11-26T09:30:00.000Z',
}
export const CommunityUserBadge = t.Object(
  {
    id: t.String(),
    badgeType: t.String({ description: 'The badge definition’s id' }),
    name: t.String(),
    description: t.String(),
    icon: t.String(),
    awardedAt: t.String(),
  },
  { title: 'CommunityUserBadge', examples: [USER_BADGE_EXAMPLE] },
)
export const CommunityPoints = t.Object(
  { id: t.String(), amount: Int(), reason: t.String(), sourceType: t.String(), sourceId: t.String(), createdAt: t.String() },
  {
    title: 'CommunityPoints',
    examples: [
      {
        id: 'e5f4a3b2-c1d0-4e9f-8a7b-6c5d4e3f2a1b',
        amount: 25,
        reason: 'Wrote the month’s best guide',
        sourceType: 'editorial',
        sourceId: 'guide-2026-11',
        createdAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const Entry = t.Object(
  { userId: t.String(), name: t.Union([t.String(), t.Null()]), avatarUrl: t.String(), totalPoints: Int(), level: t.String() },
  {
    title: 'CommunityLeaderboardEntry',
    examples: [{ userId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170', name: 'Grace Hopper', avatarUrl: '', totalPoints: 142, level: 'Regular' }],
  },
)
export const Rules = t.Object(
  { threadCreated: Amount, replyCreated: Amount, replyReceived: Amount },
  {
    title: 'CommunityPointRules',
    examples: [{ threadCreated: 5, replyCreated: 2, replyReceived: 1 }],
    description: `Points per action; defaults ${JSON.stringify(DEFAULT_RULES)}. A badge earned gives its own pointValue.`,
  },
)
export const Period = t.Union([t.Literal('all_time'), t.Literal('year'), t.Literal('month'), t.Literal('week'), t.Literal('day')], {
  title: 'CommunityPeriod',
  default: 'all_time',
})
