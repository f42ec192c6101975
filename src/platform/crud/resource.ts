import { and, eq, getTableColumns, isNull, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import type { TObject, TSchema } from '@sinclair/typebox'
import { type Db, isUniqueViolation } from '../db'
import type { Audience, ChangeSink, RowChange } from '../changes'
import { AppError } from '../errors'
import { pageOf } from '../paging'
import { isAdmin, type Tenant } from '../tenancy'
import type { ColumnKind, LeadingSort, ListQuery, SortKey } from './query'
import { filterConditions, orderBy } from './sql'

/**
 * Who may use a derived resource: `own` — customers (and team members as their own customer
 * record) on their own rows, ecosystem admins on every row of the ecosystem; `member` — team
 * members only, every row; `admin` — ecosystem admins and owners only; `shared` — everyone in the
 * ecosystem reads every row, authors change their own, admins any; `shared-admin` — everyone
 * reads, only admins write.
 */
export type Access = 'own' | 'member' | 'admin' | 'shared' | 'shared-admin'

/** The columns every derived table has: the server sets the owner fields from the tenancy guard. */
export type OwnedTable = PgTable & {
  id: PgColumn
  ownerId: PgColumn
  customerId: PgColumn
  createdAt: PgColumn
  updatedAt: PgColumn
}

export interface ResourceHooks {
  /** Runs before a list or a read (e.g. to make a default row exist). */
  beforeRead?(tenant: Tenant): Promise<void>
  /**
   * Runs in the writing transaction before a create or update, with the values the client sent (it
   * may add to them). On a create it may name the customer the new row belongs to, when that is not
   * the caller (a document's block is its document's customer's, whoever writes it).
   */
  beforeWrite?(tx: Db, tenant: Tenant, values: Record<string, unknown>, op: 'create' | 'update'): Promise<{ customerId: string } | undefined>
  /** Runs in the deleting transaction before the delete; throws to refuse it. */
  beforeDelete?(tx: Db, tenant: Tenant, id: string): Promise<void>
  /** Runs in the creating transaction after the insert, with the row as stored. */
  afterCreate?(tx: Db, tenant: Tenant, row: Record<string, unknown>): Promise<void>
  /** Runs in the deleting transaction after the row is deleted (or soft-deleted); `changes` announces rows it deletes with it. */
  afterDelete?(tx: Db, tenant: Tenant, id: string, changes: ChangeSink): Promise<void>
}

export interface ResourceSpec<S extends string, R extends string, Row extends TObject, Create extends TObject, Patch extends TObject> {
  schema: S
  resource: R
  table: OwnedTable
  /** The row as responses show it (derived from the table, timestamps as ISO strings). */
  row: Row
  create: Create
  patch: Patch
  access: Access
  /** Filterable columns by API field name; every one is a column the caller can read. */
  filterable: Readonly<Record<string, ColumnKind>>
  sortable: readonly string[]
  defaultSort: readonly SortKey[]
  /** A key that comes first under any sort, unless turned off (see LeadingSort). */
  leadingSort?: LeadingSort
  /** Sort expressions other than the plain column, by field name (e.g. a byte-wise collation). */
  sortExpressions?: Readonly<Record<string, SQL>>
  /** The field whose value narrows the resource's realtime topic (`community/replies:<threadId>`). */
  keyedBy?: string
  /** The table has `deletedAt`: DELETE sets it, reads hide such rows, admins may `includeDeleted=true`. */
  softDelete: boolean
  hooks?: ResourceHooks
  /**
   * Error responses the hooks add to an operation beyond the generic 400/401/403/404, made with
   * the module's `errors(...)` so they list its codes, e.g. `{ delete: errors({ 409: ['category_not_empty'] }) }`.
   */
  errors?: Partial<Record<'create' | 'update' | 'delete', Readonly<Record<number, TSchema>>>>
  /** A body that creates a valid row, given ids of resources listed before it (the cross-tenant suite uses it). */
  example(ids: Readonly<Record<string, string>>): Record<string, unknown>
  /** One line on what the resource is, for the OpenAPI document. */
  description: string
}

const notFound = () => new AppError(404, 'not_found', 'No such row')
const notYours = () => new AppError(403, 'forbidden', 'Only its author or an ecosystem admin may change this')
const adminsOnly = () => new AppError(403, 'forbidden', 'Only ecosystem admins and owners may change these')
/** Who sees a resource's rows in its list, as realtime audiences say it. */
export const AUDIENCE: Record<Access, Audience> = { own: 'own', member: 'member', admin: 'admin', shared: 'shared', 'shared-admin': 'shared' }
/** A resource's realtime topic: the path of its list route. */
export const topicOf = (spec: { schema: string; resource: string }) => `${spec.schema}/${spec.resource}`
const noChanges: ChangeSink = async () => {}

/** The five operations of a derived resource, scoped to the caller's ecosystem (and rows, for `own`). */
export class ResourceService {
  private readonly columns: Record<string, PgColumn>
  private readonly sortables: Record<string, PgColumn | SQL>
  private readonly table: OwnedTable & { deletedAt?: PgColumn }

  private readonly changes: ChangeSink

  /** `deps.changes` announces every write to the realtime outbox (platform/changes). */
  constructor(
    private readonly deps: { db: Db; now: () => Date; changes?: ChangeSink },
    private readonly spec: ResourceSpec<string, string, TObject, TObject, TObject>,
  ) {
    this.changes = deps.changes ?? noChanges
    this.table = spec.table
    this.columns = getTableColumns(spec.table) as Record<string, PgColumn>
    this.sortables = { ...this.columns, ...spec.sortExpressions }
  }

  async list(tenant: Tenant, query: ListQuery) {
    if (query.includeDeleted && !isAdmin(tenant)) throw new AppError(403, 'forbidden', 'includeDeleted is for ecosystem admins')
    await this.spec.hooks?.beforeRead?.(tenant)
    const where = and(this.scope(tenant, query.includeDeleted), ...filterConditions(this.columns, query.filters))
    const [rows, [count]] = await Promise.all([
      this.deps.db
        .select()
        .from(this.spec.table)
        .where(where)
        .orderBy(...orderBy(this.sortables, query.sort, this.table.id))
        .limit(query.page.pageSize)
        .offset(query.page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(this.spec.table).where(where),
    ])
    return pageOf(
      rows.map((r) => this.view(r)),
      count!.n,
      query.page,
    )
  }

  async get(tenant: Tenant, id: string) {
    await this.spec.hooks?.beforeRead?.(tenant)
    const [row] = await this.deps.db
      .select()
      .from(this.spec.table)
      .where(and(this.scope(tenant), eq(this.table.id, id)))
    if (!row) throw notFound()
    return this.view(row)
  }

  async create(tenant: Tenant, body: Record<string, unknown>) {
    if (this.spec.access === 'shared-admin' && !isAdmin(tenant)) throw adminsOnly()
    return this.unique(() =>
      this.deps.db.transaction(async (tx) => {
        const owner = await this.spec.hooks?.beforeWrite?.(tx, tenant, body, 'create')
        const [row] = await tx
          .insert(this.spec.table)
          .values({ ...this.values(body), ownerId: tenant.ecosystemId, customerId: owner?.customerId ?? tenant.customerId } as never)
          .returning()
        await this.spec.hooks?.afterCreate?.(tx, tenant, row!)
        await this.announce(tx, tenant, 'insert', row!)
        return this.view(row!)
      }),
    )
  }

  async update(tenant: Tenant, id: string, patch: Record<string, unknown>) {
    return this.unique(() =>
      this.deps.db.transaction(async (tx) => {
        await this.spec.hooks?.beforeWrite?.(tx, tenant, patch, 'update')
        const [row] = await tx
          .update(this.spec.table)
          .set({ ...this.values(patch), updatedAt: this.deps.now() } as never)
          .where(and(this.writeScope(tenant), eq(this.table.id, id)))
          .returning()
        if (!row) throw await this.missing(tx, tenant, id)
        await this.announce(tx, tenant, 'update', row)
        return this.view(row)
      }),
    )
  }

  /** A unique index the write would break (e.g. a category slug) is 409 `conflict`, not a 500. */
  private async unique<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write()
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(409, 'conflict', 'Another row already has these values')
      throw err
    }
  }

  async remove(tenant: Tenant, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const where = and(this.writeScope(tenant), eq(this.table.id, id))
      await this.spec.hooks?.beforeDelete?.(tx, tenant, id)
      const gone = this.spec.softDelete
        ? await tx
            .update(this.spec.table)
            .set({ deletedAt: this.deps.now() } as never)
            .where(where)
            .returning()
        : await tx.delete(this.spec.table).where(where).returning()
      if (!gone[0]) throw await this.missing(tx, tenant, id)
      await this.spec.hooks?.afterDelete?.(tx, tenant, id, this.changes)
      await this.announce(tx, tenant, 'delete', gone[0])
    })
  }

  /** Tells the realtime outbox, in the writing transaction: a soft-deleted row leaves the list, so it is a delete. */
  private announce(tx: Db, tenant: Tenant, op: RowChange['op'], row: Record<string, unknown>): Promise<void> {
    const key = this.spec.keyedBy ? row[this.spec.keyedBy] : undefined
    const change: RowChange = { op, id: String(row.id), customerId: row.customerId as string, audience: AUDIENCE[this.spec.access] }
    if (typeof key === 'string') change.key = key
    if (op !== 'delete') change.record = this.view(row)
    return this.changes(tx, tenant.ecosystemId, topicOf(this.spec), [change])
  }

  /** Rows the caller may see: the ecosystem's; a customer's own (`own`) unless admin; live unless asked. */
  scope(tenant: Tenant, includeDeleted = false): SQL {
    const conditions = [eq(this.table.ownerId, tenant.ecosystemId)]
    if (this.spec.access === 'own' && !isAdmin(tenant)) conditions.push(eq(this.table.customerId, tenant.customerId))
    if (this.spec.softDelete && !includeDeleted) conditions.push(isNull(this.table.deletedAt!))
    return and(...conditions)!
  }

  /** Rows the caller may change: those it sees, and for shared resources only its own unless admin. */
  private writeScope(tenant: Tenant): SQL {
    if (this.spec.access === 'shared-admin' && !isAdmin(tenant)) throw adminsOnly()
    const own = this.spec.access === 'shared' && !isAdmin(tenant) ? eq(this.table.customerId, tenant.customerId) : undefined
    return and(this.scope(tenant), own)!
  }

  /** Why a write matched nothing: 403 for a row the caller can read but not change, else 404. */
  private async missing(tx: Db, tenant: Tenant, id: string): Promise<AppError> {
    const [seen] = await tx
      .select({ id: this.table.id })
      .from(this.spec.table)
      .where(and(this.scope(tenant), eq(this.table.id, id)))
    return seen ? notYours() : notFound()
  }

  /** Body values as the columns take them: timestamps arrive as ISO strings. */
  private values(body: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {}
    for (const [key, value] of Object.entries(body)) {
      out[key] = typeof value === 'string' && this.columns[key]?.columnType === 'PgTimestamp' ? new Date(value) : value
    }
    return out
  }

  /** The row as the API shows it: the fields of the row schema, timestamps as ISO strings. */
  private view(row: Record<string, unknown>) {
    const out: Record<string, unknown> = {}
    for (const key of Object.keys(this.spec.row.properties)) {
      const value = row[key]
      out[key] = value instanceof Date ? value.toISOString() : value
    }
    return out
  }
}
