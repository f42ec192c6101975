import { and, desc, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import { randomToken, sha256Hex } from '../../platform/crypto'
import { AppError } from '../../platform/errors'
import { listPage, type PageParams } from '../../platform/paging'
import type { AuditService } from '../audit/service'
import { requireCredentialChange, requireInteractive } from './interactive'
import { apiTokens } from './schema'

export const API_TOKEN_PREFIX = 'eco_'
/** lastUsedAt is written at most this often per token, so a busy token is not a write per request. */
const LAST_USED_RESOLUTION_MS = 60_000

type Row = typeof apiTokens.$inferSelect

export class ApiTokens {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly audit: AuditService,
  ) {}

  /** From a session only, at `aal2` while the account has a factor: a token cannot mint tokens, nor can a password alone. */
  async create(principal: Principal, input: { name: string; expiresAt?: string }) {
    requireCredentialChange(principal)
    const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null
    if (expiresAt && expiresAt.getTime() <= this.deps.now().getTime()) {
      throw new AppError(400, 'validation_failed', 'expiresAt must be in the future')
    }
    const token = API_TOKEN_PREFIX + randomToken(32)
    const row = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(apiTokens)
        .values({ userId: principal.userId, name: input.name, prefix: token.slice(0, 12), tokenHash: sha256Hex(token), expiresAt })
        .returning()
      await this.audit.record(tx, principal, {
        action: 'auth.api_token.created',
        target: { type: 'api_token', id: row!.id },
        metadata: { name: row!.name, expiresAt: row!.expiresAt?.toISOString() ?? null },
      })
      return row!
    })
    return { ...view(row), token }
  }

  async list(principal: Principal, page: PageParams) {
    requireInteractive(principal)
    const where = eq(apiTokens.userId, principal.userId)
    return listPage(this.deps.db, apiTokens, where, [desc(apiTokens.createdAt), desc(apiTokens.id)], page, view)
  }

  async remove(principal: Principal, id: string): Promise<void> {
    requireCredentialChange(principal)
    await this.deps.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(apiTokens)
        .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, principal.userId)))
        .returning({ id: apiTokens.id, name: apiTokens.name })
      if (!deleted) throw new AppError(404, 'not_found', 'No such API token')
      await this.audit.record(tx, principal, { action: 'auth.api_token.revoked', target: { type: 'api_token', id }, metadata: { name: deleted.name } })
    })
  }

  /** Whether the token still works (not deleted, not expired): streams opened with it ask again while they run. */
  async isValid(id: string): Promise<boolean> {
    const [row] = await this.deps.db.select({ expiresAt: apiTokens.expiresAt }).from(apiTokens).where(eq(apiTokens.id, id))
    return Boolean(row) && (!row!.expiresAt || row!.expiresAt > this.deps.now())
  }

  /** The principal behind a raw API token, or 401 for an unknown, deleted or expired one. */
  async authenticate(raw: string): Promise<Principal> {
    const [row] = await this.deps.db
      .select()
      .from(apiTokens)
      .where(eq(apiTokens.tokenHash, sha256Hex(raw)))
    const now = this.deps.now()
    if (!row) throw new AppError(401, 'unauthorized', 'The API token is not valid')
    if (row.expiresAt && row.expiresAt <= now) throw new AppError(401, 'token_expired', 'The API token has expired')
    if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.deps.db.update(apiTokens).set({ lastUsedAt: now }).where(eq(apiTokens.id, row.id))
    }
    return { kind: 'user', userId: row.userId, sessionId: null, apiTokenId: row.id }
  }
}

function view(row: Row) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt?.toISOString() ?? null,
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  }
}
