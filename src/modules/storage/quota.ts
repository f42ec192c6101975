import { and, desc, eq, type SQL, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Db, queryRows } from '../../platform/db'
import { pageOf, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import type { AuditService } from '../audit/service'
import { storageErrors } from './errors'
import { attachments, storageQuotas, storageUsage } from './schema'

/** What quotas need from the customer area: that a customer id belongs to the tenant's ecosystem (404 otherwise). */
export interface CustomerLookup {
  get(tenant: Tenant, customerId: string): Promise<unknown>
  /** The customer, unless it is a record the service keeps for itself (a team member's own: 403). */
  actable(tenant: Tenant, customerId: string, what: string): Promise<unknown>
}

interface Scope {
  ecosystemId: string
  customerId: string
}

const usageOf = (s: Scope) => and(eq(storageUsage.ecosystemId, s.ecosystemId), eq(storageUsage.customerId, s.customerId))
const overrideOf = (s: Scope) => and(eq(storageQuotas.ecosystemId, s.ecosystemId), eq(storageQuotas.customerId, s.customerId))

/** What other areas read of storage's counters (billing's `storage.bytes` gate, the overview), in the caller's `db`. */
export const storageReadings = {
  /** Bytes of the customer's ready files: the counter. */
  async usedBytes(db: Db, scope: Scope): Promise<number> {
    const [row] = await db.select({ used: storageUsage.usedBytes }).from(storageUsage).where(usageOf(scope))
    return row?.used ?? 0
  },

  /** The counter, and the bytes reserved by the customer's uploads presigned since `pendingSince` and not yet completed or deleted. */
  async bytesTaken(db: Db, scope: Scope, pendingSince: Date): Promise<number> {
    const [row] = await queryRows<{ taken: number | string }>(
      db,
      sql`select coalesce((select used_bytes from ${storageUsage} where ecosystem_id = ${scope.ecosystemId} and customer_id = ${scope.customerId}), 0)
            + coalesce((select sum(size_bytes) from ${attachments}
                         where ecosystem_id = ${scope.ecosystemId} and customer_id = ${scope.customerId} and status = 'pending' and deleted_at is null and created_at > ${pendingSince.toISOString()}::timestamptz), 0) as taken`,
    )
    return Number(row!.taken)
  },

  /**
   * Over the records `customerIds` selects (SQL with an `id` column): their bytes used, their quotas
   * summed (`defaultQuotaBytes` where none is set), and how many are at 90 % or more of theirs.
   */
  async totals(db: Db, ecosystemId: string, customerIds: SQL, defaultQuotaBytes: number) {
    const quota = sql`coalesce(q.quota_bytes, ${defaultQuotaBytes})`
    const [row] = await queryRows<{ used: number | string; quota: number | string; near: number | string }>(
      db,
      sql`select coalesce(sum(u.used_bytes), 0) as used, coalesce(sum(${quota}), 0) as quota,
                 count(*) filter (where coalesce(u.used_bytes, 0) >= 0.9 * ${quota}) as near
          from (${customerIds}) c
          left join ${storageUsage} u on u.ecosystem_id = ${ecosystemId} and u.customer_id = c.id
          left join ${storageQuotas} q on q.ecosystem_id = ${ecosystemId} and q.customer_id = c.id`,
    )
    return { usedBytes: Number(row!.used), quotaBytes: Number(row!.quota), customersNearQuota: Number(row!.near) }
  },
}

/**
 * Quotas and the usage counter. Usage is a maintained counter row per (ecosystem, customer):
 * reading it costs the same at 10 attachments or 100k (bench/storage-usage.ts). Every change to
 * it happens in the transaction of the attachment transition that causes it, after `lock`.
 */
export class StorageQuotas {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now'>,
    private readonly customers: CustomerLookup,
    private readonly audit: AuditService,
  ) {}

  /** The caller's quota, usage and what is left. */
  async usage(tenant: Scope) {
    const [used, quota] = await Promise.all([this.used(this.deps.db, tenant), this.quotaOf(this.deps.db, tenant)])
    return { quotaBytes: quota, usageBytes: used, availableBytes: Math.max(0, quota - used) }
  }

  used(db: Db, scope: Scope): Promise<number> {
    return storageReadings.usedBytes(db, scope)
  }

  async quotaOf(db: Db, scope: Scope): Promise<number> {
    const [row] = await db.select({ quota: storageQuotas.quotaBytes }).from(storageQuotas).where(overrideOf(scope))
    return row?.quota ?? this.deps.config.storage.defaultQuotaBytes
  }

  /**
   * Locks the customer's counter row until `tx` ends (creating it at 0 first) and returns the
   * bytes used. Every transition that changes usage takes this lock first, so checks made under
   * it see every committed change and no concurrent one.
   */
  async lock(tx: Db, scope: Scope): Promise<number> {
    await tx.insert(storageUsage).values(scope).onConflictDoNothing()
    const [row] = await tx.select({ used: storageUsage.usedBytes }).from(storageUsage).where(usageOf(scope)).for('update')
    return row!.used
  }

  /** Changes usage by `delta` bytes; only under `lock` in the same transaction. */
  async add(tx: Db, scope: Scope, delta: number): Promise<void> {
    await tx
      .update(storageUsage)
      .set({ usedBytes: sql`${storageUsage.usedBytes} + ${delta}`, updatedAt: this.deps.now() })
      .where(usageOf(scope))
  }

  // --- admin: usage and overrides per customer of the ecosystem ---

  /** A customer's quota, usage and what is left (404 when the customer is not in the ecosystem). */
  async usageOf(tenant: Tenant, customerId: string) {
    await this.customers.get(tenant, customerId)
    return this.usage({ ecosystemId: tenant.ecosystemId, customerId })
  }

  async list(tenant: Tenant, page: PageParams) {
    const where = eq(storageQuotas.ecosystemId, tenant.ecosystemId)
    const [rows, [count]] = await Promise.all([
      this.deps.db
        .select()
        .from(storageQuotas)
        .where(where)
        .orderBy(desc(storageQuotas.updatedAt), desc(storageQuotas.customerId))
        .limit(page.pageSize)
        .offset(page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(storageQuotas).where(where),
    ])
    return pageOf(rows.map(quotaRowView), count!.n, page)
  }

  async set(tenant: Tenant, customerId: string, quotaBytes: number) {
    await this.customers.get(tenant, customerId)
    const values = { ecosystemId: tenant.ecosystemId, customerId, quotaBytes, updatedAt: this.deps.now() }
    const row = await this.deps.db.transaction(async (tx) => {
      const [before] = await tx.select({ quotaBytes: storageQuotas.quotaBytes }).from(storageQuotas).where(overrideOf(values)).for('update')
      const [row] = await tx
        .insert(storageQuotas)
        .values(values)
        .onConflictDoUpdate({ target: [storageQuotas.ecosystemId, storageQuotas.customerId], set: { quotaBytes, updatedAt: values.updatedAt } })
        .returning()
      await this.audit.record(tx, tenant, {
        action: 'storage.quota.set',
        target: { type: 'customer', id: customerId },
        metadata: { quotaBytes, previousQuotaBytes: before?.quotaBytes ?? null },
      })
      return row!
    })
    return quotaRowView(row)
  }

  async remove(tenant: Tenant, customerId: string): Promise<void> {
    await this.customers.get(tenant, customerId)
    await this.deps.db.transaction(async (tx) => {
      const [deleted] = await tx
        .delete(storageQuotas)
        .where(overrideOf({ ecosystemId: tenant.ecosystemId, customerId }))
        .returning({ quotaBytes: storageQuotas.quotaBytes })
      if (!deleted) throw storageErrors.noQuotaOverride()
      await this.audit.record(tx, tenant, {
        action: 'storage.quota.removed',
        target: { type: 'customer', id: customerId },
        metadata: { previousQuotaBytes: deleted.quotaBytes },
      })
    })
  }
}

function quotaRowView(row: typeof storageQuotas.$inferSelect) {
  return { userId: row.customerId, ownerId: row.ecosystemId, quotaBytes: row.quotaBytes, updatedAt: row.updatedAt.toISOString() }
}
