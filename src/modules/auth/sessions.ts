import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { randomToken, sha256Hex } from '../../platform/crypto'
import type { Db } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { refreshTokens, sessions } from './schema'

export const REVOCATION_CHANNEL = 'ecobase_revocation'
/** Upper bound on how long a replica trusts a cached "session alive" if a NOTIFY were missed. */
const ALIVE_CACHE_MS = 30_000
const ALIVE_CACHE_LIMIT = 50_000

export interface IssuedSession {
  sessionId: string
  token: string
  refreshToken: string
}

const invalidRefresh = () => new AppError(401, 'invalid_refresh_token', 'The refresh token is invalid, expired or already used')

/**
 * Account sessions: a short-lived JWT plus an opaque refresh token that rotates on every use.
 * Liveness of a session is cached per replica; revocation clears it locally and, through
 * PostgreSQL NOTIFY, on every other replica.
 */
export class Sessions {
  private readonly alive = new Map<string, { userId: string; until: number }>()

  constructor(private readonly deps: Deps) {}

  /** Starts a session for `userId` inside the caller's transaction. */
  async start(tx: Db, userId: string, userAgent: string | null): Promise<IssuedSession> {
    const [session] = await tx
      .insert(sessions)
      .values({ userId, userAgent: userAgent?.slice(0, 500) ?? null, expiresAt: this.expiry() })
      .returning({ id: sessions.id })
    const refreshToken = await this.issueRefresh(tx, session!.id)
    return { sessionId: session!.id, refreshToken, token: await this.accessToken(userId, session!.id) }
  }

  /** Rotates a refresh token. A token that was already used revokes its whole session (replay). */
  async refresh(raw: string): Promise<IssuedSession> {
    const hash = sha256Hex(raw)
    const outcome = await this.deps.db.transaction(async (tx) => {
      const [used] = await tx
        .update(refreshTokens)
        .set({ usedAt: this.deps.now() })
        .where(and(eq(refreshTokens.tokenHash, hash), isNull(refreshTokens.usedAt)))
        .returning({ sessionId: refreshTokens.sessionId })
      if (!used) {
        const [seen] = await tx
          .select({ sessionId: refreshTokens.sessionId })
          .from(refreshTokens)
          .where(eq(refreshTokens.tokenHash, hash))
        return seen ? ({ kind: 'replay', sessionId: seen.sessionId } as const) : ({ kind: 'unknown' } as const)
      }
      const [session] = await tx
        .update(sessions)
        .set({ expiresAt: this.expiry() })
        .where(and(eq(sessions.id, used.sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, this.deps.now())))
        .returning({ id: sessions.id, userId: sessions.userId })
      if (!session) return { kind: 'dead' } as const
      const refreshToken = await this.issueRefresh(tx, session.id)
      return { kind: 'ok', session, refreshToken } as const
    })
    if (outcome.kind === 'replay') {
      await this.revoke(this.deps.db, { sessionId: outcome.sessionId }, 'refresh_token_reuse')
      this.deps.logger.warn('refresh token reuse detected; session revoked', { sessionId: outcome.sessionId })
    }
    if (outcome.kind !== 'ok') throw invalidRefresh()
    const { session, refreshToken } = outcome
    return { sessionId: session.id, refreshToken, token: await this.accessToken(session.userId, session.id) }
  }

  /** Signs out the session a refresh token belongs to; unknown tokens are ignored. */
  async revokeByRefresh(raw: string): Promise<void> {
    const [row] = await this.deps.db
      .select({ sessionId: refreshTokens.sessionId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(raw)))
    if (row) await this.revoke(this.deps.db, { sessionId: row.sessionId }, 'sign_out')
  }

  /** Revokes one session or all of a user's sessions, in the caller's transaction when given. */
  async revoke(db: Db, target: { sessionId: string } | { userId: string }, reason: string): Promise<void> {
    const where = 'sessionId' in target ? eq(sessions.id, target.sessionId) : eq(sessions.userId, target.userId)
    await db
      .update(sessions)
      .set({ revokedAt: this.deps.now(), revokedReason: reason })
      .where(and(where, isNull(sessions.revokedAt)))
    const payload = 'sessionId' in target ? `s:${target.sessionId}` : `u:${target.userId}`
    await db.execute(sql`select pg_notify(${REVOCATION_CHANNEL}, ${payload})`)
    this.forget(payload)
  }

  /** True while the session exists, is not revoked and has not expired. */
  async isAlive(sessionId: string, userId: string): Promise<boolean> {
    const now = Date.now()
    const cached = this.alive.get(sessionId)
    if (cached && cached.until > now && cached.userId === userId) return true
    const [row] = await this.deps.db
      .select({ userId: sessions.userId })
      .from(sessions)
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, this.deps.now())))
    if (!row || row.userId !== userId) return false
    if (this.alive.size >= ALIVE_CACHE_LIMIT) this.alive.clear()
    this.alive.set(sessionId, { userId, until: now + ALIVE_CACHE_MS })
    return true
  }

  /** Drops cached liveness named by a revocation payload (`s:<sessionId>` or `u:<userId>`). */
  forget(payload: string): void {
    const [kind, id] = [payload.slice(0, 2), payload.slice(2)]
    if (kind === 's:') this.alive.delete(id)
    else if (kind === 'u:') for (const [sid, entry] of this.alive) if (entry.userId === id) this.alive.delete(sid)
  }

  private async issueRefresh(tx: Db, sessionId: string): Promise<string> {
    const raw = randomToken(32)
    await tx.insert(refreshTokens).values({ sessionId, tokenHash: sha256Hex(raw) })
    return raw
  }

  private accessToken(userId: string, sessionId: string): Promise<string> {
    return this.deps.tokens.sign({ sub: userId, typ: 'user', sid: sessionId }, this.deps.config.accessTokenTtl)
  }

  private expiry(): Date {
    return new Date(this.deps.now().getTime() + this.deps.config.refreshTokenTtl * 1000)
  }
}
