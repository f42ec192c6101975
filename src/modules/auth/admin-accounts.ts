import { and, asc, count, ilike, inArray, isNotNull, isNull, max, or } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { listPage, type PageParams } from '../../platform/paging'
import { isPlatformAdmin } from './accounts'
import { mfaFactors, recoveryCodes, sessions, users } from './schema'
import { containing } from '../../platform/db/like'

type Method = 'totp' | 'passkey'

/** An account as a platform admin sees it in the list: who it is and its second factors, never a secret. */
export interface AdminAccountView {
  id: string
  email: string
  name: string
  createdAt: string
  platformAdmin: boolean
  secondFactor: { verified: boolean; methods: Method[]; recoveryCodesLeft: number }
  lastSignInAt: string | null
}

/**
 * What platform admins read of every account (GET /auth/admin/users): one page of accounts by
 * e-mail, then, for that page only, their verified factor types, unused recovery codes and newest
 * session, each one grouped query.
 */
export class AdminAccounts {
  constructor(private readonly deps: Pick<Deps, 'config' | 'db'>) {}

  async list(filter: { q?: string }, page: PageParams) {
    const q = filter.q?.trim()
    const where = q ? or(ilike(users.email, containing(q)), ilike(users.name, containing(q))) : undefined
    const found = await listPage(this.deps.db, users, where, [asc(users.emailKey)], page, (u) => u)
    const ids = found.items.map((u) => u.id)
    const [methods, codes, signIns] = ids.length ? await this.securityOf(ids) : [new Map(), new Map(), new Map()]
    return {
      ...found,
      items: found.items.map(
        (u): AdminAccountView => ({
          id: u.id,
          email: u.email,
          name: u.name,
          createdAt: u.createdAt.toISOString(),
          platformAdmin: isPlatformAdmin(u, this.deps.config.adminEmails),
          secondFactor: { verified: (methods.get(u.id)?.length ?? 0) > 0, methods: methods.get(u.id) ?? [], recoveryCodesLeft: codes.get(u.id) ?? 0 },
          lastSignInAt: signIns.get(u.id)?.toISOString() ?? null,
        }),
      ),
    }
  }

  /** By account id: the types of its verified factors (sorted), its unused recovery codes, when its newest session began. */
  private async securityOf(ids: string[]): Promise<[Map<string, Method[]>, Map<string, number>, Map<string, Date>]> {
    const [factors, codes, signIns] = await Promise.all([
      this.deps.db
        .selectDistinct({ userId: mfaFactors.userId, type: mfaFactors.type })
        .from(mfaFactors)
        .where(and(inArray(mfaFactors.userId, ids), isNotNull(mfaFactors.verifiedAt)))
        .orderBy(mfaFactors.userId, mfaFactors.type),
      this.deps.db
        .select({ userId: recoveryCodes.userId, n: count() })
        .from(recoveryCodes)
        .where(and(inArray(recoveryCodes.userId, ids), isNull(recoveryCodes.usedAt)))
        .groupBy(recoveryCodes.userId),
      this.deps.db
        .select({ userId: sessions.subjectId, at: max(sessions.createdAt) })
        .from(sessions)
        .where(inArray(sessions.subjectId, ids))
        .groupBy(sessions.subjectId),
    ])
    const methods = new Map<string, Method[]>()
    for (const f of factors) methods.set(f.userId, [...(methods.get(f.userId) ?? []), f.type])
    return [methods, new Map(codes.map((c) => [c.userId, c.n])), new Map(signIns.flatMap((s) => (s.at ? [[s.userId, s.at] as const] : [])))]
  }
}
