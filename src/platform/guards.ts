import { authGuard } from './auth'
import { type GuardSources, tenancyGuard } from './tenancy'

/**
 * The guard plugins, built once per app (createApp) and handed to every area's routes, which
 * `.use()` the ones they need; Elysia dedupes them by name (`auth-guard`, `tenancy-guard`).
 */
export interface Guards {
  /** `auth: true`, `scope: 'name'` and `admin: true`: the account principal of a bearer credential (see authGuard). */
  auth: ReturnType<typeof authGuard>
  /**
   * `tenant: 'customer' | 'member' | 'admin' | 'owner'`: the ecosystem of the request. A customer
   * token carries its ecosystem; account credentials name it in the X-Ecosystem-Id header
   * (ECOSYSTEM_HEADER; ecosystem id or rdid), checked against team membership. The guard adds
   * that header to each operation's OpenAPI parameters (`components.parameters.EcosystemId`).
   * `tenantOrAdmin: 'admin'`: the same, or without the header a platform admin (tenant null).
   * `stream: 'customer'`: the tenant of an event stream, also from a single-use `?ticket=`, with the credential the stream must end with.
   */
  tenancy: ReturnType<typeof tenancyGuard>
}

export function createGuards(sources: GuardSources): Guards {
  return { auth: authGuard(sources.users, sources.limits, sources.trustProxy), tenancy: tenancyGuard(sources) }
}
