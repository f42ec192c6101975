import type { Server } from 'bun'
import { Elysia } from 'elysia'
import { AppError, describeError } from './errors'
import { rateLimitExempt } from './http'
import { type Logger, throttledLog } from './logger'
import { ACCOUNT_GUARD, TENANT_LEVEL } from './openapi'
import type { RateLimitHit, RateLimitStore } from './rate-limit'
import { clientIp } from './request'

/**
 * Classes of route, each with its own budget per principal and window: `read` (GET, HEAD),
 * `write` (every other method), `expensive` (routes a module names: a chat reply, an upload
 * presign); `anonymous` is the one budget of a client address on routes without credentials.
 */
export type LimitClass = 'read' | 'write' | 'expensive' | 'anonymous'
export type PrincipalClass = Exclude<LimitClass, 'anonymous'>

export interface ApiLimitsConfig {
  enabled: boolean
  windowSeconds: number
  quotas: Record<LimitClass, number>
}

/** An ecosystem's own quotas per principal (registry ecosystems' `rateLimits`); a class left out keeps the default. */
export type EcosystemLimits = Partial<Record<PrincipalClass, number>>

/**
 * Who a budget belongs to: `u` an account (its sessions together), `t` an API token, `o` an OAuth client (all its
 * users' tokens together), `c` a customer, `a` a client address; with the ecosystem acted in.
 */
export interface LimitSubject {
  kind: 'u' | 't' | 'o' | 'c' | 'a'
  id: string
  ecosystemId?: string | null
}

/** Where the RateLimit fields go: Elysia's `set.headers`. */
type Headers = Record<string, string | number>

/** What a guard's resolve sees of its request. */
export interface GuardContext {
  request: Request
  route: string
  server: Server<unknown> | null
  set: { headers: Headers }
}

/** A mounted route, as Elysia lists it (`app.routes`). */
interface MountedRoute {
  method: string
  path: string
  hooks?: { detail?: Record<string, unknown> }
}

/**
 * API rate limits per principal and class of route, counted in the RateLimitStore (memory, or
 * Redis across replicas) in fixed windows. Routes behind the auth or tenancy guard are counted once
 * the guard knows the principal (a failed credential counts against the address); every other
 * route against the client address. Answers carry `RateLimit-Policy` and `RateLimit`
 * (draft-ietf-httpapi-ratelimit-headers); past the quota, 429 `rate_limited` with Retry-After.
 */
export class ApiLimits {
  private readonly expensive: Set<string>
  /** `METHOD /route` of the routes behind a guard, which counts them per principal. */
  private readonly guarded = new Set<string>()
  private readonly logStoreError: ReturnType<typeof throttledLog>

  constructor(
    private readonly deps: { config: { apiLimits: ApiLimitsConfig; trustProxy: boolean }; rateLimits: RateLimitStore; logger: Pick<Logger, 'error'> },
    /** The ecosystem's own quotas, from the registry's replica cache (at once when cached). */
    private readonly ecosystemLimits: (ecosystemId: string) => EcosystemLimits | null | Promise<EcosystemLimits | null>,
    /** `METHOD /route/:template` of the routes in the `expensive` class. */
    expensiveRoutes: readonly string[],
  ) {
    this.expensive = new Set(expensiveRoutes)
    this.logStoreError = throttledLog(deps.logger.error, 1)
  }

  private get enabled(): boolean {
    return this.deps.config.apiLimits.enabled
  }

  /** Whether a route is counted at all (not a probe, documentation, console page or preflight). */
  private applies(method: string, route: string): boolean {
    return this.enabled && method !== 'OPTIONS' && !rateLimitExempt(route)
  }

  private classOf(method: string, route: string): PrincipalClass {
    if (this.expensive.has(`${method} ${route}`)) return 'expensive'
    return method === 'GET' || method === 'HEAD' ? 'read' : 'write'
  }

  /** Notes which routes a guard counts (their `detail` marks them), once every route is mounted. */
  mounted(routes: readonly MountedRoute[]): void {
    for (const r of routes) if (r.hooks?.detail?.[ACCOUNT_GUARD] || r.hooks?.detail?.[TENANT_LEVEL]) this.guarded.add(`${r.method} ${r.path}`)
  }

  /**
   * Counts the requests of routes without a guard against the client address, before they run; a
   * guarded route is counted by its guard (`guard`), which knows the principal.
   */
  plugin() {
    // Not async: a guarded route (most requests) returns at once, without a promise to await.
    return new Elysia({ name: 'api-limits' }).onBeforeHandle({ as: 'global' }, ({ request, route, server, set }) => {
      const { method } = request
      // A HEAD is served by its GET route, guard included.
      if (!this.applies(method, route) || this.guarded.has(`${method === 'HEAD' ? 'GET' : method} ${route}`)) return
      return this.admit(this.address(request, server), method, route, set.headers)
    })
  }

  /**
   * A guard's resolution, counted: against the principal `subject` names, or, when the credential
   * is refused (401), against the client address, so guessing tokens is limited like any anonymous call.
   */
  async guard<T>(ctx: GuardContext, resolve: () => Promise<T>, subject: (resolved: T) => LimitSubject): Promise<T> {
    if (!this.enabled) return resolve()
    const { method } = ctx.request
    let resolved: T
    try {
      resolved = await resolve()
    } catch (err) {
      if (err instanceof AppError && err.status === 401) await this.admit(this.address(ctx.request, ctx.server), method, ctx.route, ctx.set.headers)
      throw err
    }
    const admitted = this.admit(subject(resolved), method, ctx.route, ctx.set.headers)
    if (admitted) await admitted
    return resolved
  }

  private address(request: Request, server: Server<unknown> | null | undefined): LimitSubject {
    return { kind: 'a', id: clientIp(request, server, this.deps.config.trustProxy) }
  }

  /**
   * Counts a request of `subject`; sets the RateLimit fields on `headers`, or throws 429 past the
   * quota. Synchronous when the store and the quota answer at once (memory, a cached ecosystem): most
   * requests then await nothing here. Should the store fail (Redis unreachable), the request passes
   * uncounted and the failure is logged once a minute: a limit is no reason to refuse every request.
   */
  admit(subject: LimitSubject, method: string, route: string, headers: Headers): void | Promise<void> {
    const limitClass: LimitClass = subject.kind === 'a' ? 'anonymous' : this.classOf(method, route)
    const quota = this.quota(limitClass, subject.ecosystemId)
    const hit = this.hit(`api:${limitClass}:${subject.ecosystemId ?? '-'}:${subject.kind}:${subject.id}`)
    if (quota instanceof Promise || hit instanceof Promise) {
      return Promise.all([quota, hit]).then(([q, h]) => this.answer(limitClass, q, h, headers))
    }
    this.answer(limitClass, quota, hit, headers)
  }

  /** The store's count, or undefined when the store failed. */
  private hit(key: string): RateLimitHit | undefined | Promise<RateLimitHit | undefined> {
    const failed = (err: unknown) => {
      this.logStoreError('store', 'rate-limit store failed: requests pass uncounted', describeError(err))
      return undefined
    }
    try {
      const hit = this.deps.rateLimits.hit(key, this.deps.config.apiLimits.windowSeconds)
      return hit instanceof Promise ? hit.catch(failed) : hit
    } catch (err) {
      return failed(err)
    }
  }

  private answer(limitClass: LimitClass, quota: number, hit: RateLimitHit | undefined, headers: Headers): void {
    if (!hit) return
    const { windowSeconds } = this.deps.config.apiLimits
    const reset = Math.max(1, Math.ceil(hit.resetMs / 1000))
    const policy = `"${limitClass}";q=${quota};w=${windowSeconds}`
    const left = `"${limitClass}";r=${Math.max(0, quota - hit.count)};t=${reset}`
    if (hit.count > quota) {
      throw new AppError(429, 'rate_limited', `Too many ${limitClass} requests: ${quota} per ${windowSeconds} s; retry in ${reset} s`, undefined, {
        'ratelimit-policy': policy,
        ratelimit: left,
        'retry-after': String(reset),
      })
    }
    headers['ratelimit-policy'] = policy
    headers.ratelimit = left
  }

  private quota(limitClass: LimitClass, ecosystemId: string | null | undefined): number | Promise<number> {
    const byDefault = this.deps.config.apiLimits.quotas[limitClass]
    if (limitClass === 'anonymous' || !ecosystemId) return byDefault
    const own = this.ecosystemLimits(ecosystemId)
    return own instanceof Promise ? own.then((limits) => limits?.[limitClass] ?? byDefault) : (own?.[limitClass] ?? byDefault)
  }
}
