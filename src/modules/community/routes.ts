import { Elysia, t } from 'elysia'
import type { Deps } from '../../deps'
import type { ChangeSink } from '../../platform/changes'
import { ResourceService } from '../../platform/crud/resource'
import { resourceRoutes } from '../../platform/crud/routes'
import type { Guards } from '../../platform/guards'
import { pageParams, PageQuery, paged } from '../../platform/paging'
import { DEFAULT_LEVELS } from './points'
import { communityResources } from './resources'
import {
  Amount,
  BadgeWrite,
  CommunityBadge,
  CommunityLevel,
  CommunityPoints,
  CommunityUserBadge,
  Entry,
  Period,
  Rules,
  USER_BADGE_EXAMPLE,
  Uuid,
} from './model'
import { errors } from './errors'
import type { CommunityService } from './service'
import { IdParam } from '../../platform/params'

const EVERYONE = 'Everyone in the ecosystem (customers and team members).'

/** Community (tag `community`): the derived resources plus points, badges, levels and leaderboards. */
export function communityRoutes(community: CommunityService, guards: Guards, deps: Pick<Deps, 'db' | 'now'> & { changes: ChangeSink }) {
  const [categories, threads, replies] = communityResources(community.hooks)
  return new Elysia({ name: 'community' })
    .use(resourceRoutes(categories, new ResourceService(deps, categories), guards))
    .use(resourceRoutes(threads, new ResourceService(deps, threads), guards))
    .use(resourceRoutes(replies, new ResourceService(deps, replies), guards))
    .use(
      new Elysia({ name: 'community-points', prefix: '/community', detail: { tags: ['community'] } })
        .use(guards.tenancy)
        .get('/points/rules', ({ tenant }) => community.rules(tenant), {
          tenant: 'customer',
          response: { 200: Rules },
          detail: { operationId: 'communityPointRules', summary: 'Points per action', description: EVERYONE },
        })
        .put('/points/rules', ({ tenant, body }) => community.setRules(tenant, body), {
          tenant: 'admin',
          body: Rules,
          response: { 200: Rules },
          detail: {
            operationId: 'communitySetPointRules',
            summary: 'Change the points per action',
            description: `Applies to later actions; the ledger is never rewritten.`,
          },
        })
        .post(
          '/points',
          async ({ tenant, body, set }) => {
            const result = await community.grant(tenant, body)
            set.status = result.created ? 201 : 200
            return result.points
          },
          {
            tenant: 'admin',
            body: t.Object(
              {
                customerId: Uuid,
                amount: Amount,
                reason: t.String({ minLength: 1, maxLength: 500 }),
                sourceType: t.String({ minLength: 1, maxLength: 100 }),
                sourceId: t.String({ minLength: 1, maxLength: 200 }),
              },
              {
                title: 'CommunityPointsAward',
                examples: [
                  {
                    customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
                    amount: 25,
                    reason: 'Wrote the month’s best guide',
                    sourceType: 'editorial',
                    sourceId: 'guide-2026-11',
                  },
                ],
              },
            ),
            response: { 200: CommunityPoints, 201: CommunityPoints, ...errors({ 409: ['conflict'] }) },
            detail: {
              operationId: 'communityAwardPoints',
              summary: 'Award or deduct points',
              description: `A negative amount deducts. A (customerId, sourceType, sourceId) is awarded at most once, also under concurrent requests: 201 with the new row, 200 with the existing one when the same amount was already awarded for it (a safe retry), 409 \`conflict\` when another amount was (an award is never changed). Totals, leaderboards and badges follow in the same transaction.`,
            },
          },
        )
        .get('/points', ({ tenant, query }) => community.history(tenant, query.customerId, pageParams(query)), {
          tenant: 'customer',
          query: t.Composite([t.Object({ customerId: t.Optional(Uuid) }), PageQuery]),
          response: { 200: paged(CommunityPoints, 'CommunityPointsPage') },
          detail: {
            operationId: 'communityPoints',
            summary: 'A customer’s points ledger, newest first',
            description: 'The caller’s own; ecosystem admins may name any customer (`customerId`).',
          },
        })
        .get('/badges', ({ tenant, query }) => community.listBadges(tenant, pageParams(query)), {
          tenant: 'customer',
          query: PageQuery,
          response: { 200: paged(CommunityBadge, 'CommunityBadgePage') },
          detail: {
            operationId: 'communityBadges',
            summary: 'Badge definitions',
            description: `Awarded automatically, once per customer, in the transaction that reaches \`criteriaThreshold\` of \`criteriaType\` (points_total, threads_created, replies_created, replies_received). ${EVERYONE}`,
          },
        })
        .post(
          '/badges',
          async ({ tenant, body, set }) => {
            const badge = await community.createBadge(tenant, body)
            set.status = 201
            return badge
          },
          {
            tenant: 'admin',
            body: t.Object(BadgeWrite, {
              title: 'CommunityBadgeCreate',
              examples: [
                { name: 'Helper', description: 'Ten replies to others', icon: 'hands', criteriaType: 'replies_created', criteriaThreshold: 10, pointValue: 50 },
              ],
            }),
            response: { 201: CommunityBadge },
            detail: {
              operationId: 'communityCreateBadge',
              summary: 'Define a badge',
              description: `Customers already past the threshold get it at their next qualifying action.`,
            },
          },
        )
        .patch('/badges/:id', ({ tenant, params, body }) => community.updateBadge(tenant, params.id, body), {
          tenant: 'admin',
          params: IdParam,
          body: t.Partial(t.Object(BadgeWrite), { title: 'CommunityBadgePatch', examples: [{ criteriaThreshold: 20 }], minProperties: 1 }),
          response: { 200: CommunityBadge },
          detail: { operationId: 'communityUpdateBadge', summary: 'Change a badge' },
        })
        .delete(
          '/badges/:id',
          async ({ tenant, params, status }) => {
            await community.removeBadge(tenant, params.id)
            return status(204, undefined)
          },
          {
            tenant: 'admin',
            params: IdParam,
            response: { 204: t.Void({ description: 'Deleted, with its awards (points already given stay in the ledger)' }) },
            detail: { operationId: 'communityDeleteBadge', summary: 'Delete a badge' },
          },
        )
        .get('/users/:customerId/badges', ({ tenant, params, query }) => community.userBadges(tenant, params.customerId, pageParams(query)), {
          tenant: 'customer',
          params: t.Object({ customerId: Uuid }),
          query: PageQuery,
          response: { 200: paged(CommunityUserBadge, 'CommunityUserBadgePage') },
          detail: { operationId: 'communityUserBadges', summary: 'A customer’s badges, in the order earned', description: EVERYONE },
        })
        .get('/users/:customerId', ({ tenant, params }) => community.profile(tenant, params.customerId), {
          tenant: 'customer',
          params: t.Object({ customerId: Uuid }),
          response: {
            200: t.Object(
              {
                userId: t.String(),
                name: t.Union([t.String(), t.Null()]),
                avatarUrl: t.String(),
                totalPoints: t.Integer(),
                level: t.String(),
                rank: t.Integer({ description: 'All time: 1 + the customers with more points (ties share a rank)' }),
                badges: t.Array(CommunityUserBadge),
              },
              {
                title: 'CommunityProfile',
                examples: [
                  {
                    userId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
                    name: 'Grace Hopper',
                    avatarUrl: '',
                    totalPoints: 142,
                    rank: 3,
                    level: 'Regular',
                    badges: [USER_BADGE_EXAMPLE],
                  },
                ],
              },
            ),
          },
          detail: { operationId: 'communityProfile', summary: 'A customer’s community summary', description: EVERYONE },
        })
        .get('/levels', ({ tenant, query }) => community.levels(tenant, pageParams(query)), {
          tenant: 'customer',
          query: PageQuery,
          response: { 200: paged(CommunityLevel, 'CommunityLevelPage') },
          detail: {
            operationId: 'communityLevels',
            summary: 'Levels, by minPoints',
            description: `A customer is at the highest level whose minPoints (inclusive) its all-time total reaches. Defaults: ${DEFAULT_LEVELS.map((l) => `${l.name} ${l.minPoints}`).join(', ')}. ${EVERYONE}`,
          },
        })
        .put('/levels', ({ tenant, body }) => community.setLevels(tenant, body.levels), {
          tenant: 'admin',
          body: t.Object(
            { levels: t.Array(CommunityLevel, { minItems: 1, maxItems: 100 }) },
            {
              title: 'CommunityLevelsReplace',
              examples: [
                {
                  levels: [
                    { name: 'Newcomer', minPoints: 0 },
                    { name: 'Regular', minPoints: 100 },
                    { name: 'Guide', minPoints: 500 },
                  ],
                },
              ],
            },
          ),
          response: {
            200: t.Array(CommunityLevel, {
              examples: [
                [
                  { name: 'Newcomer', minPoints: 0 },
                  { name: 'Regular', minPoints: 100 },
                  { name: 'Guide', minPoints: 500 },
                ],
              ],
            }),
          },
          detail: {
            operationId: 'communitySetLevels',
            summary: 'Replace the levels',
            description: `One level must start at 0; floors are distinct. Levels are computed from totals, so everyone is re-levelled at once.`,
          },
        })
        .get('/leaderboard', ({ tenant, query }) => community.leaderboard(tenant, query.period ?? 'all_time', pageParams(query)), {
          tenant: 'customer',
          query: t.Composite([t.Object({ period: t.Optional(Period) }), PageQuery]),
          response: { 200: paged(Entry, 'CommunityLeaderboard') },
          detail: {
            operationId: 'communityLeaderboard',
            summary: 'Ranking by points in a period',
            description: `Periods are UTC calendar periods holding now (\`week\` starts on Monday, ISO 8601). \`totalPoints\` sums the period's awards (deductions included); \`level\` comes from the all-time total; ties rank by customer id; \`total\` counts the customers with points in the period. Read from running totals kept with every award. ${EVERYONE}`,
          },
        }),
    )
}
