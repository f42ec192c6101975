import { Elysia } from 'elysia'
import type { ApiLimits, GuardContext, LimitSubject } from './api-limits'
import type { AccessTokens } from './jwt'
import { accountOnly, type Assurance, assured, bearerSecurity, bearerToken, type PrincipalSource, type UserPrincipal } from './auth'
import { AppError } from './errors'
import { noteCaller, requestInfo, type RequestInfo } from './http'
import { EXTRA_PARAMETERS, TENANT_LEVEL } from './openapi'

export type Role = 'owner' | 'admin' | 'member'
/** What a route needs: `customer` admits customers and team members acting as customers. */
export type TenantLevel = 'customer' | Role

const RANK: Record<Role, number> = { member: 1, admin: 2, owner: 3 }

export interface Tenant {
  ecosystemId: string
  organizationId: string
  /** The customer acting: the token's own, or the account user's customer record (`user:<id>`). */
  customerId: string
  /** `apiTokenId`: the API token the user acts with (null or absent for a session). */
  actor: { kind: 'customer' } | { kind: 'user'; userId: string; role: Role; apiTokenId?: string | null; assurance?: Assurance }
  /** Where the request came from (set by the tenancy guard; absent outside a request), for the audit log. */
  request?: RequestInfo
}

/** A customer acting for itself in its ecosystem, as work done on its behalf outside a request sees it (a chat turn's tools). */
export const asCustomer = (tenant: Pick<Tenant, 'ecosystemId' | 'customerId'>): Tenant => ({
  ecosystemId: tenant.ecosystemId,
  customerId: tenant.customerId,
  organizationId: '',
  actor: { kind: 'customer' },
})

/** What tenancy needs from the registry, team and customer areas (wired in app.ts). */
export interface TenancySource {
  /** Verifies a customer session (claims of a `typ: customer` token); 401 when it has ended. */
  customerSession(claims: { sub: string; sid?: unknown; eco?: unknown }): Promise<{ customerId: string; ecosystemId: string; organizationId: string }>
  /** An ecosystem by id or rdid. */
  findEcosystem(idOrRdid: string): Promise<{ id: string; organizationId: string; requireMfa?: boolean } | null>
  roleOf(userId: string, organizationId: string): Promise<Role | null>
  /** The account user's own customer record in the ecosystem, created on first use. */
  selfCustomer(ecosystemId: string, userId: string): Promise<string>
}

export const ECOSYSTEM_HEADER = 'x-ecosystem-id'

/** `?ticket=` on event streams, as an OpenAPI parameter. */
const TICKET_PARAMETER = {
  in: 'query' as const,
  name: 'ticket',
  required: false,
  schema: { type: 'string' as const },
  description:
    'A single-use stream ticket from `POST /realtime/tickets` (valid 60 s), instead of the Authorization header: for browsers’ EventSource, which cannot send headers. Access tokens never go in URLs.',
}

/** The X-Ecosystem-Id header as an OpenAPI parameter (`components.parameters.EcosystemId`); every tenant-scoped operation lists it. */
export const ECOSYSTEM_PARAMETER = {
  in: 'header' as const,
  name: 'X-Ecosystem-Id',
  required: false,
  schema: { type: 'string' as const },
  description: 'Ecosystem id or rdid; required with account credentials, implied by a customer token',
}

/**
 * The ecosystem of a request: from a customer token, or for account credentials (JWT, API token)
 * from the X-Ecosystem-Id header (id or rdid) checked against team membership.
 * 404 when the ecosystem does not exist, 403 `forbidden` when the caller may not act in it.
 */
export async function resolveTenant(
  level: TenantLevel,
  headers: Record<string, string | undefined>,
  deps: { tokens: AccessTokens; users: PrincipalSource; tenancy: TenancySource },
): Promise<Tenant> {
  const token = bearerToken(headers.authorization)
  if (!token.startsWith('eco_')) {
    const claims = await deps.tokens.verify(token)
    if (claims.typ === 'customer') {
      if (level !== 'customer') throw new AppError(403, 'forbidden', 'This operation needs an ecosystem team role')
      const session = await deps.tenancy.customerSession(claims)
      const wanted = headers[ECOSYSTEM_HEADER]
      if (wanted && wanted !== session.ecosystemId) {
        const named = await deps.tenancy.findEcosystem(wanted)
        if (named?.id !== session.ecosystemId) throw new AppError(403, 'forbidden', 'The customer token belongs to another ecosystem')
      }
      return { ...session, actor: { kind: 'customer' } }
    }
  }
  // An OAuth client acting for a user is not a team member: no ecosystem scopes exist (yet).
  const principal = assured(accountOnly(await deps.users.resolveBearer(token)), null)
  const wanted = headers[ECOSYSTEM_HEADER]
  if (!wanted) throw new AppError(400, 'ecosystem_required', 'Send the X-Ecosystem-Id header (ecosystem id or rdid)')
  const ecosystem = await deps.tenancy.findEcosystem(wanted)
  if (!ecosystem) throw new AppError(404, 'not_found', 'No such ecosystem')
  const role = await deps.tenancy.roleOf(principal.userId, ecosystem.organizationId)
  if (!role) throw new AppError(403, 'forbidden', 'You are not a member of this ecosystem')
  if (level !== 'customer' && RANK[role] < RANK[level]) {
    throw new AppError(403, 'forbidden', `This operation needs the ${level} role`)
  }
  if (ecosystem.requireMfa) requireOrganizationMfa(principal)
  return {
    ecosystemId: ecosystem.id,
    organizationId: ecosystem.organizationId,
    customerId: await deps.tenancy.selfCustomer(ecosystem.id, principal.userId),
    actor: { kind: 'user', userId: principal.userId, role, apiTokenId: principal.apiTokenId, assurance: principal.assurance },
  }
}

/**
 * An organization's `requireMfa`: its members act in its ecosystems only while their account has a
 * verified second factor (read from the account), a session once it verified it (`aal2`), an API
 * token while its account has one (as GitHub applies it). 403 `mfa_required`, saying what to do.
 */
function requireOrganizationMfa(principal: UserPrincipal): void {
  const assurance = principal.assurance
  if (!assurance) return
  if (!assurance.mfa) {
    throw new AppError(
      403,
      'mfa_required',
      principal.apiTokenId
        ? 'This organization requires a second factor, and this token’s account has none: its owner enrolls one (POST /auth/mfa/totp, then confirm it) for the token to act here again'
        : 'This organization requires a second factor: enroll one (POST /auth/mfa/totp, then confirm it), then act again',
    )
  }
  if (!principal.apiTokenId && assurance.aal !== 'aal2') {
    throw new AppError(403, 'mfa_required', 'This organization requires a second factor: verify yours (POST /auth/mfa/verify)')
  }
}

/**
 * What a long-lived stream keeps of the credential it was opened with, to end when that credential
 * does: the session (or API token) behind it and when the access token expires. `key` is the same
 * for streams opened with one credential, so each is checked once however many streams share it.
 */
export interface StreamCredential {
  key: string
  kind: 'customer' | 'user'
  /** The customer (customer tokens) or the account user. */
  subjectId: string
  sessionId: string | null
  apiTokenId: string | null
  /** When the access token expires (ms since the epoch); null for an API token (checked in its row). */
  expiresAt: number | null
}

/** Turns a stream ticket (`?ticket=`) into the tenant and credential it was issued to, once (realtime module). */
export interface TicketSource {
  redeem(ticket: string, level: TenantLevel): Promise<{ tenant: Tenant; credential: StreamCredential }>
}

/** The credential behind a tenant resolved from an Authorization header (see StreamCredential). */
export async function streamCredential(tenant: Tenant, headers: Record<string, string | undefined>, tokens: AccessTokens): Promise<StreamCredential> {
  if (tenant.actor.kind === 'user' && tenant.actor.apiTokenId) {
    const id = tenant.actor.apiTokenId
    return { key: `t:${id}:${tenant.ecosystemId}`, kind: 'user', subjectId: tenant.actor.userId, sessionId: null, apiTokenId: id, expiresAt: null }
  }
  const claims = await tokens.verify(bearerToken(headers.authorization))
  const sessionId = typeof claims.sid === 'string' ? claims.sid : null
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : null
  const kind = claims.typ === 'customer' ? 'customer' : 'user'
  return { key: `${kind[0]}:${sessionId}:${tenant.ecosystemId}`, kind, subjectId: claims.sub, sessionId, apiTokenId: null, expiresAt }
}

/** An ecosystem admin or owner (an account user above `member`): sees and changes every row of the ecosystem. */
export const isAdmin = (tenant: Tenant) => tenant.actor.kind === 'user' && tenant.actor.role !== 'member'

/** Whether a tenant may use a route of `level` (customers only `customer` routes). */
export function meetsLevel(tenant: Tenant, level: TenantLevel): boolean {
  if (level === 'customer') return true
  return tenant.actor.kind === 'user' && RANK[tenant.actor.role] >= RANK[level]
}

/**
 * Who reads an area that has both an ecosystem view and an instance-wide one (the audit log): with
 * X-Ecosystem-Id (or a customer token), the tenant at `level`; without, an account credential that
 * holds the platform `admin` capability (403 otherwise), and `tenant` is null. Customers are 403 in
 * both cases, as on any route above the `customer` level.
 */
export async function resolveTenantOrAdmin(
  level: Role,
  headers: Record<string, string | undefined>,
  deps: { tokens: AccessTokens; users: PrincipalSource; tenancy: TenancySource },
): Promise<{ tenant: Tenant | null; userId: string }> {
  if (headers[ECOSYSTEM_HEADER]) {
    const tenant = await resolveTenant(level, headers, deps)
    return { tenant, userId: tenant.actor.kind === 'user' ? tenant.actor.userId : tenant.customerId }
  }
  const token = bearerToken(headers.authorization)
  if (!token.startsWith('eco_') && (await deps.tokens.verify(token)).typ === 'customer') {
    throw new AppError(403, 'forbidden', 'This operation needs an ecosystem team role')
  }
  const principal = assured(accountOnly(await deps.users.resolveBearer(token)), null)
  if (!(await deps.users.capabilities(principal)).includes('admin')) {
    throw new AppError(403, 'forbidden', 'Without X-Ecosystem-Id this operation needs the admin capability')
  }
  return { tenant: null, userId: principal.userId }
}

/** Whose budget a tenant's requests count against, in its ecosystem: the customer, the API token, or the account. */
export function tenantSubject(tenant: Tenant): LimitSubject {
  const { actor, ecosystemId } = tenant
  if (actor.kind === 'customer') return { kind: 'c', id: tenant.customerId, ecosystemId }
  return actor.apiTokenId ? { kind: 't', id: actor.apiTokenId, ecosystemId } : { kind: 'u', id: actor.userId, ecosystemId }
}

/** What the guards are built from (platform/guards.ts). */
export interface GuardSources {
  tokens: AccessTokens
  users: PrincipalSource
  tenancy: TenancySource
  /** The API rate limits each request counts against, once its principal is known. */
  limits: ApiLimits
  tickets?: TicketSource
  /** TRUST_PROXY: whether the client address attached for the audit log comes from X-Forwarded-For. */
  trustProxy?: boolean
}

/**
 * `tenant: 'customer' | 'member' | 'admin' | 'owner'` on a route resolves `tenant` or answers 400/401/403/404;
 * `tenantOrAdmin: 'admin' | 'owner'` resolves `tenant` as that, or null for a platform admin without X-Ecosystem-Id (resolveTenantOrAdmin).
 * Either tenant carries where the request came from (`request`), for the audit log. Each request
 * counts against the rate limit of its principal in that ecosystem (platform/api-limits.ts; a
 * platform admin without X-Ecosystem-Id, as an account).
 */
export function tenancyGuard(deps: GuardSources) {
  const trustProxy = deps.trustProxy ?? false
  const limited = <T extends { tenant: Tenant }>(ctx: GuardContext, resolve: () => Promise<T>) =>
    deps.limits.guard(ctx, resolve, (r) => tenantSubject(r.tenant))
  const headerStream = async (level: TenantLevel, headers: Record<string, string | undefined>) => {
    const tenant = await resolveTenant(level, headers, deps)
    return { tenant, credential: await streamCredential(tenant, headers, deps.tokens) }
  }
  return new Elysia({ name: 'tenancy-guard' }).macro({
    tenant: (level: TenantLevel) => ({
      detail: { security: bearerSecurity, [EXTRA_PARAMETERS]: [{ $ref: '#/components/parameters/EcosystemId' }], [TENANT_LEVEL]: level },
      resolve({ headers, request, route, server, set }) {
        return limited({ request, route, server, set }, async () => {
          const tenant = await resolveTenant(level, headers, deps)
          noteCaller(request, { ecosystemId: tenant.ecosystemId, principalId: tenant.actor.kind === 'user' ? tenant.actor.userId : tenant.customerId })
          return { tenant: { ...tenant, request: requestInfo(request, server, trustProxy) } }
        })
      },
    }),
    /**
     * For public reads about one ecosystem: `tenant` as `tenant: level` resolves it when the
     * request carries an Authorization header (so a customer's token names its own ecosystem),
     * else null (the route names the ecosystem otherwise).
     */
    optionalTenant: (level: TenantLevel) => ({
      detail: { security: [{}, ...bearerSecurity] },
      async resolve({ headers, request, server }) {
        if (!headers.authorization) return { tenant: null as Tenant | null }
        const tenant = await resolveTenant(level, headers, deps)
        noteCaller(request, { ecosystemId: tenant.ecosystemId, principalId: tenant.actor.kind === 'user' ? tenant.actor.userId : tenant.customerId })
        return { tenant: { ...tenant, request: requestInfo(request, server, trustProxy) } as Tenant | null }
      },
    }),
    /**
     * For event streams: `tenant` as `tenant: level` resolves it, or from a single-use `?ticket=`
     * (POST /realtime/tickets) when the request has no Authorization header (browsers' EventSource
     * cannot send one), plus the `credential` the stream must end with.
     */
    stream: (level: TenantLevel) => ({
      detail: { security: bearerSecurity, [EXTRA_PARAMETERS]: [{ $ref: '#/components/parameters/EcosystemId' }, TICKET_PARAMETER], [TENANT_LEVEL]: level },
      resolve({ headers, request, route, server, set }) {
        return limited({ request, route, server, set }, async () => {
          const ticket = headers.authorization ? null : new URL(request.url).searchParams.get('ticket')
          if (ticket !== null && !deps.tickets) throw new AppError(401, 'unauthorized', 'Stream tickets are not accepted here')
          const { tenant, credential } = ticket !== null ? await deps.tickets!.redeem(ticket, level) : await headerStream(level, headers)
          noteCaller(request, { ecosystemId: tenant.ecosystemId, principalId: tenant.actor.kind === 'user' ? tenant.actor.userId : tenant.customerId })
          return { tenant: { ...tenant, request: requestInfo(request, server, trustProxy) }, credential }
        })
      },
    }),
    tenantOrAdmin: (level: Role) => ({
      detail: { security: bearerSecurity, [EXTRA_PARAMETERS]: [{ $ref: '#/components/parameters/EcosystemId' }], [TENANT_LEVEL]: `${level}-or-platform` },
      async resolve({ headers, request, route, server, set }) {
        const { tenant } = await deps.limits.guard(
          { request, route, server, set },
          async () => {
            const { tenant, userId } = await resolveTenantOrAdmin(level, headers, deps)
            noteCaller(request, { principalId: userId, ...(tenant ? { ecosystemId: tenant.ecosystemId } : {}) })
            return { tenant, userId }
          },
          (r): LimitSubject => (r.tenant ? tenantSubject(r.tenant) : { kind: 'u', id: r.userId }),
        )
        return { tenant }
      },
    }),
  })
}
