import { CHAT_MESSAGES, STORAGE_BYTES } from '../../platform/entitlements'
import type { features, PlanEntitlement, subscriptions } from './schema'

/** Billing's features, what a plan grants of them, and which plan is in force: decided in memory, no I/O. */

export type FeatureType = 'boolean' | 'limit' | 'metered'
export type Reset = 'month' | 'never'
export type Source = 'default' | 'manual' | 'stripe'

export interface FeatureDef {
  key: string
  name: string
  type: FeatureType
  unit: string
  reset: Reset
  builtIn: boolean
  /** Negative usage accepted (metered features that declare it); a counter never goes below 0 either way. */
  allowNegative: boolean
  /** The Stripe meter (event name) a metered feature's accepted usage is sent to. */
  stripeMeter: string | null
}

/** The features Ecobase meters itself. */
export const BUILT_IN: readonly FeatureDef[] = [
  { key: STORAGE_BYTES, name: 'Storage', type: 'limit', unit: 'bytes', reset: 'never', builtIn: true, allowNegative: false, stripeMeter: null },
  { key: CHAT_MESSAGES, name: 'Chat messages', type: 'metered', unit: 'messages', reset: 'month', builtIn: true, allowNegative: false, stripeMeter: null },
]
export const isBuiltIn = (key: string) => BUILT_IN.some((f) => f.key === key)
/** An ecosystem's own feature, as plans and the API see it. */
export const featureDef = (r: typeof features.$inferSelect): FeatureDef => ({
  key: r.key,
  name: r.name,
  type: r.type,
  unit: r.unit,
  reset: r.reset,
  builtIn: false,
  allowNegative: r.allowNegative,
  stripeMeter: r.stripeMeter,
})

/** What a plan grants of one feature. */
export interface Grant {
  feature: FeatureDef
  enabled: boolean
  /** null: no limit. */
  limit: number | null
  overage: 'block' | 'allow'
}

export type SubscriptionRow = typeof subscriptions.$inferSelect

/** What decides a customer's entitlements right now, and what they are. */
export interface Standing {
  plan: string | null
  source: Source
  subscription: SubscriptionRow | null
  grants: Map<string, Grant>
}

/** Subscription states that grant their plan (past_due too, for BILLING_GRACE_DAYS after the period ended). */
const GRANTING = new Set(['trialing', 'active'])

/**
 * The one place entitlements are decided: a manual assignment wins; else a subscription that is
 * trialing or active (or past_due within the grace period after its period ended) grants its plan;
 * else the default plan (or none). Never from the order events arrived in: from the mirror as it is.
 */
export function planInForce(input: {
  assignment: string | null
  subscription: SubscriptionRow | null
  defaultPlan: string | null
  now: Date
  graceDays: number
}): { plan: string | null; source: Source } {
  if (input.assignment) return { plan: input.assignment, source: 'manual' }
  const s = input.subscription
  if (s?.plan && grants(s, input.now, input.graceDays)) return { plan: s.plan, source: 'stripe' }
  return { plan: input.defaultPlan, source: 'default' }
}

function grants(s: SubscriptionRow, now: Date, graceDays: number): boolean {
  if (GRANTING.has(s.status)) return true
  if (s.status !== 'past_due') return false
  const end = s.currentPeriodEnd ?? s.updatedAt
  return now.getTime() < end.getTime() + graceDays * 86_400_000
}

/**
 * What a plan grants of each feature. A feature the plan names: as it says (enabled unless
 * `enabled: false`; `limit` null or absent = none). A feature it does not name: built-in ones
 * have no limit (billing set up or not, only quotas apply), others are not granted.
 */
export function grantsOf(defs: readonly FeatureDef[], entitlements: readonly PlanEntitlement[] | null): Map<string, Grant> {
  const named = new Map((entitlements ?? []).map((e) => [e.feature, e]))
  const out = new Map<string, Grant>()
  for (const feature of defs) {
    const e = named.get(feature.key)
    if (e)
      out.set(feature.key, { feature, enabled: e.enabled ?? true, limit: feature.type === 'boolean' ? null : (e.limit ?? null), overage: e.overage ?? 'block' })
    else out.set(feature.key, { feature, enabled: feature.builtIn, limit: feature.builtIn || feature.type === 'boolean' ? null : 0, overage: 'block' })
  }
  return out
}

/** The counter a use lands in: the month (UTC) for monthly features, `all` otherwise. */
export const periodOf = (reset: Reset, at: Date) => (reset === 'month' ? at.toISOString().slice(0, 7) : 'all')
export const resetsAt = (reset: Reset, now: Date) =>
  reset === 'month' ? new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString() : null
