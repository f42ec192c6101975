import { createHmac, randomBytes } from 'node:crypto'
import { and, asc, desc, eq, gt, gte, isNotNull, isNull, lt, or, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import { openSecret, safeEqual, sealSecret, sha256Hex } from '../../platform/crypto'
import type { Db } from '../../platform/db'
import { lockInTransaction } from '../../platform/db/locks'
import type { EventBus } from '../../platform/events'
import type { RotatingSessions } from '../../platform/sessions'
import type { AuditBy, AuditService } from '../audit/service'
import type { Accounts, AuthResultView } from './accounts'
import { authError } from './errors'
import { securityChanged } from './events'
import { requireCredentialChange, requireInteractive } from './interactive'
import { limited, LoginLimiter } from './login-limiter'
import { mfaFactors, mfaFailures, recoveryCodes, users } from './schema'

/** Labels sealed TOTP secrets so they cannot be opened as any other kind of secret. */
const PURPOSE = 'totp-secret'
const STEP_SECONDS = 30
const DIGITS = 6
const RECOVERY_CODES = 10

type FactorRow = typeof mfaFactors.$inferSelect
export type SecurityChange = 'mfa_enrolled' | 'mfa_removed' | 'mfa_verified' | 'mfa_failed' | 'recovery_used' | 'recovery_regenerated' | 'mfa_reset'
/** How a step-up was proved (the `amr` it adds). */
export type StepUpMethod = 'otp' | 'recovery' | 'webauthn'

/** RFC 4648 base32 without padding, as authenticator apps take secrets. */
function base32(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31]
  return out
}

/** RFC 4226 HOTP over SHA-1, six digits (RFC 6238 TOTP feeds it the 30-second step). */
export function hotp(secret: Buffer, counter: number): string {
  const message = Buffer.alloc(8)
  message.writeBigUInt64BE(BigInt(counter))
  const h = createHmac('sha1', secret).update(message).digest()
  const offset = h[19]! & 0xf
  const n = (((h[offset]! & 0x7f) << 24) | (h[offset + 1]! << 16) | (h[offset + 2]! << 8) | h[offset + 3]!) % 10 ** DIGITS
  return n.toString().padStart(DIGITS, '0')
}

const factorView = (f: FactorRow) => ({
  id: f.id,
  type: f.type,
  name: f.name,
  createdAt: f.createdAt.toISOString(),
  lastUsedAt: f.lastUsedAt?.toISOString() ?? null,
})

/**
 * Second factors of accounts: TOTP (RFC 6238: SHA-1, 6 digits, 30 s, ±1 step, each step once) with
 * sealed secrets, and ten single-use recovery codes (hashed). A verified factor makes a password
 * sign-in `aal1` (only the way to verifying reachable); verifying raises the session to `aal2`.
 * Wrong answers are counted per account over a sliding window (LOGIN_FAILURE_WINDOW_SECONDS, at
 * most LOGIN_MAX_FAILURES_PER_EMAIL); every change is an audit event and an "account security"
 * e-mail (`auth.security.changed`), wrong answers one e-mail per window with their count.
 */
export class Mfa {
  private readonly limiter: LoginLimiter

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now' | 'rateLimits' | 'secret'>,
    private readonly sessions: RotatingSessions,
    private readonly accounts: Pick<Accounts, 'authResult' | 'changed'>,
    private readonly events: Pick<EventBus, 'emit'>,
    private readonly audit: AuditService,
  ) {
    this.limiter = new LoginLimiter(deps)
  }

  /** What /auth/me shows: whether a verified factor exists, and the factors. */
  async status(userId: string) {
    const rows = await this.deps.db
      .select()
      .from(mfaFactors)
      .where(and(eq(mfaFactors.userId, userId), isNotNull(mfaFactors.verifiedAt)))
      .orderBy(asc(mfaFactors.createdAt))
    return { enabled: rows.length > 0, factors: rows.map(factorView) }
  }

  /** A new TOTP factor, unverified until a code from it is confirmed; the secret is shown only now. */
  async enrollTotp(principal: Principal, name: string) {
    // A second factor is added from a session that verified the first one.
    requireCredentialChange(principal)
    const secret = randomBytes(20)
    const [user] = await this.deps.db.select({ email: users.email }).from(users).where(eq(users.id, principal.userId))
    const [row] = await this.deps.db
      .insert(mfaFactors)
      .values({ userId: principal.userId, type: 'totp', name, secretSealed: sealSecret(this.deps.secret, PURPOSE, secret.toString('hex')) })
      .returning()
    // Unconfirmed enrolments older than a day are dropped on the way: nobody finishes one that late.
    await this.deps.db
      .delete(mfaFactors)
      .where(
        and(eq(mfaFactors.userId, principal.userId), isNull(mfaFactors.verifiedAt), lt(mfaFactors.createdAt, new Date(this.deps.now().getTime() - 86_400_000))),
      )
    const issuer = 'Ecobase'
    const label = encodeURIComponent(`${issuer}:${user?.email ?? principal.userId}`)
    const otpauthUrl = `otpauth://totp/${label}?secret=${base32(secret)}&issuer=${issuer}&algorithm=SHA1&digits=${DIGITS}&period=${STEP_SECONDS}`
    return {
      factorId: row!.id,
      secret: base32(secret),
      otpauthUrl,
      qrSvg: await (await import('qrcode')).default.toString(otpauthUrl, { type: 'svg', margin: 1 }),
    }
  }

  /**
   * Confirms an enrolment with a code from it. On the account's first factor the ten recovery
   * codes come back (shown once); the session that confirmed it is raised to `aal2`.
   */
  async confirmTotp(principal: Principal, factorId: string, code: string) {
    requireInteractive(principal)
    const [factor] = await this.deps.db
      .select()
      .from(mfaFactors)
      .where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, principal.userId), eq(mfaFactors.type, 'totp')))
    if (!factor) throw authError(404, 'not_found', 'No such factor')
    if (factor.verifiedAt) throw authError(409, 'conflict', 'This factor is confirmed already')
    const first = !(await this.status(principal.userId)).enabled
    requireCredentialChange(principal)
    return this.attempt(principal, 'The code does not match: check the device’s clock, and use a fresh code', async (tx) => {
      if (!(await this.acceptTotp(tx, factor, code))) return null
      const [row] = await tx.update(mfaFactors).set({ verifiedAt: this.deps.now(), lastUsedAt: this.deps.now() }).where(eq(mfaFactors.id, factorId)).returning()
      return this.enrolled(tx, principal, row!, first, 'otp')
    })
  }

  /**
   * A factor just verified (a confirmed TOTP, a registered passkey), in its transaction: on the
   * account's first, ten recovery codes, and every other session of the account ends (one opened
   * before the factor existed, perhaps by whoever the owner fears, must sign in again and meet it);
   * the session that proved it is `aal2` from its next refresh.
   */
  async enrolled(tx: Db, principal: Principal, factor: FactorRow, first: boolean, method: 'otp' | 'webauthn') {
    const codes = first ? await this.replaceRecoveryCodes(tx, principal.userId) : undefined
    if (first) await this.sessions.revoke(tx, { subjectId: principal.userId, ...(principal.sessionId ? { except: principal.sessionId } : {}) }, 'mfa_enrolled')
    if (principal.sessionId) await this.sessions.raise(tx, principal.sessionId, principal.userId, method)
    await this.record(
      tx,
      principal,
      principal.userId,
      'mfa_enrolled',
      { factorId: factor.id, type: factor.type, name: factor.name, ...(first ? { otherSessionsRevoked: true } : {}) },
      first,
    )
    return { factor: factorView(factor), ...(codes ? { recoveryCodes: codes } : {}) }
  }

  /** Step-up: a TOTP code or a recovery code raises this session to `aal2`, with new tokens. */
  verify(principal: Principal, input: { code?: string; recoveryCode?: string }): Promise<AuthResultView> {
    return this.stepUp(principal, 'The code does not match (or was used already)', (tx) =>
      input.code !== undefined ? this.useTotp(tx, principal.userId, input.code) : this.useRecoveryCode(tx, principal.userId, input.recoveryCode ?? ''),
    )
  }

  /**
   * Raises the caller's session to `aal2` when `prove` accepts its answer, in the transaction that
   * elevates it: new tokens of the same session. Throttled per account; a refused answer counts as
   * a failure (`refusal` says why) and a success does not erase earlier ones.
   */
  async stepUp(principal: Principal, refusal: string, prove: (tx: Db) => Promise<StepUpMethod | null>): Promise<AuthResultView> {
    requireInteractive(principal)
    if (!principal.sessionId) throw authError(403, 'interactive_session_required', 'Only a signed-in session can be raised to aal2')
    const sessionId = principal.sessionId
    const issued = await this.attempt(principal, refusal, async (tx) => {
      const method = await prove(tx)
      if (!method) return null
      const issued = await this.sessions.elevate(tx, sessionId, principal.userId, method)
      await this.record(tx, principal, principal.userId, method === 'recovery' ? 'recovery_used' : 'mfa_verified', { method })
      return issued
    })
    const [user] = await this.deps.db.select().from(users).where(eq(users.id, principal.userId))
    return this.accounts.authResult(user!, issued)
  }

  /** Ten new recovery codes; the old ones stop working. Needs `aal2`. */
  async regenerateRecoveryCodes(principal: Principal) {
    requireCredentialChange(principal)
    if (!(await this.status(principal.userId)).enabled)
      throw authError(409, 'conflict', 'Recovery codes belong to an account with a second factor: enroll one first')
    return this.deps.db.transaction(async (tx) => {
      const codes = await this.replaceRecoveryCodes(tx, principal.userId)
      await this.record(tx, principal, principal.userId, 'recovery_regenerated', {})
      return { recoveryCodes: codes }
    })
  }

  /** Removes a factor (`aal2` needed while the account has one); with the last one go the recovery codes. */
  async removeFactor(principal: Principal, factorId: string): Promise<void> {
    requireCredentialChange(principal)
    await this.deps.db.transaction(async (tx) => {
      const [gone] = await tx
        .delete(mfaFactors)
        .where(and(eq(mfaFactors.id, factorId), eq(mfaFactors.userId, principal.userId)))
        .returning()
      if (!gone) throw authError(404, 'not_found', 'No such factor')
      const [left] = await tx
        .select({ id: mfaFactors.id })
        .from(mfaFactors)
        .where(and(eq(mfaFactors.userId, principal.userId), isNotNull(mfaFactors.verifiedAt)))
        .limit(1)
      if (!left) await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, principal.userId))
      if (gone.verifiedAt) await this.record(tx, principal, principal.userId, 'mfa_removed', { factorId, type: gone.type, name: gone.name })
    })
  }

  /**
   * A platform admin's (or the command line's) reset of an account that lost its factors: every
   * factor, passkey and recovery code goes, and every session ends (the owner signs in with the
   * password and enrolls anew). One transaction, audited (`auth.mfa.reset` by `by`), the owner
   * e-mailed. How many verified factors went, or null when there is no such account.
   */
  async reset(by: AuditBy, userId: string): Promise<number | null> {
    return this.deps.db.transaction(async (tx) => {
      const [account] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update')
      if (!account) return null
      const gone = await tx
        .delete(mfaFactors)
        .where(eq(mfaFactors.userId, userId))
        .returning({ id: mfaFactors.id, type: mfaFactors.type, verifiedAt: mfaFactors.verifiedAt })
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))
      await this.sessions.revoke(tx, { subjectId: userId }, 'mfa_reset')
      const removed = gone.filter((f) => f.verifiedAt).map((f) => ({ id: f.id, type: f.type }))
      await this.record(tx, by, userId, 'mfa_reset', { factorsRemoved: removed.length, factors: removed, sessionsRevoked: true })
      return removed.length
    })
  }

  /** DELETE /auth/admin/users/{id}/factors: `reset` by a platform admin (the route checks the capability) from a session at `aal2`. */
  async resetByAdmin(admin: Principal, userId: string): Promise<void> {
    requireCredentialChange(admin)
    if ((await this.reset(admin, userId)) === null) throw authError(404, 'not_found', 'No such account')
  }

  /** A code of one of the account's verified TOTP factors, each time step once: the method used, or null. */
  private async useTotp(tx: Db, userId: string, code: string): Promise<'otp' | null> {
    const factors = await tx
      .select()
      .from(mfaFactors)
      .where(and(eq(mfaFactors.userId, userId), eq(mfaFactors.type, 'totp'), isNotNull(mfaFactors.verifiedAt)))
    for (const factor of factors) if (await this.acceptTotp(tx, factor, code)) return 'otp'
    return null
  }

  /**
   * Whether `code` is the factor's code for the current step or one either side, at a step later
   * than the last one accepted; the accepted step is recorded in the same statement (concurrent
   * presentations of one code: one wins).
   */
  private async acceptTotp(tx: Db, factor: FactorRow, code: string): Promise<boolean> {
    if (!/^\d{6}$/.test(code)) return false
    const secret = Buffer.from(openSecret(this.deps.secret, PURPOSE, factor.secretSealed!), 'hex')
    const now = Math.floor(this.deps.now().getTime() / 1000 / STEP_SECONDS)
    for (const step of [now - 1, now, now + 1]) {
      if (!safeEqual(hotp(secret, step), code)) continue
      const [taken] = await tx
        .update(mfaFactors)
        .set({ lastStep: step, lastUsedAt: this.deps.now() })
        .where(and(eq(mfaFactors.id, factor.id), or(isNull(mfaFactors.lastStep), lt(mfaFactors.lastStep, step))))
        .returning({ id: mfaFactors.id })
      return Boolean(taken)
    }
    return false
  }

  private async useRecoveryCode(tx: Db, userId: string, code: string): Promise<'recovery' | null> {
    const normalized = code.trim().toLowerCase()
    if (!/^[a-z2-7]{4}-[a-z2-7]{4}$/.test(normalized)) return null
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: this.deps.now() })
      .where(and(eq(recoveryCodes.userId, userId), eq(recoveryCodes.codeHash, sha256Hex(normalized)), isNull(recoveryCodes.usedAt)))
      .returning({ hash: recoveryCodes.codeHash })
    return used ? 'recovery' : null
  }

  private async replaceRecoveryCodes(tx: Db, userId: string): Promise<string[]> {
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId))
    const codes = Array.from({ length: RECOVERY_CODES }, () => {
      const raw = base32(randomBytes(5)).toLowerCase()
      return `${raw.slice(0, 4)}-${raw.slice(4, 8)}`
    })
    await tx.insert(recoveryCodes).values(codes.map((code) => ({ userId, codeHash: sha256Hex(code) })))
    return codes
  }

  /** How many wrong answers the account got in [from, until), for the e-mail that reports a window's. */
  async failuresBetween(userId: string, from: Date, until: Date): Promise<number> {
    const [row] = await this.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(mfaFailures)
      .where(and(eq(mfaFailures.userId, userId), gte(mfaFailures.at, from), lt(mfaFailures.at, until)))
    return row?.n ?? 0
  }

  /**
   * Checks an answer (`prove`, in `tx`: its result, or null for a wrong one) under the account's
   * throttle, in one transaction holding the account's lock, so concurrent answers are counted one
   * after another. 429 while the account got LOGIN_MAX_FAILURES_PER_EMAIL wrong answers in the last
   * LOGIN_FAILURE_WINDOW_SECONDS, whichever sessions gave them (a sliding window: Retry-After is when
   * the oldest leaves it), and per client address as sign-ins are. A wrong answer is kept, audited
   * (`auth.mfa.failed`) and, the first of a window, announced (`auth.security.changed` `mfa_failed`):
   * the owner's e-mail goes as that window closes, with the count, rather than one per attempt.
   * Then 400 `invalid_code` saying `refusal`.
   */
  private async attempt<T>(principal: Principal, refusal: string, prove: (tx: Db) => Promise<T | null>): Promise<T> {
    await this.limiter.admitAddress(principal.request?.ip ?? 'unknown')
    const { failuresPerEmail: max, failureWindow } = this.deps.config.loginLimits
    const userId = principal.userId
    const outcome = await this.deps.db.transaction(async (tx) => {
      await lockInTransaction(tx, `auth:mfa-answers:${userId}`)
      const now = this.deps.now()
      const since = new Date(now.getTime() - failureWindow * 1000)
      const recent = await tx
        .select({ at: mfaFailures.at, opensNotice: mfaFailures.opensNotice })
        .from(mfaFailures)
        .where(and(eq(mfaFailures.userId, userId), gt(mfaFailures.at, since)))
        .orderBy(desc(mfaFailures.at))
        .limit(max)
      if (recent.length >= max) return { kind: 'limited' as const, retryMs: recent[max - 1]!.at.getTime() + failureWindow * 1000 - now.getTime() }
      const value = await prove(tx)
      if (value !== null) return { kind: 'accepted' as const, value }
      const opensNotice = !recent.some((f) => f.opensNotice)
      await tx.insert(mfaFailures).values({ userId, at: now, opensNotice })
      // Every wrong answer is audited; the first of a window is also the event that e-mails the owner as it closes.
      if (opensNotice) await this.events.emit(tx, securityChanged, null, { userId, change: 'mfa_failed', since: now.toISOString() }, principal)
      else await this.audit.record(tx, principal, { action: 'auth.mfa.failed', target: { type: 'user', id: userId }, metadata: {} })
      return { kind: 'wrong' as const }
    })
    if (outcome.kind === 'wrong') throw authError(400, 'invalid_code', refusal)
    if (outcome.kind === 'limited') throw limited(outcome.retryMs, 'wrong second-factor answers for this account')
    return outcome.value
  }

  /**
   * A change to the factors of account `userId` (or a use of one, which moves its `lastUsedAt`), by
   * `by`: audited, told to the owner, and forgotten by every replica's account cache.
   * `sessionsRevoked`: the change also ended the account's other sessions (the e-mail says so).
   */
  private async record(tx: Db, by: AuditBy, userId: string, change: SecurityChange, metadata: Record<string, unknown>, sessionsRevoked = false): Promise<void> {
    await this.accounts.changed(tx, userId)
    await this.events.emit(tx, securityChanged, null, { userId, change, ...(sessionsRevoked ? { sessionsRevoked } : {}), details: metadata }, by)
  }
}
