import { asc, eq, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { isUniqueViolation } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { pageOf, type PageParams } from '../../platform/paging'
import type { NamespaceService } from './namespaces'
import { identifiers } from './schema'

type IdentifierRow = typeof identifiers.$inferSelect
/** Entity types whose identifiers only the service mints (at provisioning and ecosystem creation). */
const SYSTEM_TYPES = new Set(['namespace', 'organization', 'ecosystem'])
const view = (r: IdentifierRow) => ({ rdid: r.rdid, entityType: r.entityType, entityId: r.entityId, createdBy: r.createdBy })

/** rdid → entity mappings: public to resolve, minted only under a namespace the caller controls. */
export class IdentifierService {
  constructor(
    private readonly deps: Deps,
    private readonly namespaces: NamespaceService,
  ) {}

  async resolve(rdid: string) {
    const [row] = await this.deps.db.select().from(identifiers).where(eq(identifiers.rdid, rdid.toLowerCase()))
    if (!row) throw new AppError(404, 'not_found', `No identifier ${rdid}`)
    return view(row)
  }

  async mint(userId: string, input: { rdid: string; entityType: string; entityId: string }) {
    if (SYSTEM_TYPES.has(input.entityType)) {
      // Otherwise anyone could publish a second rdid that "resolves" to someone else's tenant.
      throw new AppError(403, 'forbidden', `Identifiers of type ${input.entityType} are registered by the service itself`)
    }
    if (!(await this.namespaces.canMint(userId, input.rdid))) {
      throw new AppError(403, 'forbidden', 'The rdid must lie under a namespace you own or administer')
    }
    try {
      const [row] = await this.deps.db.insert(identifiers).values({ ...input, createdBy: userId }).returning()
      return view(row!)
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(409, 'rdid_taken', 'This rdid is already registered')
      throw err
    }
  }

  async list(entityId: string, page: PageParams) {
    const where = eq(identifiers.entityId, entityId)
    const [rows, [count]] = await Promise.all([
      this.deps.db.select().from(identifiers).where(where).orderBy(asc(identifiers.rdid)).limit(page.pageSize).offset(page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(identifiers).where(where),
    ])
    return pageOf(rows.map(view), count!.n, page)
  }
}
