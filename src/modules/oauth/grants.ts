import { and, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Db } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { pageOf, type PageParams } from '../../platform/paging'
import { oauthClients, oauthGrants } from './schema'

/** What users see of the applications they have authorized, and how grants end. */
export class OAuthGrants {
  constructor(private readonly deps: Pick<Deps, 'db' | 'now'>) {}

  /** The user's live grants (not revoked, not expired), newest first. */
  async list(userId: string, page: PageParams) {
    const where = this.live(eq(oauthGrants.userId, userId))
    const [rows, [count]] = await Promise.all([
      this.deps.db
        .select({ grant: oauthGrants, clientId: oauthClients.clientId, clientName: oauthClients.name })
        .from(oauthGrants)
        .innerJoin(oauthClients, eq(oauthClients.id, oauthGrants.clientId))
        .where(where)
        .orderBy(desc(oauthGrants.createdAt), desc(oauthGrants.id))
        .limit(page.pageSize)
        .offset(page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(oauthGrants).where(where),
    ])
    const items = rows.map(({ grant, clientId, clientName }) => ({
      id: grant.id,
      clientId,
      clientName,
      scopes: grant.scopes,
      createdAt: grant.createdAt.toISOString(),
      lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
      expiresAt: grant.expiresAt.toISOString(),
    }))
    return pageOf(items, count!.n, page)
  }

  /** The user revokes one of their grants: its refresh and access tokens stop working at once. */
  async removeForUser(userId: string, id: string): Promise<void> {
    const revoked = await this.revoke(this.deps.db, and(eq(oauthGrants.id, id), eq(oauthGrants.userId, userId))!, 'user_revoked')
    if (revoked === 0) throw new AppError(404, 'not_found', 'No such authorized application')
  }

  async revokeById(db: Db, id: string, reason: string): Promise<void> {
    await this.revoke(db, eq(oauthGrants.id, id), reason)
  }

  /** True while the grant exists, belongs to `userId`, is not revoked and has not expired. */
  async isAlive(id: string, userId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: oauthGrants.id })
      .from(oauthGrants)
      .where(this.live(and(eq(oauthGrants.id, id), eq(oauthGrants.userId, userId))!))
    return Boolean(row)
  }

  private async revoke(db: Db, where: SQL, reason: string): Promise<number> {
    const rows = await db
      .update(oauthGrants)
      .set({ revokedAt: this.deps.now(), revokedReason: reason })
      .where(this.live(where))
      .returning({ id: oauthGrants.id })
    return rows.length
  }

  private live(where: SQL) {
    return and(where, isNull(oauthGrants.revokedAt), gt(oauthGrants.expiresAt, this.deps.now()))!
  }
}
