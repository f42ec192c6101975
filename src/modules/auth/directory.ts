import { and, count, eq, gte, inArray, or, type SQL, sql } from 'drizzle-orm'
import type { Db } from '../../platform/db'
import { dayOf } from '../../platform/db/daily'
import { sessions, users } from './schema'

/**
 * What the other areas read of accounts: the auth area's read model, so that only it knows its
 * tables (tests/architecture.test.ts). Each read takes the caller's `db` (its transaction, when it
 * holds one).
 */
export const accountDirectory = {
  /** The account e-mail of each of `userIds` that exists, by id. */
  async emails(db: Db, userIds: readonly string[]): Promise<Map<string, string>> {
    if (userIds.length === 0) return new Map()
    const rows = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(inArray(users.id, [...userIds]))
    return new Map(rows.map((r) => [r.id, r.email]))
  },

  /** The e-mail of every platform admin: accounts marked admin, and those ADMIN_EMAILS names (`adminEmails`, normalised). */
  async platformAdminEmails(db: Db, adminEmails: readonly string[]): Promise<string[]> {
    const named = adminEmails.length ? [inArray(users.emailKey, [...adminEmails])] : []
    const rows = await db
      .select({ email: users.email })
      .from(users)
      .where(or(eq(users.isAdmin, true), ...named))
    return rows.map((r) => r.email)
  },

  /** Account sign-ins (sessions begun: password, second factor, passkey) of the accounts `userIds` selects (SQL, one column), per UTC day since `since`. */
  signInsPerDay(db: Db, userIds: SQL, since: Date) {
    return db
      .select({ day: dayOf(sessions.createdAt), n: count() })
      .from(sessions)
      .where(and(inArray(sessions.subjectId, sql`(${userIds})`), gte(sessions.createdAt, since)))
      .groupBy(dayOf(sessions.createdAt))
  },
}
