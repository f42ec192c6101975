import { refreshDeadline, type Tokens } from './tokens'

/**
 * The server's answer to a refresh: new tokens, or a failure that is `definitive` when the
 * server rejected the refresh token (the session is over) rather than being unreachable.
 */
export type RotateResult = { ok: true; tokens: Tokens } | { ok: false; definitive: boolean }

export interface SessionOptions {
  tokens?: Tokens | null
  onTokens?: (tokens: Tokens | null) => void | Promise<void>
  /** Presents a refresh token (of the session `accessToken` belongs to; null in cookie mode) to the server. Must not go through the refreshing fetch. */
  refresh: (refreshToken: string | null, accessToken: string | null) => Promise<RotateResult>
  /** The refresh token lives in the server's httpOnly cookie: refreshing needs no token here. */
  cookie?: boolean
  /** Refresh this many ms before the access token expires; 0 turns proactive refresh off. */
  leewayMs: number
  now: () => number
}

/**
 * Holds the tokens and rotates them. Refresh tokens work once and a reused one revokes the whole
 * session, so at most one refresh is in flight: every caller that needs one awaits the same promise.
 */
export class Session {
  #tokens: Tokens | null = null
  #refreshAt: number | null = null
  /** Bumped on every change, so a refresh that finishes after logout or setTokens is discarded. */
  #generation = 0
  #inflight: Promise<boolean> | null = null

  constructor(private readonly options: SessionOptions) {
    if (options.tokens) this.#store(options.tokens, null)
  }

  get accessToken(): string | null {
    return this.#tokens?.token ?? null
  }

  get refreshToken(): string | null {
    return this.#tokens?.refreshToken ?? null
  }

  /** A copy of the tokens held, or null when signed out. */
  get(): Tokens | null {
    return this.#tokens ? { token: this.#tokens.token, refreshToken: this.#tokens.refreshToken ?? null } : null
  }

  /** Replaces the tokens and tells `onTokens`. `fromServer` marks tokens that just arrived. */
  set(tokens: Tokens | null, fromServer = false): void {
    this.#generation++
    this.#store(tokens, fromServer ? this.options.now() : null)
    this.#notify()
  }

  /**
   * Rotates the tokens once, shared by all concurrent callers. `stale` is the access token a
   * caller saw rejected: if the tokens have moved on since, there is nothing to refresh and the
   * caller should simply retry. Resolves true when there is a (new) access token to retry with.
   */
  refresh(stale?: string): Promise<boolean> {
    if (this.#inflight) return this.#inflight
    const current = this.#tokens
    if (!current?.refreshToken && !this.options.cookie) return Promise.resolve(false)
    if (stale !== undefined && current && current.token !== stale) return Promise.resolve(true)
    const run = this.#rotate(current?.refreshToken ?? null, current?.token ?? null, this.#generation)
    this.#inflight = run
    void run.finally(() => {
      if (this.#inflight === run) this.#inflight = null
    })
    return run
  }

  /** Before a request: wait for a rotation under way, or start one if the token is about to expire. */
  async ready(): Promise<void> {
    if (this.#inflight) await this.#inflight
    else if (this.#refreshAt !== null && (this.refreshToken || this.options.cookie) && this.options.now() >= this.#refreshAt) await this.refresh()
  }

  async #rotate(refreshToken: string | null, accessToken: string | null, generation: number): Promise<boolean> {
    let result: RotateResult
    try {
      result = await this.options.refresh(refreshToken, accessToken)
    } catch {
      result = { ok: false, definitive: false }
    }
    if (generation !== this.#generation) return this.#tokens !== null
    if (result.ok) {
      this.set(result.tokens, true)
      return true
    }
    // Only a rejection ends the session; an outage or a 5xx leaves the tokens for the next try.
    if (result.definitive) this.set(null)
    return false
  }

  #store(tokens: Tokens | null, receivedAt: number | null): void {
    this.#tokens = tokens ? { token: tokens.token, refreshToken: tokens.refreshToken ?? null } : null
    this.#refreshAt = tokens?.refreshToken || (tokens && this.options.cookie) ? refreshDeadline(tokens.token, this.options.leewayMs, receivedAt) : null
  }

  #notify(): void {
    const { onTokens } = this.options
    if (!onTokens) return
    // The app's persistence callback must not break a refresh other requests are waiting on.
    try {
      const pending = onTokens(this.get())
      if (pending && typeof pending.catch === 'function') pending.catch(report)
    } catch (err) {
      report(err)
    }
  }
}

function report(err: unknown): void {
  if (typeof reportError === 'function') reportError(err)
}
