import { createHash } from 'node:crypto'
import { and, eq, gt, isNull, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import { randomToken, safeEqual, sha256Hex } from '../../platform/crypto'
import type { Db } from '../../platform/db'
import { AppError } from '../../platform/errors'
import type { AccessClaims } from '../../platform/jwt'
import { nextRefreshToken } from '../../platform/sessions'
import type { ClientRow, OAuthClients } from './clients'
import { invalidClient, invalidGrant, invalidRequest, OAuthError } from './errors'
import type { OAuthGrants } from './grants'
import { oauthCodes, oauthGrants, oauthRefreshTokens } from './schema'
import { canonicalScopes, splitScope } from './scopes'

export const OAUTH_TOKEN_TYPE = 'oauth'

/** A token-endpoint request as its route parsed it (JSON or form body, optional HTTP Basic). */
export interface TokenRequest {
  fields: Record<string, string>
  /** Why the body is unusable (not JSON or form, a parameter repeated or not a string). */
  problem?: string
  /** Client credentials from `Authorization: Basic`, or 'malformed' when that header is unusable. */
  basic?: { clientId: string; clientSecret: string } | 'malformed'
}

export interface TokenResponse {
  access_token: string
  token_type: 'Bearer'
  expires_in: number
  refresh_token: string
  scope: string
}

/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/

type GrantRow = typeof oauthGrants.$inferSelect

/**
 * The token endpoints: code exchange, refresh (rotating, single-use refresh tokens with reuse
 * detection) and revocation; and the bearer check of OAuth access tokens.
 */
export class OAuthTokens {
  /** The refresh rotation, prepared once: PostgreSQL then skips parsing and planning it. */
  private readonly rotation: ReturnType<typeof prepareRotation>

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'now' | 'tokens'>,
    private readonly clients: OAuthClients,
    private readonly grants: OAuthGrants,
  ) {
    this.rotation = prepareRotation(deps.db)
  }

  /** Authorization code → tokens. A `refresh_token` grant is served too, as token endpoints do (RFC 6749 §6). */
  async exchange(req: TokenRequest): Promise<TokenResponse> {
    const f = usable(req)
    if (f.grant_type === 'refresh_token') return this.refresh(req)
    if (f.grant_type !== 'authorization_code') {
      throw invalidRequest(f.grant_type ? 'grant_type must be authorization_code or refresh_token' : 'grant_type is missing')
    }
    required(f, 'code', 'redirect_uri', 'code_verifier')
    const creds = credentials(req)
    if (!VERIFIER.test(f.code_verifier!)) throw invalidRequest('code_verifier must be 43 to 128 unreserved characters (RFC 7636)')
    const client = await this.authenticate(creds)
    const now = this.deps.now()
    const outcome = await this.deps.db.transaction(async (tx) => {
      const hash = sha256Hex(f.code!)
      const [code] = await tx
        .update(oauthCodes)
        .set({ usedAt: now })
        .where(and(eq(oauthCodes.codeHash, hash), eq(oauthCodes.clientId, client.id), isNull(oauthCodes.usedAt)))
        .returning()
      if (!code) {
        const [seen] = await tx
          .select({ grantId: oauthCodes.grantId })
          .from(oauthCodes)
          .where(and(eq(oauthCodes.codeHash, hash), eq(oauthCodes.clientId, client.id)))
        return seen ? ({ kind: 'replay', grantId: seen.grantId } as const) : ({ kind: 'unknown' } as const)
      }
      if (code.expiresAt <= now) return { kind: 'expired' } as const
      if (!safeEqual(code.redirectUri, f.redirect_uri!)) return { kind: 'redirect_mismatch' } as const
      if (!safeEqual(s256(f.code_verifier!), code.codeChallenge)) return { kind: 'verifier' } as const
      const scopes = canonicalScopes(code.scopes.filter((s) => client.scopes.includes(s)))
      const [grant] = await tx.insert(oauthGrants).values({ clientId: client.id, userId: code.userId, scopes, expiresAt: this.grantExpiry() }).returning()
      await tx.update(oauthCodes).set({ grantId: grant!.id }).where(eq(oauthCodes.id, code.id))
      return { kind: 'ok', grant: grant!, refreshToken: await this.issueRefresh(tx, grant!.id) } as const
    })
    switch (outcome.kind) {
      case 'ok':
        return this.tokenResponse(client, outcome.grant, outcome.grant.scopes, outcome.refreshToken)
      case 'replay':
        // RFC 9700 §4.2.1: a code used twice was stolen or replayed; revoke what it issued.
        if (outcome.grantId) await this.grants.revokeById(this.deps.db, outcome.grantId, 'code_reuse')
        this.deps.logger.warn('oauth code reuse detected', { clientId: client.clientId, grantId: outcome.grantId })
        throw invalidGrant('The authorization code has already been used')
      case 'unknown':
        throw invalidGrant('The authorization code is invalid or was issued to another client')
      case 'expired':
        throw invalidGrant('The authorization code has expired')
      case 'redirect_mismatch':
        throw invalidGrant('redirect_uri does not match the one the code was issued for')
      case 'verifier':
        throw new OAuthError(401, 'invalid_verifier', 'code_verifier does not match the code_challenge')
    }
  }

  /** Rotates a refresh token. A used one presented again revokes its whole grant (replay). */
  async refresh(req: TokenRequest): Promise<TokenResponse> {
    const f = usable(req)
    if (f.grant_type !== 'refresh_token') {
      throw invalidRequest(f.grant_type ? 'grant_type must be refresh_token' : 'grant_type is missing')
    }
    required(f, 'refresh_token')
    const creds = credentials(req)
    const narrowed = f.scope ? splitScope(f.scope) : undefined
    const client = await this.authenticate(creds)
    const next = randomToken(32)
    const [row] = await this.rotation.execute({
      hash: sha256Hex(f.refresh_token!),
      next: sha256Hex(next),
      client: client.id,
      clientScopes: client.scopes.join(' '),
      narrowed: narrowed?.join(' ') ?? null,
      now: this.deps.now().toISOString(),
      expiresAt: this.grantExpiry().toISOString(),
    })
    if (row && row.refused === null) {
      await this.grants.revokeById(this.deps.db, row.grantId, 'refresh_token_reuse')
      this.deps.logger.warn('oauth refresh token reuse detected; grant revoked', { clientId: client.clientId, grantId: row.grantId })
    }
    const allowed = row?.grantScopes.filter((s) => client.scopes.includes(s)) ?? []
    if (row?.refused) throw new OAuthError(400, 'invalid_scope', `Not granted: ${narrowed!.filter((s) => !allowed.includes(s)).join(' ')}`)
    if (!row?.userId) throw invalidGrant('The refresh token is revoked, expired or already used')
    return this.tokenResponse(client, { id: row.grantId, userId: row.userId }, narrowed ? canonicalScopes(narrowed) : allowed, next)
  }

  /**
   * RFC 7009: revokes the grant of a refresh token (or of an access token) issued to this client.
   * Unknown tokens, and tokens of other clients, are ignored: the answer is the same.
   */
  async revoke(req: TokenRequest): Promise<void> {
    const f = usable(req)
    const creds = credentials(req)
    required(f, 'token')
    const client = await this.authenticate(creds)
    const token = f.token!
    const [row] = await this.deps.db
      .select({ grantId: oauthRefreshTokens.grantId })
      .from(oauthRefreshTokens)
      .innerJoin(oauthGrants, eq(oauthGrants.id, oauthRefreshTokens.grantId))
      .where(and(eq(oauthRefreshTokens.tokenHash, sha256Hex(token)), eq(oauthGrants.clientId, client.id)))
    let grantId = row?.grantId
    if (!grantId && f.token_type_hint !== 'refresh_token') {
      const claims = await this.deps.tokens.verify(token).catch(() => null)
      if (claims?.typ === OAUTH_TOKEN_TYPE && claims.client_id === client.clientId && typeof claims.gid === 'string') {
        grantId = claims.gid
      }
    }
    if (grantId) await this.grants.revokeById(this.deps.db, grantId, 'client_revoked')
  }

  /** The principal behind a verified `typ: oauth` access token, or 401 once its grant has ended. */
  async resolve(claims: AccessClaims): Promise<Principal> {
    const { client_id: clientId, scope, gid } = claims
    if (typeof clientId !== 'string' || typeof scope !== 'string' || typeof gid !== 'string') {
      throw new AppError(401, 'unauthorized', 'The access token is not valid')
    }
    if (!(await this.grants.isAlive(gid, claims.sub))) {
      throw new AppError(401, 'unauthorized', 'The authorization behind this token has been revoked or has expired')
    }
    return {
      kind: 'user',
      userId: claims.sub,
      sessionId: null,
      apiTokenId: null,
      oauth: { clientId, grantId: gid, scopes: splitScope(scope) },
    }
  }

  private async authenticate(creds: { clientId: string; clientSecret: string }): Promise<ClientRow> {
    const client = await this.clients.authenticate(creds.clientId, creds.clientSecret)
    if (!client) throw invalidClient()
    return client
  }

  private async tokenResponse(client: ClientRow, grant: Pick<GrantRow, 'id' | 'userId'>, scopes: string[], refreshToken: string): Promise<TokenResponse> {
    const scope = scopes.join(' ')
    const ttl = this.deps.config.oauth.accessTokenTtl
    const accessToken = await this.deps.tokens.sign({ sub: grant.userId, typ: OAUTH_TOKEN_TYPE, client_id: client.clientId, scope, gid: grant.id }, ttl)
    return { access_token: accessToken, token_type: 'Bearer', expires_in: ttl, refresh_token: refreshToken, scope }
  }

  private async issueRefresh(tx: Db, grantId: string): Promise<string> {
    const raw = randomToken(32)
    await tx.insert(oauthRefreshTokens).values({ grantId, tokenHash: sha256Hex(raw) })
    return raw
  }

  private grantExpiry(): Date {
    return new Date(this.deps.now().getTime() + this.deps.config.oauth.refreshTokenTtl * 1000)
  }
}

/**
 * One statement that rotates a client's refresh token: it uses the token up (`used_at is null`
 * keeps it single-use, also under concurrent presentations), extends its grant while alive and
 * stores the next token's hash. A `scope` asking for more than the live grant and the client allow
 * leaves the token unused. Its row is the presented token's, when it is this client's: `refused`
 * null when it was already used (a replay), true for a refused scope; `userId` null when the grant
 * is revoked or expired.
 */
function prepareRotation(db: Db) {
  const t = oauthRefreshTokens
  const g = oauthGrants
  const now = sql`${sql.placeholder('now')}::timestamptz`
  const narrowed = sql`string_to_array(${sql.placeholder('narrowed')}::text, ' ')`
  const ofClient = sql`(select ${g.clientId} from ${g} where ${g.id} = ${t.grantId}) = ${sql.placeholder('client')}::uuid`
  const refused = sql`${sql.placeholder('narrowed')}::text is not null and exists (select 1 from ${g} where ${g.id} = ${t.grantId} and ${g.revokedAt} is null and ${g.expiresAt} > ${now}
    and not (${narrowed} <@ ${g.scopes} and ${narrowed} <@ string_to_array(${sql.placeholder('clientScopes')}::text, ' ')))`
  const used = db.$with('used').as(
    db
      .update(t)
      .set({ usedAt: sql`case when ${refused} then null else ${now} end` })
      .where(and(eq(t.tokenHash, sql.placeholder('hash')), isNull(t.usedAt), ofClient))
      .returning({ usedGrantId: t.grantId, usedAt: t.usedAt }),
  )
  const live = db.$with('live').as(
    db
      .update(g)
      .set({ expiresAt: sql`${sql.placeholder('expiresAt')}::timestamptz`, lastUsedAt: now })
      .where(and(eq(g.id, sql`(select ${used.usedGrantId} from ${used} where ${used.usedAt} is not null)`), isNull(g.revokedAt), gt(g.expiresAt, now)))
      .returning({ liveId: g.id, userId: g.userId }),
  )
  const issued = db.$with('issued').as(
    db
      .insert(t)
      .select(db.select(nextRefreshToken({ grantId: live.liveId })).from(live))
      .returning({ issuedId: t.id }),
  )
  return db
    .with(used, live, issued)
    .select({
      grantId: t.grantId,
      refused: sql<boolean | null>`(select ${used.usedAt} is null from ${used})`,
      userId: sql<string | null>`(select ${live.userId} from ${live})`,
      grantScopes: sql<string[]>`(select ${g.scopes} from ${g} where ${g.id} = ${t.grantId})`.mapWith(g.scopes),
    })
    .from(t)
    .where(and(eq(t.tokenHash, sql.placeholder('hash')), ofClient))
    .prepare('oauth_refresh_rotation')
}

function usable(req: TokenRequest): Record<string, string | undefined> {
  if (req.problem) throw invalidRequest(req.problem)
  return req.fields
}

function required(fields: Record<string, string | undefined>, ...names: string[]): void {
  const missing = names.filter((n) => !fields[n])
  if (missing.length) throw invalidRequest(`Missing parameter(s): ${missing.join(', ')}`)
}

/** Client credentials from the body (client_secret_post) or HTTP Basic (client_secret_basic), never both. */
function credentials(req: TokenRequest): { clientId: string; clientSecret: string } {
  const { fields, basic } = req
  if (basic === 'malformed') throw invalidRequest('The Authorization header is not valid HTTP Basic')
  if (basic) {
    if (fields.client_secret) throw invalidRequest('Use one client authentication method: HTTP Basic or client_secret, not both')
    if (fields.client_id && fields.client_id !== basic.clientId) throw invalidRequest('client_id differs from the Authorization header')
    return basic
  }
  required(fields, 'client_id', 'client_secret')
  return { clientId: fields.client_id!, clientSecret: fields.client_secret! }
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url')
}
