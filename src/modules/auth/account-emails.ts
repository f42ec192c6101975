import { and, eq, gt, isNull } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { defineQueueHandler, type QueueHandler } from '../../platform/queue'
import type { Principal } from '../../platform/auth'
import type { RequestInfo } from '../../platform/http'
import { randomToken, sha256Hex } from '../../platform/crypto'
import { authError } from './errors'
import type { Accounts } from './accounts'
import type { Db } from '../../platform/db'
import type { Static } from '@sinclair/typebox'
import type { passwordChanged, SECURITY_CHANGES, securityChanged } from './events'
import type { Mfa } from './mfa'
import { emailTokens, users } from './schema'

type Purpose = 'password_reset' | 'verify_email'
type PasswordChange = 'password_changed' | 'password_reset'
type SecurityNotice = (typeof SECURITY_CHANGES)[number]
const SECURITY_WORDS: Record<Exclude<SecurityNotice, 'mfa_failed'>, string> = {
  mfa_enrolled: 'A second factor was added to your account',
  mfa_removed: 'A second factor was removed from your account',
  mfa_verified: 'A second factor of your account was used to sign in',
  recovery_used: 'A recovery code of your account was used to sign in',
  recovery_regenerated: 'The recovery codes of your account were replaced',
  mfa_reset: 'An administrator removed the second factors of your account',
}
/** What an "account security" job is given: the change, and for wrong answers when their window began. */
interface SecurityJob {
  userId: string
  change: SecurityNotice
  sessionsRevoked?: boolean
  since?: string
}
/** What the mail is handed to: messaging's instance sender (SMTP_URL, else the instance outbox). */
export type InstanceMailer = (to: string, content: { subject: string; text: string; html?: string }) => Promise<{ ok: true } | { ok: false; error: string }>

const JOB = 'account-email'
const NOTICE_JOB = 'account-password-notice'
const SECURITY_JOB = 'account-security-notice'
const LIFETIME_SECONDS: Record<Purpose, number> = { password_reset: 30 * 60, verify_email: 24 * 3600 }
/** Requests per window: per client address, per e-mail address (reset) or per account (verification). */
export const ACCOUNT_EMAIL_LIMITS = { perIp: 20, perAddress: 5, windowSeconds: 3600 }

const invalid = () => authError(400, 'invalid_token', 'The link is invalid, expired or already used')

/**
 * Password reset and e-mail verification. A request only enqueues a job (the same work whether or
 * not the address has an account, so neither the answer nor its timing tells); the job makes a
 * single-use token, keeps its hash, and mails it. Confirming consumes the token in one statement.
 */
export class AccountEmails {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now' | 'queue' | 'rateLimits'>,
    private readonly accounts: Accounts,
    private readonly mfa: Pick<Mfa, 'failuresBetween'>,
    private readonly mail: InstanceMailer,
  ) {}

  /** The queue job that sends the e-mails (the module's manifest registers it). */
  queueHandlers(): QueueHandler[] {
    return [
      defineQueueHandler<{ purpose: Purpose; emailKey: string }>({ name: JOB, handle: (job) => this.send(job.purpose, job.emailKey) }),
      defineQueueHandler<{ userId: string; reason: PasswordChange }>({ name: NOTICE_JOB, handle: (job) => this.notice(job.userId, job.reason) }),
      defineQueueHandler<SecurityJob>({ name: SECURITY_JOB, handle: (job) => this.securityNotice(job) }),
    ]
  }

  /** Tells the account's owner their password changed, queued in the transaction that changed it (so a rolled-back change tells no one). */
  async queuePasswordNotice(tx: Db, change: Static<typeof passwordChanged.payload>): Promise<void> {
    await this.deps.queue.send(tx, NOTICE_JOB, { userId: change.userId, reason: change.reason })
  }

  /** Tells the account's owner what happened to its second factors, queued in the transaction of the change. */
  async queueSecurityNotice(tx: Db, change: Static<typeof securityChanged.payload>): Promise<void> {
    const job: SecurityJob = { userId: change.userId, change: change.change as SecurityNotice, ...(change.sessionsRevoked ? { sessionsRevoked: true } : {}) }
    // Wrong answers: one e-mail as their window closes, counting them all.
    if (change.change === 'mfa_failed')
      await this.deps.queue.send(tx, SECURITY_JOB, { ...job, since: change.since }, { startAfter: this.deps.config.loginLimits.failureWindow })
    else await this.deps.queue.send(tx, SECURITY_JOB, job)
  }

  /** The job: an "account security" e-mail saying what happened to the account's second factors. */
  private async securityNotice(job: SecurityJob): Promise<void> {
    const [user] = await this.deps.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, job.userId))
    if (!user) return
    const delivery = await this.mail(user.email, await this.securityContent(job, user.name))
    if (!delivery.ok) throw new Error(`security notice not sent: ${delivery.error}`)
  }

  private async securityContent(job: SecurityJob, name: string): Promise<{ subject: string; text: string }> {
    const advice = 'If this was not you, change your password now, remove second factors you do not know, and replace your recovery codes.'
    if (job.change === 'mfa_failed') {
      const from = new Date(job.since ?? this.deps.now().toISOString())
      const until = new Date(from.getTime() + this.deps.config.loginLimits.failureWindow * 1000)
      // A job queued before wrong answers were counted per window (no `since`) stands for one.
      const n = job.since ? await this.mfa.failuresBetween(job.userId, from, until) : 1
      const what = n === 1 ? '1 wrong second-factor answer was' : `${n} wrong second-factor answers were`
      return {
        subject: `Account security: ${what} given for your account`,
        text: `Hello ${name},\n\n${what} given for your account between ${from.toISOString()} and ${until.toISOString()} (by someone signed in to your account: your password or a passkey was used). After ${this.deps.config.loginLimits.failuresPerEmail} in that long, further attempts are refused for a while.\n\n${advice}`,
      }
    }
    const words = SECURITY_WORDS[job.change]
    const sessions = job.sessionsRevoked
      ? '\n\nEvery other session of your account was signed out: sign in again there, with the second factor. API tokens keep working; review them.'
      : job.change === 'mfa_reset'
        ? '\n\nEvery session was signed out: sign in with your password and add a second factor again.'
        : ''
    return { subject: `Account security: ${words}`, text: `Hello ${name},\n\n${words} at ${this.deps.now().toISOString()}.${sessions}\n\n${advice}` }
  }

  /** The job: "your password was changed" to the account's address, with what to do if it was not them. A failed send throws, so the queue retries. */
  private async notice(userId: string, reason: PasswordChange): Promise<void> {
    const [user] = await this.deps.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, userId))
    if (!user) return
    const how = reason === 'password_reset' ? 'reset with a link sent to this address' : 'changed while signed in'
    const delivery = await this.mail(user.email, {
      subject: 'Your password was changed',
      text: `Hello ${user.name},\n\nThe password of your account was ${how} at ${this.deps.now().toISOString()}, and every session was signed out.\n\nIf this was not you, reset your password now and check your account's API tokens and connected apps.`,
    })
    if (!delivery.ok) throw new Error(`password notice not sent: ${delivery.error}`)
  }

  async requestReset(email: string, clientIp: string): Promise<void> {
    const emailKey = email.trim().toLowerCase()
    await this.limit(`account-email:ip:${clientIp}`, ACCOUNT_EMAIL_LIMITS.perIp)
    await this.limit(`account-email:reset:${emailKey}`, ACCOUNT_EMAIL_LIMITS.perAddress)
    await this.deps.db.transaction((tx) => this.deps.queue.send(tx, JOB, { purpose: 'password_reset', emailKey }))
  }

  /** `request`: where it came from, for the audit event (`auth.password.reset`, by the account the token proves). */
  async confirmReset(token: string, newPassword: string, request: RequestInfo): Promise<void> {
    // Checked before the hash (a wrong token costs no hashing), consumed after it in the transaction.
    if (!(await this.usable(token, 'password_reset'))) throw invalid()
    const passwordHash = await this.accounts.hashPassword(newPassword)
    await this.deps.db.transaction(async (tx) => {
      const row = await this.consume(tx, token, 'password_reset')
      await this.accounts.setPassword(tx, row.userId, passwordHash, 'password_reset', { actor: { type: 'user', id: row.userId }, request })
      await tx
        .update(users)
        .set({ emailVerifiedAt: this.deps.now() })
        .where(and(eq(users.id, row.userId), eq(users.emailKey, row.emailKey), isNull(users.emailVerifiedAt)))
      await this.accounts.changed(tx, row.userId)
    })
  }

  async requestVerification(principal: Principal, clientIp: string): Promise<void> {
    await this.limit(`account-email:ip:${clientIp}`, ACCOUNT_EMAIL_LIMITS.perIp)
    await this.limit(`account-email:verify:${principal.userId}`, ACCOUNT_EMAIL_LIMITS.perAddress)
    const [user] = await this.deps.db.select({ emailKey: users.emailKey, verified: users.emailVerifiedAt }).from(users).where(eq(users.id, principal.userId))
    if (!user) throw authError(404, 'not_found', 'The account no longer exists')
    if (user.verified) return
    await this.deps.db.transaction((tx) => this.deps.queue.send(tx, JOB, { purpose: 'verify_email', emailKey: user.emailKey }))
  }

  async confirmVerification(token: string): Promise<{ emailVerified: true }> {
    await this.deps.db.transaction(async (tx) => {
      const row = await this.consume(tx, token, 'verify_email')
      const updated = await tx
        .update(users)
        .set({ emailVerifiedAt: this.deps.now() })
        .where(and(eq(users.id, row.userId), eq(users.emailKey, row.emailKey)))
        .returning({ id: users.id })
      if (!updated[0]) throw invalid()
      await this.accounts.changed(tx, row.userId)
    })
    return { emailVerified: true }
  }

  /** The job: a fresh token for the account of `emailKey`, if there is one, mailed to it. A failed send throws, so the queue retries. */
  private async send(purpose: Purpose, emailKey: string): Promise<void> {
    const [user] = await this.deps.db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.emailKey, emailKey))
    if (!user) return
    const token = randomToken(32)
    await this.deps.db.insert(emailTokens).values({
      tokenHash: sha256Hex(token),
      userId: user.id,
      purpose,
      emailKey,
      expiresAt: new Date(this.deps.now().getTime() + LIFETIME_SECONDS[purpose] * 1000),
    })
    const delivery = await this.mail(user.email, this.content(purpose, user.name, token))
    if (!delivery.ok) throw new Error(`account e-mail not sent: ${delivery.error}`)
  }

  private content(purpose: Purpose, name: string, token: string) {
    const template = this.deps.config.accountEmailLinks[purpose === 'password_reset' ? 'passwordReset' : 'verifyEmail']
    const link = template?.replace('{token}', encodeURIComponent(token))
    const action = purpose === 'password_reset' ? 'reset your password' : 'confirm your e-mail address'
    const how = link ? `Open this link to ${action}:\n${link}` : `To ${action}, use this code:\n${token}`
    const lifetime = purpose === 'password_reset' ? '30 minutes' : '24 hours'
    return {
      subject: purpose === 'password_reset' ? 'Reset your password' : 'Confirm your e-mail address',
      text: `Hello ${name},\n\n${how}\n\nIt works once and expires in ${lifetime}. If you did not ask for this, ignore this e-mail.`,
    }
  }

  /** Marks a live token of `purpose` used and returns it; 400 otherwise. Concurrent confirms: one wins. */
  private async consume(tx: Deps['db'], token: string, purpose: Purpose) {
    const [row] = await tx.update(emailTokens).set({ usedAt: this.deps.now() }).where(this.live(token, purpose)).returning()
    if (!row) throw invalid()
    return row
  }

  private async usable(token: string, purpose: Purpose): Promise<boolean> {
    const [row] = await this.deps.db.select({ userId: emailTokens.userId }).from(emailTokens).where(this.live(token, purpose))
    return Boolean(row)
  }

  /** A token of `purpose` not used and not expired. */
  private live(token: string, purpose: Purpose) {
    return and(
      eq(emailTokens.tokenHash, sha256Hex(token)),
      eq(emailTokens.purpose, purpose),
      isNull(emailTokens.usedAt),
      gt(emailTokens.expiresAt, this.deps.now()),
    )
  }

  private async limit(key: string, max: number): Promise<void> {
    const hit = await this.deps.rateLimits.hit(key, ACCOUNT_EMAIL_LIMITS.windowSeconds)
    if (hit.count <= max) return
    const retryAfter = Math.max(1, Math.ceil(hit.resetMs / 1000))
    throw authError(429, 'rate_limited', `Too many requests; retry in ${retryAfter} s`, undefined, { 'retry-after': String(retryAfter) })
  }
}
