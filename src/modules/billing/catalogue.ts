import type { Static } from '@sinclair/typebox'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Db, isUniqueViolation } from '../../platform/db'
import { AppError } from '../../platform/errors'
import { listPage, pageOf, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import type { Entitlements } from './entitlements'
import { featureDef, isBuiltIn } from './features'
import { billingError } from './errors'
import type { BillingFeatureCreate, BillingFeaturePatch, BillingPlanCreate, BillingPlanPatch } from './model'
import { assignments, features, type PlanPrice, plans, settings, subscriptions } from './schema'

type PlanRow = typeof plans.$inferSelect

export const planNotFound = (key: string) => billingError(404, 'plan_not_found', `No plan ${key}`)
export const featureNotFound = (key: string) => billingError(404, 'feature_not_found', `No feature ${key}`)
const negativeNotMetered = () =>
  new AppError(400, 'validation_failed', 'allowNegative: only a metered feature takes negative usage (a limit feature always may give back, down to 0)')
const meterNotMetered = () => new AppError(400, 'validation_failed', 'stripeMeter: only a metered feature is charged through a Stripe meter')
const builtIn = (key: string) => billingError(409, 'builtin_feature', `${key} is built in: Ecobase meters it itself`)

const planView = (p: PlanRow) => ({
  key: p.key,
  name: p.name,
  description: p.description,
  isDefault: p.isDefault,
  public: p.public,
  trialDays: p.trialDays,
  prices: p.prices,
  entitlements: p.entitlements,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
})

/** A plan of the ecosystem by key, in `db`; 404 `plan_not_found` otherwise. */
export async function planOf(db: Db, ecosystemId: string, key: string): Promise<PlanRow> {
  const [row] = await db
    .select()
    .from(plans)
    .where(and(eq(plans.ecosystemId, ecosystemId), eq(plans.key, key)))
  if (!row) throw planNotFound(key)
  return row
}

/** The features plans can grant: the built-in ones (read-only) and the ecosystem's own. Every change clears cached standings. */
export class Features {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly entitlements: Entitlements,
  ) {}

  async list(tenant: Tenant, page: PageParams) {
    const all = await this.entitlements.features(this.deps.db, tenant.ecosystemId)
    return pageOf(all.slice(page.offset, page.offset + page.pageSize), all.length, page)
  }

  async get(tenant: Tenant, key: string) {
    const found = (await this.entitlements.features(this.deps.db, tenant.ecosystemId)).find((f) => f.key === key)
    if (!found) throw featureNotFound(key)
    return found
  }

  async create(tenant: Tenant, input: Static<typeof BillingFeatureCreate>) {
    if (isBuiltIn(input.key)) throw builtIn(input.key)
    if (input.allowNegative && input.type !== 'metered') throw negativeNotMetered()
    if (input.stripeMeter && input.type !== 'metered') throw meterNotMetered()
    const reset = input.reset ?? (input.type === 'metered' ? 'month' : 'never')
    try {
      const [row] = await this.deps.db
        .insert(features)
        .values({
          ecosystemId: tenant.ecosystemId,
          key: input.key,
          name: input.name,
          type: input.type,
          unit: input.unit ?? '',
          reset,
          allowNegative: input.allowNegative ?? false,
          stripeMeter: input.stripeMeter ?? null,
        })
        .returning()
      return featureDef(row!)
    } catch (err) {
      if (isUniqueViolation(err)) throw new AppError(409, 'conflict', `A feature ${input.key} exists`)
      throw err
    }
  }

  async update(tenant: Tenant, key: string, patch: Static<typeof BillingFeaturePatch>) {
    if (isBuiltIn(key)) throw builtIn(key)
    return this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .update(features)
        .set({ ...patch, updatedAt: this.deps.now() })
        .where(and(eq(features.ecosystemId, tenant.ecosystemId), eq(features.key, key)))
        .returning()
      if (!row) throw featureNotFound(key)
      if (row.allowNegative && row.type !== 'metered') throw negativeNotMetered()
      if (row.stripeMeter && row.type !== 'metered') throw meterNotMetered()
      await this.entitlements.changed(tx, tenant.ecosystemId)
      return featureDef(row)
    })
  }

  async remove(tenant: Tenant, key: string): Promise<void> {
    if (isBuiltIn(key)) throw builtIn(key)
    await this.deps.db.transaction(async (tx) => {
      const [user] = await tx
        .select({ key: plans.key })
        .from(plans)
        .where(and(eq(plans.ecosystemId, tenant.ecosystemId), sql`${plans.entitlements} @> ${JSON.stringify([{ feature: key }])}::jsonb`))
        .limit(1)
      if (user) throw billingError(409, 'in_use', `Plan ${user.key} grants ${key}: take it out of the plan first`)
      const [row] = await tx
        .delete(features)
        .where(and(eq(features.ecosystemId, tenant.ecosystemId), eq(features.key, key)))
        .returning({ key: features.key })
      if (!row) throw featureNotFound(key)
      await this.entitlements.changed(tx, tenant.ecosystemId)
    })
  }
}

/** The plans an ecosystem sells. Every change clears cached standings, so entitlements follow at once. */
export class Plans {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly entitlements: Entitlements,
  ) {}

  list(tenant: Tenant, page: PageParams) {
    return listPage(this.deps.db, plans, eq(plans.ecosystemId, tenant.ecosystemId), [asc(plans.key)], page, planView)
  }

  async get(tenant: Tenant, key: string) {
    return planView(await planOf(this.deps.db, tenant.ecosystemId, key))
  }

  async create(tenant: Tenant, input: Static<typeof BillingPlanCreate>) {
    return this.deps.db.transaction(async (tx) => {
      await this.checkEntitlements(tx, tenant.ecosystemId, input.entitlements ?? [])
      await this.checkCurrency(tx, tenant.ecosystemId, input.prices ?? [])
      if (input.isDefault) await this.clearDefault(tx, tenant.ecosystemId)
      try {
        const [row] = await tx
          .insert(plans)
          .values({
            ecosystemId: tenant.ecosystemId,
            key: input.key,
            name: input.name,
            description: input.description ?? '',
            isDefault: input.isDefault ?? false,
            public: input.public ?? false,
            trialDays: input.trialDays ?? 0,
            prices: input.prices ?? [],
            entitlements: input.entitlements ?? [],
          })
          .returning()
        await this.entitlements.changed(tx, tenant.ecosystemId)
        return planView(row!)
      } catch (err) {
        if (isUniqueViolation(err)) throw new AppError(409, 'conflict', `A plan ${input.key} exists`)
        throw err
      }
    })
  }

  async update(tenant: Tenant, key: string, patch: Static<typeof BillingPlanPatch>) {
    return this.deps.db.transaction(async (tx) => {
      await planOf(tx, tenant.ecosystemId, key)
      if (patch.entitlements) await this.checkEntitlements(tx, tenant.ecosystemId, patch.entitlements)
      if (patch.prices) await this.checkCurrency(tx, tenant.ecosystemId, patch.prices)
      if (patch.isDefault) await this.clearDefault(tx, tenant.ecosystemId)
      const [row] = await tx
        .update(plans)
        .set({ ...patch, updatedAt: this.deps.now() })
        .where(and(eq(plans.ecosystemId, tenant.ecosystemId), eq(plans.key, key)))
        .returning()
      await this.entitlements.changed(tx, tenant.ecosystemId)
      return planView(row!)
    })
  }

  async remove(tenant: Tenant, key: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const plan = await planOf(tx, tenant.ecosystemId, key)
      // Every customer without an assignment or a granting subscription is on it.
      if (plan.isDefault) throw billingError(409, 'default_plan', `${key} is the default plan: make another plan the default first`)
      const [assigned] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(assignments)
        .where(and(eq(assignments.ecosystemId, tenant.ecosystemId), eq(assignments.plan, key)))
      const [subscribed] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(subscriptions)
        .where(
          and(
            eq(subscriptions.ecosystemId, tenant.ecosystemId),
            eq(subscriptions.plan, key),
            sql`${subscriptions.status} not in ('canceled', 'incomplete_expired')`,
          ),
        )
      if (assigned!.n + subscribed!.n > 0) throw billingError(409, 'in_use', `${assigned!.n} assignments and ${subscribed!.n} subscriptions are on plan ${key}`)
      await tx.delete(plans).where(and(eq(plans.ecosystemId, tenant.ecosystemId), eq(plans.key, key)))
      await this.entitlements.changed(tx, tenant.ecosystemId)
    })
  }

  /**
   * The price list: the ecosystem's plans marked `public`, cheapest first (plans without a price
   * first), each with its prices (without Stripe's ids) and what it grants, with the features'
   * names and units to show.
   */
  async catalogue(ecosystemId: string) {
    const [rows, defs, [config]] = await Promise.all([
      this.deps.db
        .select()
        .from(plans)
        .where(and(eq(plans.ecosystemId, ecosystemId), eq(plans.public, true))),
      this.entitlements.features(this.deps.db, ecosystemId),
      this.deps.db.select({ currency: settings.currency }).from(settings).where(eq(settings.ecosystemId, ecosystemId)),
    ])
    const byKey = new Map(defs.map((f) => [f.key, f]))
    const cheapest = (p: PlanRow) => Math.min(Number.MAX_SAFE_INTEGER, ...p.prices.map((x) => (x.interval === 'year' ? x.amount / 12 : x.amount)))
    const listed = rows.map((p) => ({ p, price: p.prices.length ? cheapest(p) : -1 })).sort((a, b) => a.price - b.price || a.p.key.localeCompare(b.p.key))
    return {
      ecosystemId,
      currency: config?.currency ?? 'usd',
      plans: listed.map(({ p }) => ({
        key: p.key,
        name: p.name,
        description: p.description,
        isDefault: p.isDefault,
        trialDays: p.trialDays,
        prices: p.prices.map(({ amount, currency, interval }) => ({ amount, currency, interval })),
        entitlements: p.entitlements.flatMap((e) => {
          const f = byKey.get(e.feature)
          if (!f) return []
          return [
            {
              feature: f.key,
              name: f.name,
              type: f.type,
              unit: f.unit,
              reset: f.reset,
              enabled: e.enabled ?? true,
              limit: f.type === 'boolean' ? null : (e.limit ?? null),
              overage: e.overage ?? ('block' as const),
            },
          ]
        }),
      })),
    }
  }

  private async clearDefault(tx: Db, ecosystemId: string): Promise<void> {
    await tx
      .update(plans)
      .set({ isDefault: false })
      .where(and(eq(plans.ecosystemId, ecosystemId), eq(plans.isDefault, true)))
  }

  /** Every price is in the ecosystem's currency (its billing settings; `usd` until set). */
  private async checkCurrency(db: Db, ecosystemId: string, prices: readonly PlanPrice[]): Promise<void> {
    if (prices.length === 0) return
    const [row] = await db.select({ currency: settings.currency }).from(settings).where(eq(settings.ecosystemId, ecosystemId))
    const currency = row?.currency ?? 'usd'
    prices.forEach((p, i) => {
      if (p.currency !== currency)
        throw new AppError(400, 'validation_failed', `prices.${i}.currency: the ecosystem bills in ${currency} (its billing settings), not ${p.currency}`)
    })
  }

  /** Every entitlement names a feature of the ecosystem, once. */
  private async checkEntitlements(db: Db, ecosystemId: string, list: { feature: string }[]): Promise<void> {
    const defs = new Set((await this.entitlements.features(db, ecosystemId)).map((f) => f.key))
    const seen = new Set<string>()
    list.forEach((e, i) => {
      if (!defs.has(e.feature)) throw billingError(400, 'feature_not_found', `entitlements.${i}.feature: no feature ${e.feature}`)
      if (seen.has(e.feature)) throw new AppError(400, 'validation_failed', `entitlements.${i}.feature: ${e.feature} is listed twice`)
      seen.add(e.feature)
    })
  }
}
