import type { Deps } from '../../deps'
import { authError } from './errors'

/**
 * Login throttling: failures per e-mail (guessing one account) and attempts per client address
 * (spraying many). Counters live in the configured RateLimitStore (memory, or Redis when shared).
 */
export class LoginLimiter {
  constructor(private readonly deps: Pick<Deps, 'config' | 'rateLimits'>) {}

  async admit(emailKey: string, clientIp: string): Promise<void> {
    const { loginLimits } = this.deps.config
    await this.admitAddress(clientIp)
    const perEmail = await this.deps.rateLimits.peek(`login:fail:${emailKey}`)
    if (perEmail.count >= loginLimits.failuresPerEmail) throw limited(perEmail.resetMs)
  }

  /** Counts an attempt from `clientIp` (sign-ins and second-factor answers share the budget); 429 past it. */
  async admitAddress(clientIp: string): Promise<void> {
    const { loginLimits } = this.deps.config
    const perIp = await this.deps.rateLimits.hit(`login:ip:${clientIp}`, loginLimits.ipWindow)
    if (perIp.count > loginLimits.attemptsPerIp) throw limited(perIp.resetMs)
  }

  async failed(emailKey: string): Promise<void> {
    await this.deps.rateLimits.hit(`login:fail:${emailKey}`, this.deps.config.loginLimits.failureWindow)
  }

  async succeeded(emailKey: string): Promise<void> {
    await this.deps.rateLimits.reset(`login:fail:${emailKey}`)
  }
}

/** 429 `rate_limited` with Retry-After; `what` names what there were too many of. */
export function limited(resetMs: number, what = 'sign-in attempts') {
  const retryAfter = Math.max(1, Math.ceil(resetMs / 1000))
  return authError(429, 'rate_limited', `Too many ${what}; retry in ${retryAfter} s`, undefined, {
    'retry-after': String(retryAfter),
  })
}
