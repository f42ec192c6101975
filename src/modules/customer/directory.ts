import { and, count, eq, gte, inArray, sql } from 'drizzle-orm'
import type { Db } from '../../platform/db'
import { dayOf } from '../../platform/db/daily'
import { customerSessions, customers } from './schema'
import { CONTACT_PREFIX, MEMBER_PREFIX, realCustomers } from './service'

/** A customer's name as a mention: lowercased, every run of other characters than letters and digits one `-`. */
const NAME_SLUG = sql`trim(both '-' from lower(regexp_replace(${customers.name}, '[^A-Za-z0-9]+', '-', 'g')))`

/** Not a team member's own record (`user:…`): those are reached as members, never as customers. */
const notMemberRecord = sql`coalesce(${customers.externalId}, '') not like ${`${MEMBER_PREFIX}%`}`

/**
 * What the other areas read of an ecosystem's customers: the customer area's read model, so that
 * only it knows its tables (tests/architecture.test.ts). Each read takes the caller's `db` (its
 * transaction, when it holds one) and the ecosystem, which filters every statement; the SQL
 * fragments are for statements that must stay one (a fan-out's insert … select).
 */
export const customerDirectory = {
  /** Which of `ids` are customers of the ecosystem. */
  async existing(db: Db, ecosystemId: string, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set()
    const rows = await db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.ecosystemId, ecosystemId), inArray(customers.id, [...ids])))
    return new Set(rows.map((r) => r.id))
  },

  /** How to reach and show customer `id` of the ecosystem; null when there is none. */
  async contact(db: Db, ecosystemId: string, id: string) {
    const [row] = await db
      .select({ id: customers.id, email: customers.email, phone: customers.phone, name: customers.name, avatarUrl: customers.avatarUrl })
      .from(customers)
      .where(and(eq(customers.ecosystemId, ecosystemId), eq(customers.id, id)))
    return row ?? null
  },

  /** Name and avatar of each of `ids` that is a customer of the ecosystem, by id. */
  async profiles(db: Db, ecosystemId: string, ids: readonly string[]): Promise<Map<string, { name: string | null; avatarUrl: string | null }>> {
    if (ids.length === 0) return new Map()
    const rows = await db
      .select({ id: customers.id, name: customers.name, avatarUrl: customers.avatarUrl })
      .from(customers)
      .where(and(eq(customers.ecosystemId, ecosystemId), inArray(customers.id, [...ids])))
    return new Map(rows.map((r) => [r.id, { name: r.name, avatarUrl: r.avatarUrl }]))
  },

  /** Customers `@named` (by external id, or by name as a mention slug, lowercased), team members' records left out; at most `limit`. */
  async named(db: Db, ecosystemId: string, names: readonly string[], limit: number): Promise<string[]> {
    const lowered = names.map((n) => n.toLowerCase())
    const rows = await db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.ecosystemId, ecosystemId), sql`(${customers.externalId} in ${names} or ${NAME_SLUG} in ${lowered})`, notMemberRecord))
      .limit(limit)
    return rows.map((r) => r.id)
  },

  /** Whether customer `id` still exists, in whichever ecosystem (an unsubscribe link's signature names it). */
  async stillThere(db: Db, id: string): Promise<boolean> {
    const [row] = await db.select({ id: customers.id }).from(customers).where(eq(customers.id, id))
    return Boolean(row)
  },

  /** How many customers an announcement reaches: the ecosystem's own, not team members' records. */
  async announceableCount(db: Db, ecosystemId: string): Promise<number> {
    const [row] = await db
      .select({ n: count() })
      .from(customers)
      .where(and(eq(customers.ecosystemId, ecosystemId), notMemberRecord))
    return row?.n ?? 0
  },

  /** SQL: the ids (column `id`) of the next `limit` customers an announcement reaches, by id after `after`. */
  announceableIds(ecosystemId: string, after: string | null, limit: number) {
    return sql`select ${customers.id} as id from ${customers}
               where ${customers.ecosystemId} = ${ecosystemId} and ${notMemberRecord} ${after ? sql`and ${customers.id} > ${after}` : sql``}
               order by ${customers.id} limit ${limit}`
  },

  /** How many customers the ecosystem has, as lists count them (the service's own records left out). */
  async realCount(db: Db, ecosystemId: string): Promise<number> {
    const [row] = await db.select({ n: count() }).from(customers).where(realCustomers(ecosystemId))
    return row?.n ?? 0
  },

  /**
   * SQL: the ids (column `id`) of every record of the ecosystem that can store files: its customers
   * and its team members' own records (what a member uploads in the console is theirs), not alert contacts.
   */
  storingIds(ecosystemId: string) {
    return sql`select ${customers.id} as id from ${customers}
               where ${customers.ecosystemId} = ${ecosystemId} and coalesce(${customers.externalId}, '') not like ${`${CONTACT_PREFIX}%`}`
  },

  /** Customer sign-ins (sessions begun) per UTC day since `since`. */
  signInsPerDay(db: Db, ecosystemId: string, since: Date) {
    return db
      .select({ day: dayOf(customerSessions.createdAt), n: count() })
      .from(customerSessions)
      .innerJoin(customers, eq(customers.id, customerSessions.subjectId))
      .where(and(realCustomers(ecosystemId), gte(customerSessions.createdAt, since)))
      .groupBy(dayOf(customerSessions.createdAt))
  },
}
