import { and, desc, eq, ilike, notExists, or, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Db, isUniqueViolation } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { customerError } from './errors'
import type { EventBus } from '../../platform/events'
import { listPage, type PageParams } from '../../platform/paging'
import { qualified, RotatingSessions } from '../../platform/sessions'
import type { Tenant, TenancySource } from '../../platform/tenancy'
import type { RegistryService } from '../registry/service'
import type { TeamService } from '../team/service'
import type { AuditService } from '../audit/service'
import { customerCreated, customerDeleted } from './events'
import { customerRefreshTokens, customers, customerSessions } from './schema'
import { containing } from '../../platform/db/like'

type CustomerRow = typeof customers.$inferSelect
export interface CustomerProfile {
  email?: string
  phone?: string
  name?: string
  avatarUrl?: string
}

/** How long a support session lasts (capped by the access-token lifetime); it is never extended. */
export const SUPPORT_SESSION_SECONDS = 15 * 60

const notFound = () => customerError(404, 'not_found', 'No such customer in this ecosystem')

/**
 * External ids of team members' own customer records (`user:<userId>`). Only the service creates
 * them, and nobody gets a customer token for them or renames them: otherwise an ecosystem admin
 * could act as a fellow member and read that member's conversations and memories.
 */
export const MEMBER_PREFIX = 'user:'
/** External ids of alert contacts' records (`alert:<address>`): outside addresses the service e-mails. */
export const CONTACT_PREFIX = 'alert:'
const SERVICE_PREFIXES = [MEMBER_PREFIX, CONTACT_PREFIX]
/** A record the service keeps for itself: a team member's own, or an alert contact's. */
/**
 * An ecosystem's customers as lists and counts show them: the records the service keeps for itself
 * (team members', alert contacts') are not customers.
 */
export const realCustomers = (ecosystemId: string) =>
  and(eq(customers.ecosystemId, ecosystemId), ...SERVICE_PREFIXES.map((prefix) => sql`coalesce(${customers.externalId}, '') not like ${`${prefix}%`}`))!
const isMemberRecord = (externalId: string | null | undefined) => SERVICE_PREFIXES.some((prefix) => externalId?.startsWith(prefix))

function assertNotReserved(externalId: string | undefined): void {
  if (isMemberRecord(externalId)) {
    throw customerError(
      400,
      'reserved_external_id',
      `External ids starting with "${MEMBER_PREFIX}" or "${CONTACT_PREFIX}" are reserved for the records the service keeps (team members, alert contacts)`,
    )
  }
}
/** A record with nothing to find it by, name it or reach it with is no one: a customer keeps one of these. */
function assertIdentifiable(c: { externalId?: string | null; name?: string | null; email?: string | null }): void {
  if (![c.externalId, c.name, c.email].some((v) => v?.trim()))
    throw new AppError(400, 'validation_failed', 'A customer needs a name, an e-mail or an external id')
}
const memberRecord = (what: string) =>
  customerError(403, 'forbidden', `This is a team member's own customer record: it cannot ${what}; the member acts with its own credentials and X-Ecosystem-Id`)

export const customerView = (c: CustomerRow) => ({
  id: c.id,
  ecosystemId: c.ecosystemId,
  externalId: c.externalId,
  email: c.email,
  phone: c.phone,
  name: c.name,
  avatarUrl: c.avatarUrl,
  createdAt: c.createdAt.toISOString(),
  updatedAt: c.updatedAt.toISOString(),
})

/** End customers of an ecosystem, their tokens, and the tenancy lookups other areas rely on. */
export class CustomerService implements TenancySource {
  readonly sessions: RotatingSessions

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'database' | 'db' | 'logger' | 'now' | 'tokens'>,
    private readonly registry: RegistryService,
    private readonly team: TeamService,
    private readonly events: Pick<EventBus, 'emit'>,
    private readonly audit: AuditService,
  ) {
    this.sessions = new RotatingSessions(
      deps,
      { sessions: customerSessions, refreshTokens: customerRefreshTokens },
      {
        kind: 'customer',
        refreshTtlSeconds: deps.config.refreshTokenTtl,
        maxAgeSeconds: deps.config.sessionMaxAge,
        accessTtlSeconds: deps.config.accessTokenTtl,
        // The customer's ecosystem; none once the customer is gone.
        claimColumns: {
          eco: sql<
            string | null
          >`(select ${qualified(customers.ecosystemId)} from ${customers} where ${qualified(customers.id)} = ${qualified(customerSessions.subjectId)})`,
        },
        claims: (customerId, { eco }) => (typeof eco === 'string' ? { sub: customerId, typ: 'customer', eco } : null),
      },
    )
  }

  /** The same externalId always yields the same customer, also under concurrent calls. */
  resolve(ecosystemId: string, input: { externalId: string } & CustomerProfile): Promise<string> {
    assertNotReserved(input.externalId)
    return this.findOrCreate(ecosystemId, input)
  }

  private async findOrCreate(ecosystemId: string, input: { externalId: string } & CustomerProfile): Promise<string> {
    const existing = await this.byExternalId(ecosystemId, input.externalId)
    if (existing) return existing
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(customers)
        .values({ ecosystemId, ...input })
        .onConflictDoNothing({ target: [customers.ecosystemId, customers.externalId] })
        .returning()
      if (row && !isMemberRecord(row.externalId)) await this.announce(tx, row)
    })
    return (await this.byExternalId(ecosystemId, input.externalId))!
  }

  async register(tenant: Tenant, input: { externalId?: string } & CustomerProfile): Promise<string> {
    assertNotReserved(input.externalId)
    assertIdentifiable(input)
    try {
      return await this.deps.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(customers)
          .values({ ecosystemId: tenant.ecosystemId, ...input })
          .returning()
        await this.announce(tx, row!)
        return row!.id
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw customerError(409, 'customer_exists', 'A customer with this externalId already exists')
      throw err
    }
  }

  /**
   * A customer of the ecosystem an admin may act for (tokens, support sessions, their files): 404
   * outside the ecosystem, 403 for a record the service keeps for itself, such as a team member's
   * own, so no admin reaches a fellow member's data through it.
   */
  async actable(tenant: Tenant, customerId: string, what: string): Promise<CustomerRow> {
    const customer = await this.row(tenant, customerId)
    if (isMemberRecord(customer.externalId)) throw memberRecord(what)
    return customer
  }

  async issueToken(tenant: Tenant, customerId: string, userAgent: string | null) {
    await this.actable(tenant, customerId, 'get customer tokens')
    const issued = await this.deps.db.transaction(async (tx) => {
      const issued = await this.sessions.start(tx, customerId, userAgent)
      // Whoever holds these tokens acts as the customer: who had them issued is on record.
      await this.audit.record(tx, tenant, {
        action: 'customer.session.issued',
        target: { type: 'customer', id: customerId },
        metadata: { sessionId: issued.sessionId },
      })
      return issued
    })
    return { token: issued.token, refreshToken: issued.refreshToken, customerId }
  }

  /**
   * A support session: the admin acts as the customer (the console's chat playground) with one
   * access token that cannot be refreshed, so the session ends by itself after SUPPORT_SESSION_SECONDS.
   */
  async startSupportSession(tenant: Tenant, customerId: string, userAgent: string | null) {
    await this.actable(tenant, customerId, 'be acted as')
    const started = await this.deps.db.transaction(async (tx) => {
      const started = await this.sessions.startFixed(tx, customerId, userAgent, SUPPORT_SESSION_SECONDS)
      await this.audit.record(tx, tenant, {
        action: 'customer.support_session.started',
        target: { type: 'customer', id: customerId },
        metadata: { sessionId: started.sessionId, expiresAt: started.expiresAt.toISOString() },
      })
      return started
    })
    return { token: started.token, customerId, sessionId: started.sessionId, expiresAt: started.expiresAt.toISOString() }
  }

  /**
   * Ends a support session before its time (the console's "End session"): its token is refused from
   * the next request, on every replica. Only a support session (one that never had a refresh token)
   * of this ecosystem's customer; an ended or expired one answers as done, recorded once.
   */
  async endSupportSession(tenant: Tenant, sessionId: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .select({ customerId: customerSessions.subjectId, revokedAt: customerSessions.revokedAt, expiresAt: customerSessions.expiresAt })
        .from(customerSessions)
        .innerJoin(customers, eq(customers.id, customerSessions.subjectId))
        .where(
          and(
            eq(customerSessions.id, sessionId),
            eq(customers.ecosystemId, tenant.ecosystemId),
            notExists(tx.select({ one: sql`1` }).from(customerRefreshTokens).where(eq(customerRefreshTokens.sessionId, customerSessions.id))),
          ),
        )
      if (!row) throw customerError(404, 'not_found', 'No such support session in this ecosystem')
      if (row.revokedAt || row.expiresAt <= this.deps.now()) return
      await this.sessions.revoke(tx, { sessionId }, 'support_session_ended')
      await this.audit.record(tx, tenant, {
        action: 'customer.support_session.ended',
        target: { type: 'customer', id: row.customerId },
        metadata: { sessionId },
      })
    })
  }

  async refresh(refreshToken: string) {
    const issued = await this.sessions.refresh(refreshToken)
    return { token: issued.token, refreshToken: issued.refreshToken, customerId: issued.subjectId }
  }

  revoke(refreshToken: string): Promise<void> {
    return this.sessions.revokeByRefresh(refreshToken)
  }

  async me(tenant: Tenant) {
    return customerView(await this.row(tenant, tenant.customerId))
  }

  async list(tenant: Tenant, filter: { q?: string; includeServiceRecords?: boolean }, page: PageParams) {
    const scope = filter.includeServiceRecords ? eq(customers.ecosystemId, tenant.ecosystemId) : realCustomers(tenant.ecosystemId)
    const pattern = filter.q ? containing(filter.q) : null
    const where = pattern ? and(scope, or(ilike(customers.email, pattern), ilike(customers.externalId, pattern), ilike(customers.name, pattern))) : scope
    return listPage(this.deps.db, customers, where, [desc(customers.createdAt), desc(customers.id)], page, customerView)
  }

  async get(tenant: Tenant, id: string) {
    return customerView(await this.row(tenant, id))
  }

  async update(tenant: Tenant, id: string, patch: { [K in 'externalId' | keyof CustomerProfile]?: string | null }) {
    assertNotReserved(patch.externalId ?? undefined)
    try {
      const row = await this.deps.db.transaction(async (tx) => {
        if (patch.externalId !== undefined && isMemberRecord((await this.row(tenant, id, tx, true)).externalId)) throw memberRecord('change its external id')
        const [updated] = await tx
          .update(customers)
          .set({ ...patch, updatedAt: this.deps.now() })
          .where(and(eq(customers.id, id), eq(customers.ecosystemId, tenant.ecosystemId)))
          .returning()
        if (updated) assertIdentifiable(updated)
        return updated
      })
      if (!row) throw notFound()
      return customerView(row)
    } catch (err) {
      if (isUniqueViolation(err)) throw customerError(409, 'customer_exists', 'A customer with this externalId already exists')
      throw err
    }
  }

  private announce(tx: Db, row: CustomerRow) {
    const { id, externalId, email, name, createdAt } = customerView(row)
    return this.events.emit(tx, customerCreated, row.ecosystemId, { id, externalId, email, name, createdAt })
  }

  /** Deletes the customer and, by cascade, its sessions and customer-scoped data. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(customers)
        .where(and(eq(customers.id, id), eq(customers.ecosystemId, tenant.ecosystemId)))
        .returning({ id: customers.id })
      if (!deleted[0]) throw notFound()
      await this.sessions.revoke(tx, { subjectId: id }, 'customer_deleted')
      await this.events.emit(tx, customerDeleted, tenant.ecosystemId, { id }, tenant)
    })
  }

  // --- TenancySource ---

  async customerSession(claims: { sub: string; sid?: unknown; eco?: unknown }) {
    const unauthorized = () => customerError(401, 'unauthorized', 'The customer session has been revoked or has expired')
    if (typeof claims.sid !== 'string' || typeof claims.eco !== 'string') throw unauthorized()
    if (!(await this.sessions.isAlive(claims.sid, claims.sub))) throw unauthorized()
    const ecosystem = await this.registry.findEcosystem(claims.eco)
    if (!ecosystem) throw unauthorized()
    return { customerId: claims.sub, ecosystemId: ecosystem.id, organizationId: ecosystem.organizationId }
  }

  findEcosystem(idOrRdid: string) {
    return this.registry.findEcosystem(idOrRdid)
  }

  roleOf(userId: string, organizationId: string) {
    return this.team.roleOf(userId, organizationId)
  }

  /** Not cached: a record deleted on another replica must not be handed out again. */
  selfCustomer(ecosystemId: string, userId: string): Promise<string> {
    return this.findOrCreate(ecosystemId, { externalId: `${MEMBER_PREFIX}${userId}` })
  }

  /**
   * The own customer records of the ecosystem's admins and owners, created where missing (in the
   * caller's transaction): where the service addresses them, in feed items and notifications.
   */
  async adminRecords(tx: Db, ecosystemId: string): Promise<string[]> {
    const ecosystem = await this.registry.findEcosystem(ecosystemId, tx)
    if (!ecosystem) return []
    const contacts = await this.team.adminContacts(ecosystem.organizationId, tx)
    return this.serviceRecords(
      tx,
      ecosystemId,
      contacts.map((c) => ({ externalId: `${MEMBER_PREFIX}${c.userId}`, email: c.email })),
    )
  }

  /**
   * The customer records of outside addresses the service writes to for an ecosystem (a monitored
   * site's `alertEmails`): one per address (`alert:<address>`), so each has its own preferences and
   * one-click unsubscribe. Made on first use, in the caller's transaction.
   */
  async contactRecords(tx: Db, ecosystemId: string, emails: readonly string[]): Promise<string[]> {
    return this.serviceRecords(
      tx,
      ecosystemId,
      emails.map((email) => ({ externalId: `${CONTACT_PREFIX}${email.toLowerCase()}`, email })),
    )
  }

  /** Records the service keeps for itself (team members', alert contacts'), with their e-mail brought up to date. */
  private async serviceRecords(tx: Db, ecosystemId: string, records: { externalId: string; email: string }[]): Promise<string[]> {
    const unique = [...new Map(records.map((r) => [r.externalId, r])).values()]
    if (unique.length === 0) return []
    const rows = await tx
      .insert(customers)
      .values(unique.map((r) => ({ ecosystemId, ...r })))
      .onConflictDoUpdate({ target: [customers.ecosystemId, customers.externalId], set: { email: sql`excluded.email` } })
      .returning({ id: customers.id })
    return rows.map((r) => r.id)
  }

  private async byExternalId(ecosystemId: string, externalId: string): Promise<string | undefined> {
    const [row] = await this.deps.db
      .select({ id: customers.id })
      .from(customers)
      .where(and(eq(customers.ecosystemId, ecosystemId), eq(customers.externalId, externalId)))
    return row?.id
  }

  private async row(tenant: Tenant, id: string, db: Db = this.deps.db, lock = false): Promise<CustomerRow> {
    const query = db
      .select()
      .from(customers)
      .where(and(eq(customers.id, id), eq(customers.ecosystemId, tenant.ecosystemId)))
    const [row] = lock ? await query.for('update') : await query
    if (!row) throw notFound()
    return row
  }
}
