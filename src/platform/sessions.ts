import { and, Column, eq, gt, is, isNotNull, isNull, lt, ne, or, type SQL, sql } from 'drizzle-orm'
import { type AnyPgColumn, index, jsonb, type PgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import { randomToken, sha256Hex } from './crypto'
import type { Database, Db } from './db'
import { AppError } from './errors'
import type { AccessTokens } from './jwt'
import type { Logger } from './logger'
import { ReplicaCache } from './replica-cache'

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })

/** What rotating sessions use of the app's deps. */
export interface SessionDeps {
  db: Db
  /** Revocations reach every replica over PostgreSQL NOTIFY. */
  database: Pick<Database, 'listen'>
  logger: Pick<Logger, 'warn'>
  now: () => Date
  tokens: Pick<AccessTokens, 'sign'>
}

/**
 * The two tables behind rotating sessions, created in an area's own schema: `sessions` (one per
 * sign-in, owned by a subject: a user, a customer…) and every `refresh_tokens` value it was issued.
 */
export function sessionTables(schema: PgSchema<string>, subject: { name: string; references: () => AnyPgColumn }) {
  const sessions = schema.table(
    'sessions',
    {
      id: uuid('id').primaryKey().defaultRandom(),
      subjectId: uuid(`${subject.name}_id`).notNull().references(subject.references, { onDelete: 'cascade' }),
      createdAt: at('created_at').notNull().defaultNow(),
      expiresAt: at('expires_at').notNull(),
      revokedAt: at('revoked_at'),
      revokedReason: text('revoked_reason'),
      userAgent: text('user_agent'),
      /** Authenticator assurance: `aal2` once a second factor was verified in this session (refreshes keep it). */
      aal: text('aal').$type<'aal1' | 'aal2'>().notNull().default('aal1'),
      /** How the session's holder authenticated (`pwd`, `otp`, `recovery`, `webauthn`). */
      amr: jsonb('amr').$type<string[]>().notNull().default([]),
    },
    // Every session of a subject, ended ones too: its active ones, its newest sign-in (the admins'
    // account list), and the cascade when the subject is deleted.
    (t) => [index(`sessions_${subject.name}_created_idx`).on(t.subjectId, t.createdAt)],
  )
  const refreshTokens = schema.table(
    'refresh_tokens',
    {
      id: uuid('id').primaryKey().defaultRandom(),
      sessionId: uuid('session_id')
        .notNull()
        .references(() => sessions.id, { onDelete: 'cascade' }),
      tokenHash: text('token_hash').notNull(),
      createdAt: at('created_at').notNull().defaultNow(),
      usedAt: at('used_at'),
    },
    (t) => [uniqueIndex('refresh_tokens_hash_uq').on(t.tokenHash), index('refresh_tokens_session_idx').on(t.sessionId)],
  )
  return { sessions, refreshTokens }
}

export type SessionTables = ReturnType<typeof sessionTables>

export interface IssuedSession {
  sessionId: string
  subjectId: string
  token: string
  refreshToken: string
}

export interface RotatingSessionsOptions {
  /** Names this kind of session in NOTIFY channels and logs (e.g. `user`, `customer`). */
  kind: string
  /** Sliding lifetime: each refresh extends the session by this much… */
  refreshTtlSeconds: number
  /** …but never past this age from sign-in (absolute lifetime, SESSION_MAX_AGE_SECONDS). */
  maxAgeSeconds: number
  accessTtlSeconds: number
  /**
   * What the access token says of a session beyond `sub`, `typ` and `sid`, as SQL over its row in
   * the sessions table: its columns, or a subquery on its subject's rows (columns in it named with
   * `qualified`). The rotation statement returns them from the session it extends, so a refresh
   * makes no second round trip; a new or elevated session reads them from its row.
   */
  claimColumns: ClaimColumns
  /** Access-token claims from those values, or null when the subject may no longer hold a session. */
  claims(subjectId: string, values: Record<string, unknown>): ({ sub: string; typ: string } & Record<string, unknown>) | null
}

/** SQL over a session's row that an access token's claims are made from (see `claimColumns`). */
export type ClaimColumns = Record<string, AnyPgColumn | SQL>

/**
 * A column named with its table (`"auth"."sessions"."user_id"`) wherever it stands: Drizzle names
 * columns bare in a one-table select, where a subquery on another table with a column of that
 * name would read its own instead.
 */
export const qualified = (column: AnyPgColumn) => sql`${column.table}.${sql.identifier(column.name)}`

/** Upper bound on how long a replica trusts a cached "session alive" if a NOTIFY were missed. */
const ALIVE_CACHE_MS = 30_000
const ALIVE_CACHE_LIMIT = 50_000

const invalidRefresh = () => new AppError(401, 'invalid_refresh_token', 'The refresh token is invalid, expired or already used')

/**
 * The columns of the refresh token a rotation statement inserts: a new id, its parent (session or
 * grant, by the parent column's name), the `next` placeholder's hash, and not used yet.
 */
export function nextRefreshToken<P extends Record<string, unknown>>(parent: P) {
  return {
    id: sql<string>`gen_random_uuid()`.as('id'),
    ...parent,
    tokenHash: sql<string>`${sql.placeholder('next')}::text`.as('token_hash'),
    createdAt: sql<Date>`now()`.as('created_at'),
    usedAt: sql<Date | null>`null::timestamptz`.as('used_at'),
  }
}

/**
 * One statement that uses a refresh token up (`used_at is null` keeps it single-use, also under
 * concurrent presentations), extends its session while alive (never past `created_at + maxAge`, so
 * an active session still ends) and stores the next token's hash. Alive also means younger than
 * maxAge: a session signed in before the absolute lifetime existed, or while it was longer, may
 * still hold a later `expires_at`.
 * Its row is the presented token's: none for an unknown token; `usedBy` null when it was already
 * used (a replay); `subjectId` null when its session is revoked or expired; `claims` the session's
 * `claimColumns`, read in the same statement.
 */
function prepareRotation(db: Db, { sessions, refreshTokens }: SessionTables, claimColumns: ClaimColumns, name: string) {
  const now = sql`${sql.placeholder('now')}::timestamptz`
  // float8: an int would overflow for a SESSION_MAX_AGE_SECONDS of 2^31 (68 years) or more.
  const maxAge = sql`make_interval(secs => ${sql.placeholder('maxAge')}::float8)`
  const used = db.$with('used').as(
    db
      .update(refreshTokens)
      .set({ usedAt: now })
      .where(and(eq(refreshTokens.tokenHash, sql.placeholder('hash')), isNull(refreshTokens.usedAt)))
      .returning({ usedBy: refreshTokens.sessionId }),
  )
  // The claims as the extended session's RETURNING gives them, each under an alias of its own.
  const claimAliases = Object.fromEntries(
    Object.entries(claimColumns).map(([key, value]) => [key, (is(value, Column) ? sql`${value}`.mapWith(value) : value).as(`claim_${key}`)]),
  )
  const live = db.$with('live').as(
    db
      .update(sessions)
      .set({
        expiresAt: sql`least(${sql.placeholder('expiresAt')}::timestamptz, ${sessions.createdAt} + ${maxAge})`,
      })
      .where(
        and(
          eq(sessions.id, sql`(select ${used.usedBy} from ${used})`),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, now),
          gt(sessions.createdAt, sql`${now} - ${maxAge}`),
        ),
      )
      .returning({ liveId: sessions.id, subjectId: sessions.subjectId, ...claimAliases }),
  )
  const issued = db.$with('issued').as(
    db
      .insert(refreshTokens)
      .select(db.select(nextRefreshToken({ sessionId: live.liveId })).from(live))
      .returning({ issuedId: refreshTokens.id }),
  )
  const claims = Object.fromEntries(Object.keys(claimColumns).map((key) => [key, (live as unknown as Record<string, SQL.Aliased>)[key]!]))
  return db
    .with(used, live, issued)
    .select({
      sessionId: refreshTokens.sessionId,
      usedBy: sql<string | null>`(select ${used.usedBy} from ${used})`,
      subjectId: live.subjectId,
      claims,
    })
    .from(refreshTokens)
    .leftJoin(live, sql`true`)
    .where(eq(refreshTokens.tokenHash, sql.placeholder('hash')))
    .prepare(name)
}

/**
 * Sessions of a short-lived JWT plus an opaque refresh token that rotates on every use; a used
 * token presented again revokes its whole session (reuse detection). Liveness is cached per
 * replica; revocation clears it locally and, through PostgreSQL NOTIFY, on every other replica.
 */
export class RotatingSessions {
  readonly channel: string
  /** Live sessions by id, with whose they are and when they end; a revocation (`s:<id>`, `u:<subject>`) forgets them on every replica. */
  private readonly alive: ReplicaCache<{ subjectId: string; endsAt: Date }>
  /** The rotation, prepared once: PostgreSQL then skips parsing and planning it. */
  private readonly rotation: ReturnType<typeof prepareRotation>

  constructor(
    private readonly deps: SessionDeps,
    private readonly tables: SessionTables,
    private readonly options: RotatingSessionsOptions,
  ) {
    this.channel = `ecobase_revoked_${options.kind}`
    this.alive = new ReplicaCache(deps, {
      channel: this.channel,
      limit: ALIVE_CACHE_LIMIT,
      ttlMs: ALIVE_CACHE_MS,
      concerns: (revoked, sessionId, live) => revoked === `s:${sessionId}` || revoked === `u:${live.subjectId}`,
    })
    this.rotation = prepareRotation(deps.db, tables, options.claimColumns, `${options.kind}_session_rotation`)
  }

  /** Starts a session for `subjectId` inside the caller's transaction; `amr` says how its holder authenticated. */
  async start(
    tx: Db,
    subjectId: string,
    userAgent: string | null,
    assurance: { aal: 'aal1' | 'aal2'; amr: string[] } = { aal: 'aal1', amr: [] },
  ): Promise<IssuedSession> {
    const now = this.deps.now()
    const expiresAt = new Date(Math.min(this.expiry().getTime(), now.getTime() + this.options.maxAgeSeconds * 1000))
    const sessionId = await this.insert(tx, subjectId, userAgent, now, expiresAt, assurance)
    return this.issue(tx, subjectId, sessionId)
  }

  /**
   * Starts a session that cannot be refreshed: an access token and no refresh token, the session
   * ending with the token after `ttlSeconds` (at most the access-token lifetime).
   */
  async startFixed(
    tx: Db,
    subjectId: string,
    userAgent: string | null,
    ttlSeconds: number,
  ): Promise<Omit<IssuedSession, 'refreshToken'> & { expiresAt: Date }> {
    const now = this.deps.now()
    const seconds = Math.min(ttlSeconds, this.options.accessTtlSeconds)
    const expiresAt = new Date(now.getTime() + seconds * 1000)
    const sessionId = await this.insert(tx, subjectId, userAgent, now, expiresAt, { aal: 'aal1', amr: [] })
    return { sessionId, subjectId, token: await this.sign(tx, subjectId, sessionId, seconds), expiresAt }
  }

  private async insert(tx: Db, subjectId: string, userAgent: string | null, now: Date, expiresAt: Date, assurance: { aal: 'aal1' | 'aal2'; amr: string[] }) {
    const { sessions } = this.tables
    const [session] = await tx
      .insert(sessions)
      .values({ subjectId, userAgent: userAgent?.slice(0, 500) ?? null, createdAt: now, expiresAt, ...assurance })
      .returning({ id: sessions.id })
    return session!.id
  }

  /**
   * Raises a live session to `aal2` after a second factor (`method` joins its `amr`) and issues its
   * next tokens. The refresh tokens it had that were not used yet are deleted, not spent: one taken
   * at `aal1` by someone else cannot be refreshed into `aal2` (it is refused as unknown).
   */
  async elevate(tx: Db, sessionId: string, subjectId: string, method: string): Promise<IssuedSession> {
    await this.raise(tx, sessionId, subjectId, method)
    await tx.delete(this.tables.refreshTokens).where(and(eq(this.tables.refreshTokens.sessionId, sessionId), isNull(this.tables.refreshTokens.usedAt)))
    return this.issue(tx, subjectId, sessionId)
  }

  /** Raises a live session to `aal2` in place (its next refresh carries it), as enrolling the account's first factor does. */
  async raise(tx: Db, sessionId: string, subjectId: string, method: string): Promise<void> {
    const { sessions } = this.tables
    const [raised] = await tx
      .update(sessions)
      .set({
        aal: 'aal2',
        amr: sql`(select coalesce(jsonb_agg(distinct m), '[]'::jsonb) from jsonb_array_elements_text(${sessions.amr} || ${JSON.stringify([method])}::jsonb) m)`,
      })
      .where(and(eq(sessions.id, sessionId), eq(sessions.subjectId, subjectId), isNull(sessions.revokedAt), gt(sessions.expiresAt, this.deps.now())))
      .returning({ id: sessions.id })
    if (!raised) throw new AppError(401, 'unauthorized', 'The session has been revoked or has expired')
  }

  /**
   * Rotates a refresh token in one prepared statement. A token that was already used revokes its
   * whole session (replay).
   */
  async refresh(raw: string): Promise<IssuedSession> {
    const next = randomToken(32)
    const [row] = await this.rotation.execute({
      hash: sha256Hex(raw),
      next: sha256Hex(next),
      now: this.deps.now().toISOString(),
      expiresAt: this.expiry().toISOString(),
      maxAge: this.options.maxAgeSeconds,
    })
    if (row && !row.usedBy) {
      await this.revoke(this.deps.db, { sessionId: row.sessionId }, 'refresh_token_reuse')
      this.deps.logger.warn('refresh token reuse detected; session revoked', { kind: this.options.kind, sessionId: row.sessionId })
    }
    if (!row?.subjectId) throw invalidRefresh()
    const claims = this.options.claims(row.subjectId, row.claims)
    if (!claims) throw invalidRefresh()
    const token = await this.deps.tokens.sign({ ...claims, sid: row.sessionId }, this.options.accessTtlSeconds)
    return { sessionId: row.sessionId, subjectId: row.subjectId, refreshToken: next, token }
  }

  /** Signs out the session a refresh token belongs to; unknown tokens are ignored. */
  async revokeByRefresh(raw: string): Promise<void> {
    const { refreshTokens } = this.tables
    const [row] = await this.deps.db
      .select({ sessionId: refreshTokens.sessionId })
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256Hex(raw)))
    if (row) await this.revoke(this.deps.db, { sessionId: row.sessionId }, 'sign_out')
  }

  /** Revokes one session or all of a subject's sessions (but `except`, when given), in the caller's transaction when given. */
  async revoke(db: Db, target: { sessionId: string } | { subjectId: string; except?: string }, reason: string): Promise<void> {
    const { sessions } = this.tables
    const where =
      'sessionId' in target
        ? eq(sessions.id, target.sessionId)
        : and(eq(sessions.subjectId, target.subjectId), target.except ? ne(sessions.id, target.except) : undefined)
    await db
      .update(sessions)
      .set({ revokedAt: this.deps.now(), revokedReason: reason })
      .where(and(where, isNull(sessions.revokedAt)))
    const revoked = 'sessionId' in target ? `s:${target.sessionId}` : `u:${target.subjectId}`
    // Forgotten here at once, not only at commit: a revocation is never served from the cache while it commits.
    this.alive.forget(revoked)
    await this.alive.changed(db, revoked)
  }

  /** True while the session exists, is not revoked, has not expired and is younger than its maximum age. */
  async isAlive(sessionId: string, subjectId: string): Promise<boolean> {
    const clock = this.deps.now()
    const live = this.alive.cached(sessionId) ?? (await this.alive.get(sessionId, () => this.liveness(sessionId, clock)))
    return live !== undefined && live.subjectId === subjectId && live.endsAt > clock
  }

  private async liveness(sessionId: string, clock: Date): Promise<{ subjectId: string; endsAt: Date } | undefined> {
    const { sessions } = this.tables
    const maxAgeMs = this.options.maxAgeSeconds * 1000
    const [row] = await this.deps.db
      .select({ subjectId: sessions.subjectId, expiresAt: sessions.expiresAt, createdAt: sessions.createdAt })
      .from(sessions)
      .where(
        and(
          eq(sessions.id, sessionId),
          isNull(sessions.revokedAt),
          gt(sessions.expiresAt, clock),
          gt(sessions.createdAt, new Date(clock.getTime() - maxAgeMs)),
        ),
      )
    return row && { subjectId: row.subjectId, endsAt: new Date(Math.min(row.expiresAt.getTime(), row.createdAt.getTime() + maxAgeMs)) }
  }

  /** Follows revocations made by other replicas. */
  listen(): Promise<() => Promise<void>> {
    return this.alive.listen()
  }

  private async issue(tx: Db, subjectId: string, sessionId: string): Promise<IssuedSession> {
    const token = await this.sign(tx, subjectId, sessionId, this.options.accessTtlSeconds)
    const raw = randomToken(32)
    await tx.insert(this.tables.refreshTokens).values({ sessionId, tokenHash: sha256Hex(raw) })
    return { sessionId, subjectId, refreshToken: raw, token }
  }

  /** An access token for the session, with the claims its row gives. */
  private async sign(tx: Db, subjectId: string, sessionId: string, ttlSeconds: number): Promise<string> {
    const [values] = await tx.select(this.options.claimColumns).from(this.tables.sessions).where(eq(this.tables.sessions.id, sessionId))
    const claims = values && this.options.claims(subjectId, values)
    if (!claims) throw invalidRefresh()
    return this.deps.tokens.sign({ ...claims, sid: sessionId }, ttlSeconds)
  }

  private expiry(): Date {
    return new Date(this.deps.now().getTime() + this.options.refreshTtlSeconds * 1000)
  }
}

/** Ended sessions and used refresh tokens are kept this long (audit, replay answers), then purged. */
export const SESSION_KEEP_MS = 7 * 24 * 3600 * 1000

/**
 * Deletes sessions that ended (expired, or revoked) before `before`, with their refresh tokens, and
 * refresh tokens used before `before` in sessions still alive: a replay of one that old is refused
 * as unknown rather than detected as reuse, which keeps the table bounded for long sessions.
 */
export async function purgeSessionTables(tx: Db, { sessions, refreshTokens }: SessionTables, before: Date) {
  const ended = await tx
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, before), and(isNotNull(sessions.revokedAt), lt(sessions.revokedAt, before))))
    .returning({ id: sessions.id })
  const used = await tx.delete(refreshTokens).where(lt(refreshTokens.usedAt, before)).returning({ id: refreshTokens.id })
  return { sessions: ended.length, refreshTokens: used.length }
}
