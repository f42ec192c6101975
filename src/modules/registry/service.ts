import { and, asc, eq, inArray, or } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { EcosystemLimits } from '../../platform/api-limits'
import { type Principal, requireAal2 } from '../../platform/auth'
import { isUniqueViolation, type Db } from '../../platform/db'
import { ReplicaCache } from '../../platform/replica-cache'
import { registryError } from './errors'
import { listPage, pageOf, type PageParams } from '../../platform/paging'
import { isUuid } from '../../platform/params'
import type { TeamService } from '../team/service'
import type { AuditService } from '../audit/service'
import { orgPrefix, organizationRdid } from './rdid'
import { ecosystems, identifiers, namespaces, organizations } from './schema'
import { NamespaceService } from './namespaces'
import { type EntityOwnerLookup, IdentifierService } from './identifiers'
export type { EntityOwnerLookup } from './identifiers'

type EcosystemRow = typeof ecosystems.$inferSelect
type OrganizationRow = typeof organizations.$inferSelect
/** What tenancy needs of an ecosystem. */
type TenantEcosystem = { id: string; organizationId: string; requireMfa: boolean; rateLimits: EcosystemLimits | null }

const notFound = (what: string) => registryError(404, 'not_found', `No such ${what}`)
/**
 * Ecosystems by id or rdid. A change announces an ecosystem's id (renamed or deleted) or an
 * organization's (its policy changed); every replica drops the entries it concerns, under any key.
 */
const ECOSYSTEM_CACHE = {
  channel: 'ecobase_ecosystem_changed',
  limit: 10_000,
  ttlMs: 60_000,
  concerns: (changed: string, _key: string, e: TenantEcosystem) => e.id === changed || e.organizationId === changed,
}

export const organizationView = (o: OrganizationRow) => ({ id: o.id, slug: o.slug, name: o.name, requireMfa: o.requireMfa })
export const ecosystemView = (e: EcosystemRow) => ({
  id: e.id,
  slug: e.slug,
  rdid: e.rdid,
  name: e.name,
  organizationId: e.organizationId,
  rateLimits: e.rateLimits,
})

/** Organizations and their ecosystems (the tenants), provisioned in one transaction. */
export class RegistryService {
  readonly namespaces: NamespaceService
  /** Readable identifiers (rdids) and the entities they name. */
  readonly identifiers: IdentifierService
  private readonly ecosystemCache: ReplicaCache<TenantEcosystem>

  constructor(
    private readonly deps: Pick<Deps, 'database' | 'db' | 'now'>,
    private readonly team: TeamService,
    entityTypes: () => readonly Readonly<Record<string, EntityOwnerLookup>>[],
    private readonly audit: AuditService,
  ) {
    this.namespaces = new NamespaceService(deps, team)
    this.ecosystemCache = new ReplicaCache(deps, ECOSYSTEM_CACHE)
    this.identifiers = new IdentifierService(deps, this.namespaces, entityTypes)
  }

  /**
   * Organization + namespace + admin team (caller as owner) + first ecosystem, or nothing at all.
   * Organization and ecosystem changes are audited as organization events (no ecosystem), so the
   * organization's other ecosystems and platform admins see them, also once an ecosystem is gone.
   */
  async provision(by: Principal, input: { slug: string; name: string; namespaceSlug?: string; ecosystemSlug?: string }) {
    const userId = by.userId
    const nsSlug = input.namespaceSlug ?? input.slug
    const ecoSlug = input.ecosystemSlug ?? 'main'
    const organizationId = crypto.randomUUID()
    try {
      return await this.deps.db.transaction(async (tx) => {
        const prefix = orgPrefix(nsSlug)
        const [namespace] = await tx
          .insert(namespaces)
          .values({ ownerKind: 'organization', ownerId: organizationId, slug: nsSlug, name: input.name, rdid: prefix })
          .returning()
        const [organization] = await tx
          .insert(organizations)
          .values({ id: organizationId, slug: input.slug, name: input.name, namespaceId: namespace!.id, createdBy: userId })
          .returning()
        const teamId = await this.team.createTeam(tx, organizationId, `${input.name} admins`, userId)
        const [ecosystem] = await tx
          .insert(ecosystems)
          .values({ organizationId, slug: ecoSlug, name: input.name, rdid: `${prefix}.${ecoSlug}` })
          .returning()
        await tx.insert(identifiers).values([
          { rdid: prefix, entityType: 'namespace', entityId: namespace!.id, createdBy: null },
          { rdid: organizationRdid(input.slug), entityType: 'organization', entityId: organizationId, createdBy: null },
          { rdid: ecosystem!.rdid, entityType: 'ecosystem', entityId: ecosystem!.id, createdBy: null },
        ])
        await this.audit.record(tx, by, {
          action: 'registry.organization.created',
          target: { type: 'organization', id: organizationId },
          organizationId,
          metadata: { slug: input.slug, ecosystemId: ecosystem!.id, ecosystemSlug: ecoSlug },
        })
        return {
          organization: organizationView(organization!),
          namespace: this.namespaces.view(namespace!),
          teamId,
          ecosystem: ecosystemView(ecosystem!),
        }
      })
    } catch (err) {
      if (isUniqueViolation(err)) throw registryError(409, 'slug_taken', 'The organization or namespace slug is already taken')
      throw err
    }
  }

  async listOrganizations(userId: string, page: PageParams) {
    const ids = (await this.team.memberships(userId)).map((m) => m.organizationId)
    if (ids.length === 0) return pageOf([], 0, page)
    const rows = await this.deps.db.select().from(organizations).where(inArray(organizations.id, ids)).orderBy(asc(organizations.slug))
    return pageOf(rows.slice(page.offset, page.offset + page.pageSize).map(organizationView), rows.length, page)
  }

  /**
   * The organization's policy: `requireMfa` lets members act in its ecosystems only while their
   * account has a verified second factor, verified in the session (aal2) for a session, present for
   * an API token (platform/tenancy). Owners only, from a session that verified one.
   */
  async setPolicy(by: Principal, id: string, policy: { requireMfa: boolean }) {
    await this.team.require(by.userId, id, 'owner')
    if (!by.assurance?.mfa)
      throw registryError(409, 'conflict', 'Enroll a second factor yourself first (POST /auth/mfa/totp): an owner without one would lock themself out')
    requireAal2(by)
    const row = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx.update(organizations).set({ requireMfa: policy.requireMfa }).where(eq(organizations.id, id)).returning()
      if (!row) throw notFound('organization')
      await this.ecosystemCache.changed(tx, id)
      return row
    })
    return organizationView(row)
  }

  async getOrganization(userId: string, id: string) {
    await this.team.require(userId, id, 'member')
    const [row] = await this.deps.db.select().from(organizations).where(eq(organizations.id, id))
    if (!row) throw notFound('organization')
    return organizationView(row)
  }

  async createEcosystem(by: Principal, input: { organizationId: string; slug: string; name?: string; rdid?: string }) {
    const userId = by.userId
    await this.team.require(userId, input.organizationId, 'admin')
    const prefix = await this.prefixOf(input.organizationId)
    const rdid = input.rdid ?? `${prefix}.${input.slug}`
    if (!rdid.startsWith(`${prefix}.`)) {
      throw registryError(403, 'forbidden', `An ecosystem rdid must lie under the namespace prefix ${prefix}`)
    }
    try {
      const row = await this.deps.db.transaction(async (tx) => {
        const [row] = await tx
          .insert(ecosystems)
          .values({ organizationId: input.organizationId, slug: input.slug, name: input.name ?? null, rdid })
          .returning()
        await tx.insert(identifiers).values({ rdid, entityType: 'ecosystem', entityId: row!.id, createdBy: userId })
        await this.audit.record(tx, by, {
          action: 'registry.ecosystem.created',
          target: { type: 'ecosystem', id: row!.id },
          organizationId: input.organizationId,
          metadata: { slug: input.slug, rdid },
        })
        return row!
      })
      return ecosystemView(row)
    } catch (err) {
      if (isUniqueViolation(err)) throw registryError(409, 'slug_taken', 'This ecosystem slug or rdid is already taken')
      throw err
    }
  }

  async listEcosystems(userId: string, page: PageParams) {
    const ids = (await this.team.memberships(userId)).map((m) => m.organizationId)
    if (ids.length === 0) return pageOf([], 0, page)
    const where = inArray(ecosystems.organizationId, ids)
    return listPage(this.deps.db, ecosystems, where, [asc(ecosystems.rdid)], page, ecosystemView)
  }

  async getEcosystem(userId: string, id: string) {
    const row = await this.ecosystemRow(id)
    await this.memberOrNotFound(userId, row.organizationId)
    return ecosystemView(row)
  }

  /**
   * Renames (a new slug moves an rdid that still has its default form along with it), or sets the
   * ecosystem's own rate limits (`{}`: back to the instance's, stored as null).
   */
  async updateEcosystem(by: Principal, id: string, patch: { slug?: string; name?: string; rateLimits?: EcosystemLimits }) {
    const { rateLimits, ...names } = patch
    const userId = by.userId
    const current = await this.ecosystemRow(id)
    await this.memberOrNotFound(userId, current.organizationId)
    await this.team.require(userId, current.organizationId, 'admin')
    const prefix = await this.prefixOf(current.organizationId)
    const followsSlug = current.rdid === `${prefix}.${current.slug}`
    const rdid = patch.slug && followsSlug ? `${prefix}.${patch.slug}` : current.rdid
    try {
      const row = await this.deps.db.transaction(async (tx) => {
        const [row] = await tx
          .update(ecosystems)
          .set({ ...names, ...(rateLimits && { rateLimits: Object.keys(rateLimits).length ? rateLimits : null }), rdid, updatedAt: this.deps.now() })
          .where(eq(ecosystems.id, id))
          .returning()
        if (rdid !== current.rdid) await tx.update(identifiers).set({ rdid }).where(eq(identifiers.rdid, current.rdid))
        await this.audit.record(tx, by, {
          action: 'registry.ecosystem.updated',
          target: { type: 'ecosystem', id },
          organizationId: current.organizationId,
          metadata: { changed: Object.keys(patch).sort(), slug: row!.slug, rdid },
        })
        await this.ecosystemCache.changed(tx, id)
        return row!
      })
      return ecosystemView(row)
    } catch (err) {
      if (isUniqueViolation(err)) throw registryError(409, 'slug_taken', 'This ecosystem slug or rdid is already taken')
      throw err
    }
  }

  /** Deletes the ecosystem and, by cascade, everything scoped to it (customers and their data). */
  async deleteEcosystem(by: Principal, id: string): Promise<void> {
    const userId = by.userId
    const current = await this.ecosystemRow(id)
    await this.memberOrNotFound(userId, current.organizationId)
    await this.team.require(userId, current.organizationId, 'owner')
    await this.deps.db.transaction(async (tx) => {
      await tx.delete(identifiers).where(eq(identifiers.entityId, id))
      await tx.delete(ecosystems).where(eq(ecosystems.id, id))
      await this.audit.record(tx, by, {
        action: 'registry.ecosystem.deleted',
        target: { type: 'ecosystem', id },
        organizationId: current.organizationId,
        metadata: { slug: current.slug, rdid: current.rdid },
      })
      await this.ecosystemCache.changed(tx, id)
    })
  }

  /** Follows renames, deletions and policy changes made on other replicas, so no replica serves a stale ecosystem. */
  listen(): Promise<() => Promise<void>> {
    return this.ecosystemCache.listen()
  }

  /**
   * For tenancy: an ecosystem by id or rdid (cached for a minute; renames and deletions on any
   * replica clear it). `db`: the caller's transaction when it holds one (on PGlite a read on the
   * pool inside it would wait for it forever).
   */
  async findEcosystem(idOrRdid: string, db: Db = this.deps.db): Promise<TenantEcosystem | null> {
    const key = idOrRdid.toLowerCase()
    const where = isUuid(key) ? or(eq(ecosystems.id, key), eq(ecosystems.rdid, key)) : eq(ecosystems.rdid, key)
    const load = async () => {
      const [row] = await db
        .select({ id: ecosystems.id, organizationId: ecosystems.organizationId, requireMfa: organizations.requireMfa, rateLimits: ecosystems.rateLimits })
        .from(ecosystems)
        .innerJoin(organizations, eq(organizations.id, ecosystems.organizationId))
        .where(where)
      return row
    }
    return (await this.ecosystemCache.get(key, load, { shared: db === this.deps.db })) ?? null
  }

  /** An ecosystem's own API rate limits: at once while its row is cached, as it is for every request its principals make. */
  rateLimitsOf(id: string): EcosystemLimits | null | Promise<EcosystemLimits | null> {
    const cached = this.ecosystemCache.cached(id.toLowerCase())
    return cached ? cached.rateLimits : this.findEcosystem(id).then((e) => e?.rateLimits ?? null)
  }

  private async ecosystemRow(id: string, db: Db = this.deps.db): Promise<EcosystemRow> {
    const [row] = await db.select().from(ecosystems).where(eq(ecosystems.id, id))
    if (!row) throw notFound('ecosystem')
    return row
  }

  private async memberOrNotFound(userId: string, organizationId: string): Promise<void> {
    if (!(await this.team.roleOf(userId, organizationId))) throw notFound('ecosystem')
  }

  private async prefixOf(organizationId: string): Promise<string> {
    const [row] = await this.deps.db
      .select({ rdid: namespaces.rdid })
      .from(organizations)
      .innerJoin(namespaces, eq(namespaces.id, organizations.namespaceId))
      .where(and(eq(organizations.id, organizationId)))
    if (!row?.rdid) throw notFound('organization')
    return row.rdid
  }
}
