import { and, desc, eq, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Principal, requireAal2 } from '../../platform/auth'
import { randomToken, safeEqual, sha256Hex } from '../../platform/crypto'
import { oauthError } from './errors'
import { pageOf, type PageParams } from '../../platform/paging'
import { redirectUriProblem } from './redirect-uris'
import type { AuditService } from '../audit/service'
import { oauthClients } from './schema'
import { DEFAULT_CLIENT_SCOPES, canonicalScopes, isScope } from './scopes'

export const CLIENT_ID_PREFIX = 'ecoc_'
export const CLIENT_SECRET_PREFIX = 'ecos_'

export type ClientRow = typeof oauthClients.$inferSelect

export interface ClientInput {
  name: string
  redirectUris: string[]
  scopes?: string[]
}

const notFound = () => oauthError(404, 'not_found', 'No such OAuth client')
/** Verified against when the client_id is unknown, so both failures cost the same. */
const DECOY_HASH = sha256Hex(randomToken(32))

/** Client applications: registered and managed by their owner, authenticated at the token endpoints. */
export class OAuthClients {
  /** The client by its public id, prepared once: every token-endpoint call reads it first. */
  private readonly byClientIdQuery

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly audit: AuditService,
  ) {
    this.byClientIdQuery = deps.db
      .select()
      .from(oauthClients)
      .where(eq(oauthClients.clientId, sql.placeholder('clientId')))
      .prepare('oauth_client_by_client_id')
  }

  /** Registers a client for `owner`; every change below writes its audit event (`oauth.client.*`) in its transaction. */
  async create(owner: Principal, input: ClientInput) {
    const secret = newSecret()
    const values = {
      ownerId: owner.userId,
      clientId: CLIENT_ID_PREFIX + randomToken(18),
      secretHash: sha256Hex(secret),
      name: input.name,
      redirectUris: checkedRedirectUris(input.redirectUris),
      scopes: checkedScopes(input.scopes ?? DEFAULT_CLIENT_SCOPES),
    }
    const row = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.insert(oauthClients).values(values).returning()
      await this.audit.record(tx, owner, { action: 'oauth.client.created', target: { type: 'oauth_client', id: row!.id }, metadata: clientFacts(row!) })
      return row!
    })
    return { ...view(row), clientSecret: secret }
  }

  async list(ownerId: string, page: PageParams) {
    const where = eq(oauthClients.ownerId, ownerId)
    const [rows, [count]] = await Promise.all([
      this.deps.db
        .select()
        .from(oauthClients)
        .where(where)
        .orderBy(desc(oauthClients.createdAt), desc(oauthClients.id))
        .limit(page.pageSize)
        .offset(page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(oauthClients).where(where),
    ])
    return pageOf(rows.map(view), count!.n, page)
  }

  async get(ownerId: string, id: string) {
    const [row] = await this.deps.db.select().from(oauthClients).where(owned(ownerId, id))
    if (!row) throw notFound()
    return view(row)
  }

  async update(owner: Principal, id: string, patch: Partial<ClientInput>) {
    const set = {
      ...(patch.name !== undefined && { name: patch.name }),
      ...(patch.redirectUris !== undefined && { redirectUris: checkedRedirectUris(patch.redirectUris) }),
      ...(patch.scopes !== undefined && { scopes: checkedScopes(patch.scopes) }),
    }
    const row = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(oauthClients)
        .set({ ...set, updatedAt: this.deps.now() })
        .where(owned(owner.userId, id))
        .returning()
      if (!row) throw notFound()
      await this.audit.record(tx, owner, {
        action: 'oauth.client.updated',
        target: { type: 'oauth_client', id },
        metadata: { ...clientFacts(row), changed: Object.keys(set).sort() },
      })
      return row
    })
    return view(row)
  }

  /** Deletes the client with every code, grant and token issued to it. */
  async remove(owner: Principal, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [deleted] = await tx.delete(oauthClients).where(owned(owner.userId, id)).returning()
      if (!deleted) throw notFound()
      await this.audit.record(tx, owner, { action: 'oauth.client.deleted', target: { type: 'oauth_client', id }, metadata: clientFacts(deleted) })
    })
  }

  /** Replaces the secret; the old one stops working at once. Issued tokens are not affected. */
  async rotateSecret(owner: Principal, id: string) {
    requireAal2(owner)
    const secret = newSecret()
    const row = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(oauthClients)
        .set({ secretHash: sha256Hex(secret), updatedAt: this.deps.now() })
        .where(owned(owner.userId, id))
        .returning()
      if (!row) throw notFound()
      await this.audit.record(tx, owner, { action: 'oauth.client.secret_rotated', target: { type: 'oauth_client', id }, metadata: clientFacts(row) })
      return row
    })
    return { ...view(row), clientSecret: secret }
  }

  /** The account that registered the client (by row id); null when there is no such client. */
  async ownerOf(id: string): Promise<string | null> {
    const [row] = await this.deps.db.select({ ownerId: oauthClients.ownerId }).from(oauthClients).where(eq(oauthClients.id, id))
    return row?.ownerId ?? null
  }

  async byClientId(clientId: string): Promise<ClientRow | undefined> {
    const [row] = await this.byClientIdQuery.execute({ clientId })
    return row
  }

  /** The client whose id and secret these are, or null. */
  async authenticate(clientId: string, secret: string): Promise<ClientRow | null> {
    const row = await this.byClientId(clientId)
    const ok = safeEqual(row?.secretHash ?? DECOY_HASH, sha256Hex(secret))
    return row && ok ? row : null
  }
}

/** What an audit event says of a client: its public id and name (never the secret or its hash). */
const clientFacts = (row: ClientRow) => ({ clientId: row.clientId, name: row.name })

function newSecret(): string {
  return CLIENT_SECRET_PREFIX + randomToken(32)
}

function owned(ownerId: string, id: string) {
  return and(eq(oauthClients.id, id), eq(oauthClients.ownerId, ownerId))
}

function checkedRedirectUris(uris: string[]): string[] {
  for (const uri of uris) {
    const problem = redirectUriProblem(uri)
    if (problem) throw oauthError(400, 'invalid_redirect_uri', `Redirect URI ${JSON.stringify(uri)} ${problem}`)
  }
  return [...new Set(uris)]
}

function checkedScopes(scopes: string[]) {
  const unknown = scopes.filter((s) => !isScope(s))
  if (unknown.length) throw oauthError(400, 'invalid_scope', `Unknown scope(s): ${unknown.join(', ')}`)
  return canonicalScopes(scopes)
}

export function view(row: ClientRow) {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    redirectUris: row.redirectUris,
    scopes: row.scopes,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}
