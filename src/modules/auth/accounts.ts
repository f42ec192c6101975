import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Principal, requireAal2 } from '../../platform/auth'
import { type Db, isUniqueViolation } from '../../platform/db'
import { lockInTransaction } from '../../platform/db/locks'
import type { RequestInfo } from '../../platform/http'
import type { IssuedSession, RotatingSessions } from '../../platform/sessions'
import { ReplicaCache } from '../../platform/replica-cache'
import type { AuditBy, AuditService } from '../audit/service'
import { authError } from './errors'
import { requireCredentialChange } from './interactive'
import type { SettingsService } from '../settings/service'
import type { Passwords } from './passwords'
import { LoginLimiter } from './login-limiter'
import type { EventBus } from '../../platform/events'
import { passwordChanged } from './events'
import { mfaFactors, userMethods, users } from './schema'

export const SLUG_PATTERN = '^[a-z0-9][a-z0-9_-]{1,63}$'
const slugRe = new RegExp(SLUG_PATTERN)

type UserRow = typeof users.$inferSelect
type LoadedUser = UserRow & { factors: MfaFactorView[] }

/** Accounts kept in memory per replica (GET /auth/me, admin checks); a changed one is forgotten everywhere. */
export const USER_CACHE = { channel: 'ecobase_user_changed', limit: 10_000, ttlMs: 30_000 }

const utc = (column: string) => sql.raw(`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`)
/** The account and its verified second factors, in one round trip (GET /auth/me). Drizzle writes `users.id` unqualified here, which the subquery would take for its own `id`. */
const prepareUserById = (db: Deps['db']) =>
  db
    .select({
      user: users,
      factors: sql<
        MfaFactorView[]
      >`coalesce((select json_agg(json_build_object('id', f.id, 'type', f.type, 'name', f.name, 'createdAt', ${utc('f.created_at')}, 'lastUsedAt', ${utc('f.last_used_at')}) order by f.created_at)
        from ${mfaFactors} f where f.user_id = ${sql.raw('"users"."id"')} and f.verified_at is not null), '[]'::json)`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder('id')))
    .prepare('auth_user_by_id')

export interface MfaFactorView {
  id: string
  type: 'totp' | 'passkey'
  name: string
  createdAt: string
  lastUsedAt: string | null
}

export interface UserView {
  id: string
  email: string
  name: string
  avatarUrl: string
  slug: string | null
  capabilities: string[]
}

export interface PublicProfile {
  id: string
  slug: string
  name: string
  avatarUrl: string
  createdAt: Date
}

export interface AuthResultView {
  token: string
  refreshToken: string
  user: UserView
}

/** Registration, sign-in and the profile of an account user. */
export class Accounts {
  private readonly limiter: LoginLimiter
  /** GET /auth/me's one query, prepared once: PostgreSQL then skips parsing and planning it. */
  private readonly userById: ReturnType<typeof prepareUserById>
  /** What that query found, by user id, until the account or its factors change (`changed`). */
  private readonly cache: ReplicaCache<LoadedUser>
  /** A real hash to verify against for unknown e-mails, so both failures take the same time. */
  private decoyHash: Promise<string> | undefined

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'database' | 'db' | 'logger' | 'now' | 'rateLimits'>,
    private readonly passwords: Passwords,
    private readonly sessions: RotatingSessions,
    private readonly settings: SettingsService,
    private readonly events: Pick<EventBus, 'emit'>,
    private readonly audit: AuditService,
  ) {
    this.limiter = new LoginLimiter(deps)
    this.userById = prepareUserById(deps.db)
    this.cache = new ReplicaCache(deps, USER_CACHE)
  }

  /**
   * The account `userId` or its second factors changed in `tx`: every replica forgets what it kept
   * of it once `tx` commits. Every write to `users` or to a verified factor calls this.
   */
  changed(tx: Db, userId: string): Promise<void> {
    return this.cache.changed(tx, userId)
  }

  /** Follows account changes made on other replicas (and by `npx ecobase admin`). */
  listen(): Promise<() => Promise<void>> {
    return this.cache.listen()
  }

  /** `request`: where the request came from, for the audit log (`auth.account.registered`); its User-Agent names the session. */
  async register(input: { email: string; password: string; name: string }, request: RequestInfo): Promise<AuthResultView> {
    if (!(await this.settings.isEnabled('password'))) {
      throw authError(403, 'registration_disabled', 'Registration with e-mail and password is disabled')
    }
    const passwordHash = await this.passwords.hash(input.password)
    const { config, logger } = this.deps
    try {
      const { user, issued, firstAdmin } = await this.deps.db.transaction(async (tx) => {
        let firstAdmin = false
        if (config.adminEmails.length === 0) {
          await lockInTransaction(tx, 'auth:first-admin')
          const [{ n }] = (await tx.select({ n: sql<number>`count(*)::int` }).from(users)) as [{ n: number }]
          firstAdmin = n === 0
        }
        const user = await insertPasswordAccount(tx, { email: input.email, name: input.name, passwordHash, isAdmin: firstAdmin })
        const issued = await this.sessions.start(tx, user!.id, request.userAgent, { aal: 'aal1', amr: ['pwd'] })
        await this.audit.record(
          tx,
          { actor: { type: 'user', id: user!.id }, request },
          {
            action: 'auth.account.registered',
            target: { type: 'user', id: user!.id },
            metadata: { sessionId: issued.sessionId, ...(firstAdmin ? { admin: true } : {}) },
          },
        )
        return { user: user!, issued, firstAdmin }
      })
      if (firstAdmin) logger.info('first account registered; it holds the admin capability (ADMIN_EMAILS is empty)', { userId: user.id })
      return this.authResult(user, issued)
    } catch (err) {
      if (isUniqueViolation(err)) throw authError(409, 'email_taken', 'An account with this e-mail already exists')
      throw err
    }
  }

  /**
   * `clientIp` is the throttle's key; `request` goes to the audit log: `auth.session.signed_in` in
   * the transaction that starts the session, `auth.sign_in.failed` on its own (no change to join).
   * Attempts refused by the throttle are not recorded: that would turn a flood into as many writes.
   */
  async login(input: { email: string; password: string }, clientIp: string, request: RequestInfo): Promise<AuthResultView> {
    const emailKey = input.email.trim().toLowerCase()
    await this.limiter.admit(emailKey, clientIp)
    const [row] = await this.deps.db
      .select({ user: users, methodId: userMethods.id, hash: userMethods.passwordHash })
      .from(users)
      .innerJoin(userMethods, and(eq(userMethods.userId, users.id), eq(userMethods.provider, 'password')))
      .where(eq(users.emailKey, emailKey))
    const ok = row?.hash
      ? await this.passwords.verify(input.password, row.hash)
      : await this.passwords.verify(input.password, await this.decoy()).then(() => false)
    if (!ok || !row) {
      await this.limiter.failed(emailKey)
      // Never the e-mail as typed: people type their password into that field.
      await this.audit.record(
        this.deps.db,
        { actor: { type: 'user', id: null }, request },
        {
          action: 'auth.sign_in.failed',
          target: { type: 'user', id: row?.user.id ?? null },
          metadata: { method: 'password', reason: row ? 'wrong_password' : 'unknown_account' },
        },
      )
      throw authError(401, 'invalid_credentials', 'E-mail or password is wrong')
    }
    await this.limiter.succeeded(emailKey)
    if (this.passwords.needsRehash(row.hash!)) {
      const upgraded = await this.passwords.hash(input.password)
      await this.deps.db.update(userMethods).set({ passwordHash: upgraded, updatedAt: this.deps.now() }).where(eq(userMethods.id, row.methodId))
    }
    const issued = await this.deps.db.transaction(async (tx) => {
      const issued = await this.sessions.start(tx, row.user.id, request.userAgent, { aal: 'aal1', amr: ['pwd'] })
      await this.audit.record(
        tx,
        { actor: { type: 'user', id: row.user.id }, request },
        {
          action: 'auth.session.signed_in',
          target: { type: 'user', id: row.user.id },
          metadata: { method: 'password', sessionId: issued.sessionId },
        },
      )
      return issued
    })
    return this.authResult(row.user, issued)
  }

  /** Whether the instance has no account yet, and whether registration is open (a sign-in page's first screen). */
  async firstRun(): Promise<{ firstAccount: boolean; registration: boolean }> {
    const [[any], registration] = await Promise.all([this.deps.db.select({ id: users.id }).from(users).limit(1), this.settings.isEnabled('password')])
    return { firstAccount: !any, registration }
  }

  async changePassword(principal: Principal, input: { currentPassword: string; newPassword: string }): Promise<void> {
    requireCredentialChange(principal)
    const [method] = await this.deps.db
      .select()
      .from(userMethods)
      .where(and(eq(userMethods.userId, principal.userId), eq(userMethods.provider, 'password')))
    if (!method?.passwordHash || !(await this.passwords.verify(input.currentPassword, method.passwordHash))) {
      throw authError(401, 'invalid_credentials', 'The current password is wrong')
    }
    const passwordHash = await this.passwords.hash(input.newPassword)
    await this.deps.db.transaction((tx) => this.setPassword(tx, principal.userId, passwordHash, 'password_changed', principal))
  }

  /**
   * Sets (or first gives) the account a password and revokes every session, in the caller's
   * transaction, with its audit event (`auth.password.changed` or `auth.password.reset`) by `by`.
   */
  /** A new password's hash, made before the transaction that stores it (on PGlite a transaction holds the whole database). */
  hashPassword(password: string): Promise<string> {
    return this.passwords.hash(password)
  }

  async setPassword(tx: Db, userId: string, passwordHash: string, reason: 'password_changed' | 'password_reset', by: AuditBy): Promise<void> {
    const now = this.deps.now()
    await tx
      .insert(userMethods)
      .values({ userId, provider: 'password', passwordHash })
      .onConflictDoUpdate({ target: [userMethods.userId, userMethods.provider], set: { passwordHash, updatedAt: now } })
    await this.sessions.revoke(tx, { subjectId: userId }, reason)
    await this.events.emit(tx, passwordChanged, null, { userId, reason }, by)
  }

  /** The account, its e-mail state (`emailVerified`, only here: User itself is as the spec lists it) and its second factors, from memory when unchanged. */
  async me(principal: Principal): Promise<UserView & { emailVerified: boolean; mfa: { enabled: boolean; factors: MfaFactorView[] } }> {
    const user = await this.load(principal.userId)
    return { ...this.view(user), emailVerified: user.emailVerifiedAt !== null, mfa: { enabled: user.factors.length > 0, factors: user.factors } }
  }

  /** Name and slug: at `aal2` while the account has a factor (an `aal1` session reaches GET /auth/me, not this). */
  async updateProfile(principal: Principal, patch: { name?: string; slug?: string }): Promise<UserView> {
    requireAal2(principal)
    try {
      const user = await this.deps.db.transaction(async (tx) => {
        const [user] = await tx
          .update(users)
          .set({ ...patch, updatedAt: this.deps.now() })
          .where(eq(users.id, principal.userId))
          .returning()
        if (user) await this.changed(tx, user.id)
        return user
      })
      if (!user) throw authError(404, 'not_found', 'The account no longer exists')
      return this.view(user)
    } catch (err) {
      if (isUniqueViolation(err)) throw authError(409, 'slug_taken', 'This slug is already taken')
      throw err
    }
  }

  async slugAvailable(principal: Principal, slug: string): Promise<{ available: boolean; reason?: 'format' | 'taken' }> {
    if (!slugRe.test(slug)) return { available: false, reason: 'format' }
    const [owner] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.slug, slug))
    if (owner && owner.id !== principal.userId) return { available: false, reason: 'taken' }
    return { available: true }
  }

  async methods(principal: Principal) {
    const rows = await this.deps.db.select().from(userMethods).where(eq(userMethods.userId, principal.userId))
    return rows.map((m) => ({
      id: m.id,
      userId: m.userId,
      provider: m.provider,
      providerId: m.providerId,
      hasCredential: m.passwordHash !== null,
      createdAt: m.createdAt.toISOString(),
      updatedAt: m.updatedAt.toISOString(),
    }))
  }

  /** Whether the account has a verified second factor now, from memory while the account is unchanged (every request asks). */
  async hasFactor(userId: string): Promise<boolean> {
    return (await this.load(userId)).factors.length > 0
  }

  async capabilities(userId: string): Promise<string[]> {
    const user = this.cache.cached(userId) ?? (await this.cache.get(userId, () => this.fetch(userId)))
    return user ? this.capabilitiesOf(user) : []
  }

  /** Account ids by e-mail (case-insensitive), for other areas that invite by address. */
  async findIdByEmail(email: string): Promise<string | null> {
    const [row] = await this.deps.db.select({ id: users.id }).from(users).where(eq(users.emailKey, email.trim().toLowerCase()))
    return row?.id ?? null
  }

  /** Profile fields of several accounts, and whether each has a verified second factor, for other areas' listings (a team's members). */
  async profiles(ids: string[]): Promise<Map<string, { email: string; name: string; mfa: boolean }>> {
    if (ids.length === 0) return new Map()
    const rows = await this.deps.db
      .select({
        id: users.id,
        email: users.email,
        name: users.name,
        // Qualified by hand, as in prepareUserById: Drizzle writes `users.id` unqualified, which the subquery would take for its own.
        mfa: sql<boolean>`exists (select 1 from ${mfaFactors} f where f.user_id = ${sql.raw('"users"."id"')} and f.verified_at is not null)`,
      })
      .from(users)
      .where(inArray(users.id, ids))
    return new Map(rows.map((r) => [r.id, { email: r.email, name: r.name, mfa: r.mfa }]))
  }

  /** What anyone may see of accounts that chose a login slug (never the e-mail), by ids or by slug. */
  async publicProfiles(where: { ids: string[] } | { slug: string }): Promise<PublicProfile[]> {
    if ('ids' in where && where.ids.length === 0) return []
    const rows = await this.deps.db
      .select({ id: users.id, slug: users.slug, name: users.name, avatarUrl: users.avatarUrl, createdAt: users.createdAt })
      .from(users)
      .where(and(isNotNull(users.slug), 'ids' in where ? inArray(users.id, where.ids) : eq(users.slug, where.slug)))
    return rows.map((r) => ({ ...r, slug: r.slug! }))
  }

  authResult(user: UserRow, issued: IssuedSession): AuthResultView {
    return { token: issued.token, refreshToken: issued.refreshToken, user: this.view(user) }
  }

  private capabilitiesOf(user: { isAdmin: boolean; emailKey: string }): string[] {
    return isPlatformAdmin(user, this.deps.config.adminEmails) ? ['admin'] : []
  }

  private view(user: UserRow): UserView {
    return {
      id: user.id,
      email: user.email,
      name: user.name,
      avatarUrl: user.avatarUrl,
      slug: user.slug,
      capabilities: this.capabilitiesOf(user),
    }
  }

  private async load(userId: string): Promise<LoadedUser> {
    const user = this.cache.cached(userId) ?? (await this.cache.get(userId, () => this.fetch(userId)))
    if (!user) throw authError(401, 'unauthorized', 'The account no longer exists')
    return user
  }

  private async fetch(userId: string): Promise<LoadedUser | undefined> {
    const [row] = await this.userById.execute({ id: userId })
    if (!row) return undefined
    const factors = typeof row.factors === 'string' ? (JSON.parse(row.factors) as MfaFactorView[]) : row.factors
    return { ...row.user, factors }
  }

  private decoy(): Promise<string> {
    this.decoyHash ??= this.passwords.hash(crypto.randomUUID())
    return this.decoyHash
  }
}

/** A platform admin: the account is marked admin, or ADMIN_EMAILS (`adminEmails`, normalised) names its address. */
export function isPlatformAdmin(user: { isAdmin: boolean; emailKey: string }, adminEmails: readonly string[]): boolean {
  return user.isAdmin || adminEmails.includes(user.emailKey)
}

/** Writes an account with the password method (its hash made by `Passwords`), in the caller's transaction: registration and `npx ecobase admin create`. */
export async function insertPasswordAccount(tx: Db, input: { email: string; name: string; passwordHash: string; isAdmin: boolean }) {
  const email = input.email.trim()
  const emailKey = email.toLowerCase()
  const [user] = await tx.insert(users).values({ email, emailKey, name: input.name, isAdmin: input.isAdmin }).returning()
  await tx.insert(userMethods).values({ userId: user!.id, provider: 'password', providerId: emailKey, passwordHash: input.passwordHash })
  return user!
}
