import { t } from 'elysia'
import { Timestamp } from '../../platform/crud/model'
import { paged, PageQuery } from '../../platform/paging'

const Id = (description: string) => t.Union([t.String(), t.Null()], { description })

export const AuditActor = t.Object(
  {
    type: t.Union([t.Literal('user'), t.Literal('customer'), t.Literal('api_token'), t.Literal('system')], {
      description: '`user` (an account, with a session), `customer`, `api_token` (an account acting with an API token), `system` (a job)',
    }),
    id: Id('The account, customer, API token or job; null for a caller not identified (a failed sign-in)'),
    userId: t.Optional(t.String({ description: 'For `api_token`: the account the token belongs to' })),
  },
  { title: 'AuditActor' },
)

export const AuditTarget = t.Object(
  {
    type: t.String({ description: 'What was changed, e.g. `user`, `webhook`, `site_service`, `team_member`, `customer`' }),
    id: Id('Its id (or name, e.g. a site service slug); null when there is none'),
  },
  { title: 'AuditTarget' },
)

export const AuditEvent = t.Object(
  {
    id: t.String({ format: 'uuid' }),
    at: Timestamp,
    actor: AuditActor,
    ecosystemId: Id('The ecosystem the change belongs to; null for account, organization and instance events'),
    organizationId: Id('The organization, for ecosystem and organization events (team changes); null for account events'),
    action: t.String({
      description: '`<area>.<noun>.<verb>`, e.g. `auth.session.signed_in`, `integrations.webhook.secret_rotated`, `team.member.role_changed`',
    }),
    target: AuditTarget,
    ip: Id('Client address (X-Forwarded-For only with TRUST_PROXY=on); null when unknown'),
    userAgent: Id('User-Agent of the request, at most 512 characters'),
    requestId: Id('X-Request-Id of the request'),
    metadata: t.Record(t.String(), t.Unknown(), {
      description: 'Details of the change: names, kinds, roles, changed key names. Never a secret, token, password or configuration value.',
    }),
  },
  {
    title: 'AuditEvent',
    examples: [
      {
        id: '4f3e2d1c-0b9a-4887-a6f5-e4d3c2b1a098',
        at: '2026-11-26T09:00:00.000Z',
        actor: { type: 'user', id: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f' },
        ecosystemId: null,
        organizationId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d',
        action: 'team.member.role_changed',
        target: { type: 'team_member', id: 'f6e5d4c3-b2a1-4098-8f7e-6d5c4b3a2910' },
        ip: '203.0.113.7',
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
        requestId: 'c1d2e3f4-a5b6-4c7d-8e9f-0a1b2c3d4e5f',
        metadata: { userId: 'a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d', from: 'member', to: 'admin' },
      },
    ],
  },
)

export const AuditEventPage = paged(AuditEvent, 'AuditEventPage')

/** `actor` ids are uuids, or a job name for `system`. */
const ACTOR_ID = '^[A-Za-z0-9._:-]{1,128}$'

export const AuditQuery = t.Composite([
  PageQuery,
  t.Object({
    actor: t.Optional(t.String({ pattern: ACTOR_ID, description: 'Events by this actor id (for an API token also: by the account it belongs to)' })),
    action: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 100,
        description: 'Actions starting with this text, e.g. `auth.` or `team.member.` (taken literally: `%` and `_` are not wildcards)',
      }),
    ),
    targetType: t.Optional(t.String({ minLength: 1, maxLength: 50 })),
    targetId: t.Optional(t.String({ minLength: 1, maxLength: 200 })),
    from: t.Optional(t.String({ format: 'date-time', description: 'Events at or after this time (ISO 8601)' })),
    to: t.Optional(t.String({ format: 'date-time', description: 'Events at or before this time (ISO 8601)' })),
  }),
])
