import { and, eq, inArray, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Audience, ChangeSink, RowChange } from '../../platform/changes'
import { type ColumnKind, parseListQuery } from '../../platform/crud/query'
import { type Db, isUniqueViolation } from '../../platform/db'
import { lockInTransaction } from '../../platform/db/locks'
import { contractError } from './errors'
import { pageOf, pageOfAll, type PageParams } from '../../platform/paging'
import { isAdmin, type Tenant } from '../../platform/tenancy'
import type { AuditService } from '../audit/service'
import { type ContractAccess, type ContractColumn, DEFAULT_ACCESS, MAX_COLUMNS, MAX_CONTRACTS } from './model'
import { backfillIndexed, indexedFilter, indexedSlots, writeIndexed } from './indexes'
import { checkNames } from './names'
import { contractIndexedValues, contractRows, contracts, contractUniqueValues } from './schema'
import { checkValue, checkValues, ownValue, rowFilters, rowOrder, selectValues } from './values'

type ContractRowRecord = typeof contracts.$inferSelect
type RowRecord = typeof contractRows.$inferSelect
type Scope = ContractAccess['read']

const contractNotFound = (name: string) => contractError(404, 'not_found', `No contract ${name}`)
const rowNotFound = () => contractError(404, 'not_found', 'No such row')
/** Who sees a row of a contract in its list, from what customers may read. */
const AUDIENCE: Record<Scope, Audience> = { own: 'own', all: 'shared', none: 'admin' }
/** A contract table's realtime topic. */
export const CONTRACT_TOPIC = 'contract/'
const SYSTEM_KINDS: Record<string, ColumnKind> = { id: 'uuid', customerId: 'uuid', createdAt: 'timestamp', updatedAt: 'timestamp' }

/**
 * Contract tables: definitions an ecosystem's admins write at runtime, rows stored as JSONB in one
 * shared table. A definition is read in each request's own transaction (no per-replica cache, so
 * a change reaches every replica at once); changes lock the definition and bump its version.
 */
export class ContractService {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'> & { changes: ChangeSink },
    private readonly audit: AuditService,
  ) {}

  /** The ecosystem's contracts by name: at most MAX_CONTRACTS, so read whole and paged here. */
  async list(tenant: Tenant, page: PageParams) {
    const rows = await this.deps.db.select().from(contracts).where(eq(contracts.ecosystemId, tenant.ecosystemId)).orderBy(contracts.name)
    return pageOfAll(rows.map(view), page)
  }

  async get(tenant: Tenant, name: string) {
    return view(await this.load(this.deps.db, tenant, name))
  }

  async define(tenant: Tenant, input: { name: string; columns: ContractColumn[]; access?: Partial<ContractAccess> }) {
    checkNames(input.name, input.columns)
    input.columns.forEach(checkDefault)
    return this.deps.db.transaction(async (tx) => {
      // Serialises definitions per ecosystem so the limit holds under concurrent requests.
      await lockInTransaction(tx, `contracts:${tenant.ecosystemId}`)
      const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(contracts).where(eq(contracts.ecosystemId, tenant.ecosystemId))
      if (count!.n >= MAX_CONTRACTS) throw contractError(409, 'limit_reached', `An ecosystem has at most ${MAX_CONTRACTS} contracts`)
      try {
        const [row] = await tx
          .insert(contracts)
          .values({ ecosystemId: tenant.ecosystemId, name: input.name, columns: input.columns, access: { ...DEFAULT_ACCESS, ...input.access } })
          .returning()
        await this.audit.record(tx, tenant, {
          action: 'contract.contract.created',
          target: { type: 'contract', id: row!.name },
          metadata: { contractId: row!.id, name: row!.name, columns: row!.columns.map((c) => c.name), access: row!.access },
        })
        return view(row!)
      } catch (err) {
        if (isUniqueViolation(err)) throw contractError(409, 'conflict', `A contract named ${input.name} exists`)
        throw err
      }
    })
  }

  async alter(
    tenant: Tenant,
    name: string,
    patch: { addColumns?: ContractColumn[]; dropColumns?: string[]; confirm?: boolean; access?: Partial<ContractAccess> },
  ) {
    return this.deps.db.transaction(async (tx) => {
      const current = await this.load(tx, tenant, name, 'update')
      const drop = new Set(patch.dropColumns ?? [])
      for (const column of drop)
        if (!current.columns.some((c) => c.name === column)) throw contractError(400, 'validation_failed', `dropColumns: ${column} is not a column`)
      const pending = new Set([...current.droppedColumns, ...drop])
      const added = patch.addColumns ?? []
      for (const column of added) {
        if (pending.has(column.name) && !patch.confirm) {
          throw contractError(409, 'conflict', `addColumns: ${column.name} was dropped and rows still hold its values; drop it with confirm: true first`)
        }
        checkDefault(column)
      }
      const columns = [...current.columns.filter((c) => !drop.has(c.name)), ...added]
      checkNames(current.name, columns)
      if (columns.length > MAX_COLUMNS) throw contractError(400, 'validation_failed', `columns: at most ${MAX_COLUMNS}`)
      if (patch.confirm && pending.size) {
        const gone = [...pending]
        const keys = sql`array[${sql.join(
          gone.map((g) => sql`${g}::text`),
          sql`, `,
        )}]`
        await tx
          .update(contractRows)
          .set({ data: sql`${contractRows.data} - ${keys}` })
          .where(eq(contractRows.contractId, current.id))
        await tx.delete(contractUniqueValues).where(and(eq(contractUniqueValues.contractId, current.id), inArray(contractUniqueValues.column, gone)))
      }
      const droppedColumns = patch.confirm ? [] : [...pending]
      if (drop.size)
        await tx.delete(contractIndexedValues).where(and(eq(contractIndexedValues.contractId, current.id), inArray(contractIndexedValues.column, [...drop])))
      if (added.length) await this.fillAdded(tx, current.id, added)
      for (const column of added) await backfillIndexed(tx, current.id, column)
      const [row] = await tx
        .update(contracts)
        .set({ columns, droppedColumns, access: { ...current.access, ...patch.access }, version: sql`${contracts.version} + 1`, updatedAt: this.deps.now() })
        .where(eq(contracts.id, current.id))
        .returning()
      await this.audit.record(tx, tenant, {
        action: 'contract.contract.altered',
        target: { type: 'contract', id: current.name },
        metadata: {
          contractId: current.id,
          name: current.name,
          addedColumns: added.map((c) => c.name),
          droppedColumns: [...drop],
          ...(patch.confirm && pending.size ? { purgedColumns: [...pending] } : {}),
          ...(patch.access ? { access: row!.access } : {}),
          version: row!.version,
        },
      })
      return view(row!)
    })
  }

  async remove(tenant: Tenant, name: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(contracts)
        .where(and(eq(contracts.ecosystemId, tenant.ecosystemId), eq(contracts.name, name)))
        .returning({ id: contracts.id })
      if (!deleted) throw contractNotFound(name)
      await this.audit.record(tx, tenant, {
        action: 'contract.contract.deleted',
        target: { type: 'contract', id: name },
        metadata: { contractId: deleted.id, name },
      })
    })
  }

  /** The columns of a contract's rows, by kind: what its list (and a realtime subscription to it) filters on. */
  async filterable(tenant: Tenant, name: string): Promise<Record<string, ColumnKind>> {
    const contract = await this.load(this.deps.db, tenant, name)
    this.scope(tenant, contract, 'read')
    return kindsOf(contract)
  }

  async listRows(tenant: Tenant, name: string, raw: Record<string, string | string[]>) {
    const contract = await this.load(this.deps.db, tenant, name)
    const scope = this.scope(tenant, contract, 'read')
    const kinds = kindsOf(contract)
    const query = parseListQuery(raw, {
      filterable: kinds,
      sortable: Object.keys(kinds).filter((k) => kinds[k] !== 'json'),
      defaultSort: [{ column: 'createdAt', descending: true }],
      selectable: Object.keys(kinds),
    })
    const slots = indexedSlots(contract.columns)
    const where = and(this.rowScope(tenant, contract, scope), ...rowFilters(query.filters, (f) => indexedFilter(contract.id, slots, f)))
    const [rows, [count]] = await Promise.all([
      this.deps.db
        .select()
        .from(contractRows)
        .where(where)
        .orderBy(...rowOrder(query.sort, kinds))
        .limit(query.page.pageSize)
        .offset(query.page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(contractRows).where(where),
    ])
    const page = pageOf(
      rows.map((r) => selectValues(rowView(contract, r), query.select)),
      count!.n,
      query.page,
    )
    return { rows: page.items, total: page.total, page: page.page, pageSize: page.pageSize }
  }

  async getRow(tenant: Tenant, name: string, id: string) {
    const contract = await this.load(this.deps.db, tenant, name)
    const [row] = await this.deps.db
      .select()
      .from(contractRows)
      .where(and(this.rowScope(tenant, contract, this.scope(tenant, contract, 'read')), eq(contractRows.id, id)))
    if (!row) throw rowNotFound()
    return rowView(contract, row)
  }

  async createRow(tenant: Tenant, name: string, input: Record<string, unknown>) {
    return this.deps.db.transaction(async (tx) => {
      const contract = await this.load(tx, tenant, name, 'share')
      if (!isAdmin(tenant) && !contract.access.create) throw contractError(403, 'forbidden', `Customers may not create rows of ${name}`)
      const data = checkValues(contract.columns, input, 'create')
      const [row] = await tx
        .insert(contractRows)
        .values({ ecosystemId: tenant.ecosystemId, contractId: contract.id, customerId: isAdmin(tenant) ? null : tenant.customerId, data })
        .returning()
      await this.claimUnique(tx, contract, row!.id, data)
      await writeIndexed(tx, contract.id, row!.id, indexedSlots(contract.columns), data, Object.keys(data))
      await this.announce(tx, contract, 'insert', row!)
      return rowView(contract, row!)
    })
  }

  async updateRow(tenant: Tenant, name: string, id: string, input: Record<string, unknown>) {
    return this.deps.db.transaction(async (tx) => {
      const contract = await this.load(tx, tenant, name, 'share')
      const changes = checkValues(contract.columns, input, 'patch')
      const [row] = await tx
        .update(contractRows)
        .set({ data: sql`${contractRows.data} || ${JSON.stringify(changes)}::jsonb`, updatedAt: this.deps.now() })
        .where(and(this.rowScope(tenant, contract, this.scope(tenant, contract, 'update')), eq(contractRows.id, id)))
        .returning()
      if (!row) throw rowNotFound()
      const uniqueChanged = contract.columns.filter((c) => c.unique && Object.hasOwn(changes, c.name))
      if (uniqueChanged.length) {
        await tx.delete(contractUniqueValues).where(
          and(
            eq(contractUniqueValues.rowId, id),
            inArray(
              contractUniqueValues.column,
              uniqueChanged.map((c) => c.name),
            ),
          ),
        )
        await this.claimUnique(tx, { ...contract, columns: uniqueChanged }, id, row.data)
      }
      await writeIndexed(tx, contract.id, id, indexedSlots(contract.columns), row.data, Object.keys(changes))
      await this.announce(tx, contract, 'update', row)
      return rowView(contract, row)
    })
  }

  async removeRow(tenant: Tenant, name: string, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const contract = await this.load(tx, tenant, name, 'share')
      const deleted = await tx
        .delete(contractRows)
        .where(and(this.rowScope(tenant, contract, this.scope(tenant, contract, 'delete')), eq(contractRows.id, id)))
        .returning({ id: contractRows.id, customerId: contractRows.customerId })
      if (!deleted[0]) throw rowNotFound()
      await this.announce(tx, contract, 'delete', { id, customerId: deleted[0].customerId })
      // Customers deleting their rows is their business; an admin deleting content is recorded.
      if (isAdmin(tenant)) {
        await this.audit.record(tx, tenant, {
          action: 'contract.row.deleted',
          target: { type: 'contract_row', id },
          metadata: { contract: contract.name, customerId: deleted[0].customerId },
        })
      }
    })
  }

  /** Whether the caller may list the rows of `name` (the contract's realtime topic asks once per subscription); throws the list's 404/403. */
  async readable(tenant: Tenant, name: string): Promise<void> {
    this.scope(tenant, await this.load(this.deps.db, tenant, name), 'read')
  }

  /** Tells the realtime outbox in the writing transaction, with who may read the row now. */
  private announce(tx: Db, contract: ContractRowRecord, op: RowChange['op'], row: Pick<RowRecord, 'id' | 'customerId'> & Partial<RowRecord>): Promise<void> {
    const change: RowChange = { op, id: row.id, customerId: row.customerId, audience: AUDIENCE[contract.access.read] }
    if (op !== 'delete') change.record = rowView(contract, row as RowRecord)
    return this.deps.changes(tx, contract.ecosystemId, CONTRACT_TOPIC + contract.name, [change])
  }

  /** The definition, in the caller's transaction: `update` for changes to it, `share` while rows are written against it. */
  private async load(db: Db, tenant: Tenant, name: string, lock?: 'update' | 'share'): Promise<ContractRowRecord> {
    const query = db
      .select()
      .from(contracts)
      .where(and(eq(contracts.ecosystemId, tenant.ecosystemId), eq(contracts.name, name)))
    const [row] = lock ? await query.for(lock) : await query
    if (!row) throw contractNotFound(name)
    return row
  }

  /** What the caller may do to rows: admins everything, customers what the contract allows (403 for none). */
  private scope(tenant: Tenant, contract: ContractRowRecord, action: 'read' | 'update' | 'delete'): Scope {
    if (isAdmin(tenant)) return 'all'
    const scope = contract.access[action]
    if (scope === 'none') throw contractError(403, 'forbidden', `Customers may not ${action} rows of ${contract.name}`)
    return scope
  }

  private rowScope(tenant: Tenant, contract: ContractRowRecord, scope: Scope) {
    const conditions = [eq(contractRows.contractId, contract.id), eq(contractRows.ecosystemId, tenant.ecosystemId)]
    if (scope === 'own') conditions.push(eq(contractRows.customerId, tenant.customerId))
    return and(...conditions)
  }

  /** Records the values of unique columns; a taken one is 409 naming the column (also under concurrent writes). */
  private async claimUnique(tx: Db, contract: Pick<ContractRowRecord, 'id' | 'columns'>, rowId: string, data: Record<string, unknown>) {
    for (const column of contract.columns) {
      const value = ownValue(data, column.name)
      if (!column.unique || value === null || value === undefined) continue
      try {
        await tx.insert(contractUniqueValues).values({ contractId: contract.id, column: column.name, value: JSON.stringify(value), rowId })
      } catch (err) {
        if (isUniqueViolation(err)) throw contractError(409, 'conflict', `${column.name}: another row holds this value`)
        throw err
      }
    }
  }

  /** Existing rows get an added column's default (or null); a non-null column needs a default when rows exist. */
  private async fillAdded(tx: Db, contractId: string, added: ContractColumn[]) {
    const [rows] = await tx.select({ n: sql<number>`count(*)::int` }).from(contractRows).where(eq(contractRows.contractId, contractId))
    if (!rows!.n) return
    const values: Record<string, unknown> = {}
    for (const column of added) {
      if (column.nullable === false && column.default === undefined) {
        throw contractError(400, 'validation_failed', `addColumns.${column.name}: a non-null column needs a default while the contract has rows`)
      }
      if (column.unique && column.default !== undefined && column.default !== null) {
        throw contractError(400, 'validation_failed', `addColumns.${column.name}: a unique column cannot give existing rows one default`)
      }
      values[column.name] = column.default ?? null
    }
    await tx
      .update(contractRows)
      .set({ data: sql`${contractRows.data} || ${JSON.stringify(values)}::jsonb` })
      .where(eq(contractRows.contractId, contractId))
  }
}

function checkDefault(column: ContractColumn) {
  if (column.default !== undefined) checkValue(column, column.default, `columns.${column.name}.default`)
}

function view(row: ContractRowRecord) {
  return {
    name: row.name,
    columns: row.columns,
    droppedColumns: row.droppedColumns,
    access: row.access,
    version: row.version,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  }
}

/** A row as the API shows it: the values of the contract's columns (never a dropped one's), then the system fields. */
function rowView(contract: ContractRowRecord, row: RowRecord) {
  const out: Record<string, unknown> = {}
  for (const column of contract.columns) out[column.name] = ownValue(row.data, column.name) ?? null
  return { ...out, id: row.id, customerId: row.customerId, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString() }
}

function kindsOf(contract: { columns: { name: string; type: ColumnKind }[] }): Record<string, ColumnKind> {
  const kinds: Record<string, ColumnKind> = { ...SYSTEM_KINDS }
  for (const c of contract.columns) kinds[c.name] = c.type
  return kinds
}
