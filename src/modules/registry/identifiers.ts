import { and, asc, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { isUniqueViolation } from '../../platform/db'
import { registryError } from './errors'
import { listPage, type PageParams } from '../../platform/paging'
import type { MintableNamespace, NamespaceService } from './namespaces'
import { ecosystems, identifiers } from './schema'

type IdentifierRow = typeof identifiers.$inferSelect
/** Entity types whose identifiers only the service mints (at provisioning and ecosystem creation). */
const SYSTEM_TYPES = new Set(['namespace', 'organization', 'ecosystem'])
/** Whom an entity belongs to: an ecosystem (so its organization) or one account. */
export type EntityOwner = { ecosystemId: string } | { userId: string }
/** Finds the owner of an entity by id; null when there is no such entity. */
export type EntityOwnerLookup = (entityId: string) => Promise<EntityOwner | null>
const view = (r: IdentifierRow) => ({ rdid: r.rdid, entityType: r.entityType, entityId: r.entityId, createdBy: r.createdBy })

/** rdid → entity mappings: public to resolve, minted only under a namespace the caller controls. */
export class IdentifierService {
  private lookups: Map<string, EntityOwnerLookup> | undefined

  constructor(
    private readonly deps: Pick<Deps, 'db'>,
    private readonly namespaces: NamespaceService,
    /** The entity types the modules declare (their manifests' `extends.entityTypes`), read on first use. */
    private readonly entityTypeSources: () => readonly Readonly<Record<string, EntityOwnerLookup>>[],
  ) {}

  /** Whom each entity type's entities belong to, by type. */
  private get owners(): Map<string, EntityOwnerLookup> {
    this.lookups ??= new Map(this.entityTypeSources().flatMap((types) => Object.entries(types)))
    return this.lookups
  }

  /**
   * Minted identifiers resolve only while their entity exists and still belongs to the owner of
   * their namespace: one minted before minting checked ownership, or whose entity was deleted,
   * answers 404 like an unknown one.
   */
  async resolve(rdid: string) {
    const [row] = await this.deps.db.select().from(identifiers).where(eq(identifiers.rdid, rdid.toLowerCase()))
    if (!row || !(SYSTEM_TYPES.has(row.entityType) || (await this.namesOwnEntity(row)))) {
      throw registryError(404, 'not_found', `No identifier ${rdid}`)
    }
    return view(row)
  }

  get entityTypes(): string[] {
    return [...this.owners.keys()].sort()
  }

  /**
   * Maps an rdid under a namespace the caller controls to an entity of that namespace's owner: an
   * organization's namespace names entities of its ecosystems, a personal namespace the caller's own.
   * Otherwise anyone could publish an rdid that "resolves" to another tenant's entity.
   */
  async mint(userId: string, input: { rdid: string; entityType: string; entityId: string }) {
    if (SYSTEM_TYPES.has(input.entityType)) {
      throw registryError(403, 'forbidden', `Identifiers of type ${input.entityType} are registered by the service itself`)
    }
    const lookup = this.owners.get(input.entityType)
    if (!lookup) {
      throw registryError(400, 'unknown_entity_type', `entityType must be one of ${this.entityTypes.join(', ')}`)
    }
    const namespace = await this.namespaces.mintableFor(userId, input.rdid)
    if (!namespace) throw registryError(403, 'forbidden', 'The rdid must lie under a namespace you own or administer')
    const owner = await lookup(input.entityId)
    if (!owner || !(await this.belongs(owner, namespace))) {
      throw registryError(404, 'entity_not_found', `No ${input.entityType} ${input.entityId} belongs to the owner of this namespace`)
    }
    try {
      const [row] = await this.deps.db
        .insert(identifiers)
        .values({ ...input, createdBy: userId })
        .returning()
      return view(row!)
    } catch (err) {
      if (isUniqueViolation(err)) throw registryError(409, 'rdid_taken', 'This rdid is already registered')
      throw err
    }
  }

  private async namesOwnEntity(row: IdentifierRow): Promise<boolean> {
    const lookup = this.owners.get(row.entityType)
    const namespace = lookup && (await this.namespaces.containing(row.rdid))
    const owner = namespace && (await lookup(row.entityId))
    return Boolean(owner && namespace && (await this.belongs(owner, namespace)))
  }

  private async belongs(owner: EntityOwner, namespace: MintableNamespace): Promise<boolean> {
    if ('userId' in namespace.owner) return 'userId' in owner && owner.userId === namespace.owner.userId
    if (!('ecosystemId' in owner)) return false
    const [row] = await this.deps.db
      .select({ id: ecosystems.id })
      .from(ecosystems)
      .where(and(eq(ecosystems.id, owner.ecosystemId), eq(ecosystems.organizationId, namespace.owner.organizationId)))
    return Boolean(row)
  }

  async list(entityId: string, page: PageParams) {
    const where = eq(identifiers.entityId, entityId)
    return listPage(this.deps.db, identifiers, where, [asc(identifiers.rdid)], page, view)
  }
}
