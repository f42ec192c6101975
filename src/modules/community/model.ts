import { t } from 'elysia'
import { DEFAULT_RULES } from './points'

/** The HTTP shapes of points, badges, levels and leaderboards (the derived resources' are in resources.ts). */
export const Uuid = t.String({ format: 'uuid' })
export const Amount = t.Integer({ minimum: -1_000_000, maximum: 1_000_000 })
const Criteria = t.Union([t.Literal('points_total'), t.Literal('threads_created'), t.Literal('replies_created'), t.Literal('replies_received')], { title: 'CommunityCriteria' })

export const CommunityLevel = t.Object({ name: t.String({ minLength: 1, maxLength: 100 }), minPoints: t.Integer({ minimum: 0, maximum: 1_000_000_000 }) }, { title: 'CommunityLevel' })
export const CommunityBadge = t.Object(
  { id: t.String(), name: t.String(), description: t.String(), icon: t.String(), criteriaType: t.String(), criteriaThreshold: t.Integer(), pointValue: t.Integer() },
  { title: 'CommunityBadge' },
)
export const BadgeWrite = {
  name: t.String({ minLength: 1, maxLength: 100 }),
  description: t.Optional(t.String({ maxLength: 1000 })),
  icon: t.Optional(t.String({ maxLength: 2000, description: 'An emoji, icon name or image URL, as your front end shows it' })),
  criteriaType: Criteria,
  criteriaThreshold: t.Integer({ minimum: 1, maximum: 1_000_000_000 }),
  pointValue: t.Optional(t.Integer({ minimum: 0, maximum: 1_000_000 })),
}
export const CommunityUserBadge = t.Object(
  { id: t.String(), badgeType: t.String({ description: 'The badge definition’s id' }), name: t.String(), description: t.String(), icon: t.String(), awardedAt: t.String() },
  { title: 'CommunityUserBadge' },
)
export const CommunityPoints = t.Object(
  { id: t.String(), amount: t.Integer(), reason: t.String(), sourceType: t.String(), sourceId: t.String(), createdAt: t.String() },
  { title: 'CommunityPoints' },
)
export const Entry = t.Object(
  { userId: t.String(), name: t.Union([t.String(), t.Null()]), avatarUrl: t.String(), totalPoints: t.Integer(), level: t.String() },
  { title: 'CommunityLeaderboardEntry' },
)
export const Rules = t.Object(
  { threadCreated: Amount, replyCreated: Amount, replyReceived: Amount },
  { title: 'CommunityPointRules', examples: [{ threadCreated: 5, replyCreated: 2, replyReceived: 1 }], description: `Points per action; defaults ${JSON.stringify(DEFAULT_RULES)}. A badge earned gives its own pointValue.` },
)
export const Period = t.Union([t.Literal('all_time'), t.Literal('year'), t.Literal('month'), t.Literal('week'), t.Literal('day')], { title: 'CommunityPeriod', default: 'all_time' })
