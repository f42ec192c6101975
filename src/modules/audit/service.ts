import { and, desc, eq, gte, isNull, like, lte, or, type SQL } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import type { Db } from '../../platform/db'
import type { RequestInfo } from '../../platform/http'
import { listPage, type PageParams } from '../../platform/paging'
import { isUuid, queryInstant } from '../../platform/params'
import type { Tenant } from '../../platform/tenancy'
import type { AuditAction } from '..'
import { auditEvents } from './schema'
import { auditError } from './errors'
import { escapeLike } from '../../platform/db/like'

export type ActorType = 'user' | 'customer' | 'api_token' | 'system'
export interface AuditActor {
  type: ActorType
  /** Null for a caller not identified yet (a failed sign-in). */
  id: string | null
  /** For an `api_token` actor: the account it belongs to. */
  userId?: string
}

/** Who acted and from where, spelled out: for sign-in and password reset (no principal yet) and jobs. */
export interface AuditContext {
  actor: AuditActor
  request?: RequestInfo
}

/**
 * Who acted: the tenant or principal a route resolved (both carry the request's address, agent and
 * id, attached by the guards), or an AuditContext.
 */
export type AuditBy = Tenant | Principal | AuditContext

export interface AuditEntry {
  /** `<area>.<noun>.<verb>`, e.g. `integrations.webhook.secret_rotated`: declared by its area (its events.ts). */
  action: AuditAction
  target: { type: string; id: string | null }
  /** Defaults to the tenant's ecosystem (null for a principal or context). */
  ecosystemId?: string | null
  /** Defaults to the tenant's organization (null for a principal or context). */
  organizationId?: string | null
  /** Names, kinds, roles, changed key names: never a secret, token, password or configuration value. */
  metadata?: Record<string, unknown>
}

export interface AuditFilter {
  actor?: string
  action?: string
  targetType?: string
  targetId?: string
  from?: string
  to?: string
}

/** A job acting on its own (e.g. turning off a failing webhook). */
export const systemActor = (job: string): AuditContext => ({ actor: { type: 'system', id: job } })

/** The actor and request of whoever acted. */
export function auditContext(by: AuditBy): AuditContext {
  if ('ecosystemId' in by) {
    const a = by.actor
    if (a.kind === 'customer') return { actor: { type: 'customer', id: by.customerId }, request: by.request }
    return { actor: a.apiTokenId ? { type: 'api_token', id: a.apiTokenId, userId: a.userId } : { type: 'user', id: a.userId }, request: by.request }
  }
  if ('kind' in by) {
    return { actor: by.apiTokenId ? { type: 'api_token', id: by.apiTokenId, userId: by.userId } : { type: 'user', id: by.userId }, request: by.request }
  }
  return by
}

type Row = typeof auditEvents.$inferSelect

const view = (r: Row) => ({
  id: r.id,
  at: r.at.toISOString(),
  actor: { type: r.actorType, id: r.actorId, ...(r.actorUserId ? { userId: r.actorUserId } : {}) },
  ecosystemId: r.ecosystemId,
  organizationId: r.organizationId,
  action: r.action,
  target: { type: r.targetType, id: r.targetId },
  ip: r.ip,
  userAgent: r.userAgent,
  requestId: r.requestId,
  metadata: r.metadata,
})

const likePrefix = (text: string) => `${escapeLike(text)}%`

/**
 * The audit log. Areas call `record` in the transaction of the change it describes, so a change
 * that rolls back leaves no event and none commits without one; `list` serves GET /audit/events.
 */
export class AuditService {
  constructor(private readonly deps: Pick<Deps, 'db' | 'now'>) {}

  /** Writes one event with `db`: the change's transaction, or the database itself for an event with no change (a failed sign-in). */
  async record(db: Db, by: AuditBy, entry: AuditEntry): Promise<void> {
    const { actor, request } = auditContext(by)
    const tenant = 'ecosystemId' in by ? by : null
    await db.insert(auditEvents).values({
      at: this.deps.now(),
      actorType: actor.type,
      actorId: actor.id,
      actorUserId: actor.userId ?? null,
      ecosystemId: entry.ecosystemId !== undefined ? entry.ecosystemId : (tenant?.ecosystemId ?? null),
      organizationId: entry.organizationId !== undefined ? entry.organizationId : (tenant?.organizationId ?? null),
      action: entry.action,
      targetType: entry.target.type,
      targetId: entry.target.id,
      ip: request?.ip ?? null,
      userAgent: request?.userAgent ?? null,
      requestId: request?.requestId ?? null,
      metadata: entry.metadata ?? {},
    })
  }

  /**
   * Events newest first. `scope`: an ecosystem's events and those of its organization (team
   * changes); null: account-level events, those of no ecosystem (for platform admins).
   */
  async list(scope: { ecosystemId: string; organizationId: string } | null, filter: AuditFilter, page: PageParams) {
    const e = auditEvents
    const conditions: (SQL | undefined)[] = [
      scope ? or(eq(e.ecosystemId, scope.ecosystemId), and(isNull(e.ecosystemId), eq(e.organizationId, scope.organizationId))) : isNull(e.ecosystemId),
    ]
    if (filter.actor !== undefined)
      conditions.push(isUuid(filter.actor) ? or(eq(e.actorId, filter.actor), eq(e.actorUserId, filter.actor)) : eq(e.actorId, filter.actor))
    if (filter.action !== undefined) conditions.push(like(e.action, likePrefix(filter.action)))
    if (filter.targetType !== undefined) conditions.push(eq(e.targetType, filter.targetType))
    if (filter.targetId !== undefined) conditions.push(eq(e.targetId, filter.targetId))
    const from = filter.from === undefined ? null : queryInstant('from', filter.from)
    const to = filter.to === undefined ? null : queryInstant('to', filter.to)
    if (from && to && from > to) throw auditError(400, 'validation_failed', 'query.from: must not be after `to`')
    if (from) conditions.push(gte(e.at, from))
    if (to) conditions.push(lte(e.at, to))
    return listPage(this.deps.db, e, and(...conditions), [desc(e.at), desc(e.id)], page, view)
  }
}
