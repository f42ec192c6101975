import { Elysia } from 'elysia'
import type { ApiLimits, LimitSubject } from './api-limits'
import { AppError } from './errors'
import { noteCaller, requestInfo, type RequestInfo } from './http'
import { ACCOUNT_GUARD } from './openapi'

/** Who is calling. Later areas add kinds (customer, oauth) beside `user`. */
export interface UserPrincipal {
  kind: 'user'
  userId: string
  /** The account session behind a JWT; null for API tokens. */
  sessionId: string | null
  /** The API token used; null for session JWTs. */
  apiTokenId: string | null
  /** Set for an OAuth access token: a client application acting for the user within `scopes`. */
  oauth?: OAuthAccess
  /** Where the request came from (set by the auth guard; absent outside a request), for the audit log. */
  request?: RequestInfo
  /**
   * For account credentials (session JWT, API token): the credential's assurance level and whether
   * the account has a verified second factor now (read from the account, never from the token).
   * Absent for OAuth access tokens.
   */
  assurance?: Assurance
}
export interface Assurance {
  /** A session's, from its access token: `aal2` once a second factor was verified in it. An API token counts as `aal2`. */
  aal: 'aal1' | 'aal2'
  /** The account has a verified second factor (from the account record, through the replica cache). */
  mfa: boolean
}
export interface OAuthAccess {
  clientId: string
  grantId: string
  scopes: string[]
}
export type Principal = UserPrincipal

export interface PrincipalSource {
  /** Resolves a raw bearer credential or throws a 401 AppError. */
  resolveBearer(token: string): Promise<Principal>
  capabilities(principal: Principal): Promise<string[]>
}

export const bearerSecurity = [{ bearer: [] as string[] }]

export function bearerToken(header: string | undefined): string {
  if (!header) throw new AppError(401, 'unauthorized', 'Missing Authorization: Bearer header')
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header)
  if (!match) throw new AppError(401, 'unauthorized', 'Authorization header must be "Bearer <token>"')
  return match[1]!
}

/** Routes an account with a second factor reaches before verifying it (`aal1`): itself, the factors and passkeys (the way to `aal2`). */
const BEFORE_SECOND_FACTOR = [/^\/auth\/me$/, /^\/auth\/mfa(\/|$)/, /^\/auth\/passkeys(\/|$)/]

/** 403 `mfa_required` for an `aal1` session of an account with a second factor, except on the routes that lead to verifying it. */
export function assured<P extends { assurance?: Assurance }>(principal: P, path: string | null): P {
  if (principal.assurance?.mfa && principal.assurance.aal === 'aal1' && !(path !== null && BEFORE_SECOND_FACTOR.some((r) => r.test(path)))) {
    throw new AppError(403, 'mfa_required', 'This account has a second factor: verify it first (POST /auth/mfa/verify with a code or a recovery code)')
  }
  return principal
}

/** 403 `mfa_required` unless the session verified a second factor, when the account has one (sensitive changes: tokens, secrets, factors). */
export function requireAal2(who: { assurance?: Assurance } | { actor: { kind: string; assurance?: Assurance } }): void {
  const assurance = 'actor' in who ? who.actor.assurance : who.assurance
  if (assurance?.mfa && assurance.aal !== 'aal2') {
    throw new AppError(403, 'mfa_required', 'This change needs a verified second factor in this session: POST /auth/mfa/verify first')
  }
}

/** OAuth access tokens reach only routes that declare a `scope`; elsewhere they are not credentials. */
export function accountOnly<P extends Principal>(principal: P): P {
  if (principal.kind === 'user' && principal.oauth) {
    throw new AppError(401, 'unauthorized', 'OAuth access tokens cannot be used on this route')
  }
  return principal
}

/** The one scope check: account credentials pass; an OAuth token needs `scope` (403 `insufficient_scope`). */
export function requireScope<P extends Principal>(principal: P, scope: string): P {
  if (principal.kind === 'user' && principal.oauth && !principal.oauth.scopes.includes(scope)) {
    throw new AppError(403, 'insufficient_scope', `This operation needs the OAuth scope "${scope}"`)
  }
  return principal
}

type Server = Parameters<typeof requestInfo>[1]

/** Notes the caller for the request log line and attaches where the request came from. */
function noted<P extends Principal>(request: Request, server: Server, trustProxy: boolean, principal: P): P {
  noteCaller(request, { principalId: principal.userId })
  assured(principal, pathOf(request.url))
  return { ...principal, request: requestInfo(request, server, trustProxy) }
}

const pathOf = (url: string) => {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const query = url.indexOf('?', start)
  return url.slice(start, query < 0 ? undefined : query)
}

/** Whose budget an account principal's requests count against: its OAuth client, its API token, or the account. */
export function principalSubject(principal: Principal): LimitSubject {
  if (principal.oauth) return { kind: 'o', id: principal.oauth.clientId }
  return principal.apiTokenId ? { kind: 't', id: principal.apiTokenId } : { kind: 'u', id: principal.userId }
}

/**
 * `auth: true` on a route resolves `principal` or answers 401;
 * `admin: true` additionally requires the platform `admin` capability (403 otherwise);
 * `scope: 'name'` is `auth: true` that also admits OAuth access tokens granted that scope.
 * Without `scope`, OAuth access tokens get 401. Each request counts against the principal's rate
 * limit (platform/api-limits.ts).
 */
export function authGuard(source: PrincipalSource, limits: ApiLimits, trustProxy = false) {
  type Context = Parameters<ApiLimits['guard']>[0] & { headers: Record<string, string | undefined> }
  const principalOf = (ctx: Context, check: (principal: Principal) => Principal) =>
    limits.guard(
      ctx,
      async () => noted(ctx.request, ctx.server, trustProxy, check(await source.resolveBearer(bearerToken(ctx.headers.authorization)))),
      principalSubject,
    )
  return new Elysia({ name: 'auth-guard' }).macro({
    auth: {
      detail: { security: bearerSecurity, [ACCOUNT_GUARD]: true },
      async resolve({ headers, request, route, server, set }) {
        return { principal: await principalOf({ headers, request, route, server, set }, accountOnly) }
      },
    },
    scope: (scope: string) => ({
      detail: { security: [...bearerSecurity, { oauth2: [scope] }], [ACCOUNT_GUARD]: true },
      async resolve({ headers, request, route, server, set }: Context) {
        return { principal: await principalOf({ headers, request, route, server, set }, (principal) => requireScope(principal, scope)) }
      },
    }),
    admin: {
      detail: { security: bearerSecurity, [ACCOUNT_GUARD]: true },
      async resolve({ headers, request, route, server, set }) {
        const principal = await principalOf({ headers, request, route, server, set }, accountOnly)
        if (!(await source.capabilities(principal)).includes('admin')) {
          throw new AppError(403, 'forbidden', 'This operation needs the admin capability')
        }
        return { principal }
      },
    },
  })
}
