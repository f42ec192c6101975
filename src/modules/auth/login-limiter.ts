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
    const perIp = await this.deps.rateLimits.hit(`login:ip:${clientIp}`, loginLimits.ipWindow)
    if (perIp.count > loginLimits.attemptsPerIp) throw limited(perIp.resetMs)
    const perEmail = await this.deps.rateLimits.peek(`login:fail:${emailKey}`)
    if (perEmail.count >= loginLimits.failuresPerEmail) throw limited(perEmail.resetMs)
  }

  async failed(emailKey: string): Promise<void> {
    await this.deps.rateLimits.hit(`login:fail:${emailKey}`, this.deps.config.loginLimits.failureWindow)
  }

  async succeeded(emailKey: string): Promise<void> {
    await this.deps.rateLimits.reset(`login:fail:${emailKey}`)
  }
}

function limited(resetMs: number) {
  const retryAfter = Math.max(1, Math.ceil(resetMs / 1000))
  return authError(429, 'rate_limited', `Too many sign-in attempts; retry in ${retryAfter} s`, undefined, {
    'retry-after': String(retryAfter),
  })
}
