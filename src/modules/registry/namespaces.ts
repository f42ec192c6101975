import { and, asc, eq, inArray, or, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { isUniqueViolation } from '../../platform/db'
import { registryError } from './errors'
import { listPage, type PageParams } from '../../platform/paging'
import type { TeamService } from '../team/service'
import { isUnder, personalPrefix } from './rdid'
import { identifiers, namespaces, organizations } from './schema'

type NamespaceRow = typeof namespaces.$inferSelect
/** A prefix the caller may mint under, and whom it belongs to: one account or one organization. */
export interface MintableNamespace {
  prefix: string
  owner: { userId: string } | { organizationId: string }
}

/** Namespaces: the rdid prefixes a user or an organization mints identifiers under. */
export class NamespaceService {
  constructor(
    private readonly deps: Pick<Deps, 'db'>,
    private readonly team: TeamService,
  ) {}

  view(n: NamespaceRow) {
    return { id: n.id, ownerKind: n.ownerKind, ownerId: n.ownerId, slug: n.slug, name: n.name, rdid: n.rdid }
  }

  /** The caller's own namespace (ownerKind `customer`) and those of its organizations. */
  async list(userId: string, page: PageParams) {
    await this.ensurePersonal(userId)
    const orgIds = (await this.team.memberships(userId)).map((m) => m.organizationId)
    const orgNamespaceIds = orgIds.length
      ? (await this.deps.db.select({ id: organizations.namespaceId }).from(organizations).where(inArray(organizations.id, orgIds))).map((r) => r.id)
      : []
    const personal = and(eq(namespaces.ownerKind, 'customer'), eq(namespaces.ownerId, userId))
    const where = orgNamespaceIds.length ? or(personal, inArray(namespaces.id, orgNamespaceIds)) : personal
    return listPage(this.deps.db, namespaces, where, [asc(namespaces.rdid)], page, (r) => this.view(r))
  }

  /** Changes the labels of a namespace; its rdid prefix never changes (identifiers hang off it). */
  async update(userId: string, id: string, patch: { slug?: string; name?: string }) {
    const row = await this.controlled(userId, id)
    try {
      const [updated] = await this.deps.db.update(namespaces).set(patch).where(eq(namespaces.id, row.id)).returning()
      return { id: updated!.id, slug: updated!.slug, name: updated!.name }
    } catch (err) {
      if (isUniqueViolation(err)) throw registryError(409, 'slug_taken', 'This namespace slug is already taken')
      throw err
    }
  }

  /** The namespaces the user may mint under: its own, and its organizations' where it is admin or owner. */
  async mintable(userId: string): Promise<MintableNamespace[]> {
    const own = await this.ensurePersonal(userId)
    const adminOf = (await this.team.memberships(userId)).filter((m) => m.role !== 'member').map((m) => m.organizationId)
    const orgPrefixes = adminOf.length
      ? await this.deps.db
          .select({ rdid: namespaces.rdid, organizationId: organizations.id })
          .from(organizations)
          .innerJoin(namespaces, eq(namespaces.id, organizations.namespaceId))
          .where(inArray(organizations.id, adminOf))
      : []
    return [{ prefix: own.rdid!, owner: { userId } }, ...orgPrefixes.map((r) => ({ prefix: r.rdid!, owner: { organizationId: r.organizationId } }))]
  }

  /** The namespace of `rdid` when the user may mint it, else null. */
  async mintableFor(userId: string, rdid: string): Promise<MintableNamespace | null> {
    return (await this.mintable(userId)).find((ns) => isUnder(rdid, ns.prefix)) ?? null
  }

  /** The namespace `rdid` lies under, with its owner; null when none does. */
  async containing(rdid: string): Promise<MintableNamespace | null> {
    const [row] = await this.deps.db
      .select()
      .from(namespaces)
      .where(sql`starts_with(${rdid}, ${namespaces.rdid} || '.')`)
      .orderBy(sql`length(${namespaces.rdid}) desc`)
      .limit(1)
    if (!row) return null
    return { prefix: row.rdid!, owner: row.ownerKind === 'organization' ? { organizationId: row.ownerId } : { userId: row.ownerId } }
  }

  private async ensurePersonal(userId: string): Promise<NamespaceRow> {
    const existing = await this.personal(userId)
    if (existing) return existing
    const rdid = personalPrefix(userId)
    await this.deps.db.transaction(async (tx) => {
      const created = await tx
        .insert(namespaces)
        .values({ ownerKind: 'customer', ownerId: userId, rdid })
        .onConflictDoNothing()
        .returning({ id: namespaces.id })
      if (created[0]) {
        await tx.insert(identifiers).values({ rdid, entityType: 'namespace', entityId: created[0].id, createdBy: null }).onConflictDoNothing()
      }
    })
    return (await this.personal(userId))!
  }

  private async personal(userId: string): Promise<NamespaceRow | undefined> {
    const [row] = await this.deps.db
      .select()
      .from(namespaces)
      .where(and(eq(namespaces.ownerKind, 'customer'), eq(namespaces.ownerId, userId)))
    return row
  }

  /** A namespace the user may change: its own, or its organization's as admin/owner; else 404/403. */
  private async controlled(userId: string, id: string): Promise<NamespaceRow> {
    const [row] = await this.deps.db.select().from(namespaces).where(eq(namespaces.id, id))
    if (!row) throw registryError(404, 'not_found', 'No such namespace')
    if (row.ownerKind === 'customer') {
      if (row.ownerId !== userId) throw registryError(404, 'not_found', 'No such namespace')
      return row
    }
    await this.team.require(userId, row.ownerId, 'admin')
    return row
  }
}
