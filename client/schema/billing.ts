// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface BillingSettings {
  provider: "manual" | "stripe"
  /** ISO 4217, lower case (`usd`, `eur`) */
  currency: string
  /** Which Stripe keys are stored (their values are never shown) */
  configKeys: string[]
}

export interface BillingSettingsUpdate {
  provider: "manual" | "stripe"
  /** ISO 4217, lower case (`usd`, `eur`) */
  currency?: string
  /** Write-only; kept when omitted */
  stripeSecretKey?: string
  /** Write-only; kept when omitted */
  stripeWebhookSecret?: string
}

export interface BillingCatalogue {
  ecosystemId: string
  /** ISO 4217, lower case (`usd`, `eur`) */
  currency: string
  plans: {
    key: string
    name: string
    description: string
    /** Customers with no subscription are on it */
    isDefault: boolean
    /** Checkout starts a trial this long (once per customer) */
    trialDays: number
    prices: {
      /** Minor units (cents) */
      amount: number
      currency: string
      interval: "month" | "year"
    }[]
    entitlements: {
      feature: string
      /** The feature’s name, to show */
      name: string
      type: "boolean" | "limit" | "metered"
      unit: string
      reset: "month" | "never"
      enabled: boolean
      /** null: no limit */
      limit: number | null
      overage: "block" | "allow"
    }[]
  }[]
}

export interface BillingFeature {
  /** Lower case, dot-separated: `projects`, `api.calls` */
  key: string
  name: string
  type: "boolean" | "limit" | "metered"
  /** `bytes`, `messages`, `seats` */
  unit: string
  reset: "month" | "never"
  /** Metered by Ecobase itself (storage.bytes, chat.messages): read-only */
  builtIn: boolean
  /** Metered features only (default false): negative usage values give use back (credits refunded); otherwise a negative value is 400. A `limit` feature always takes negative values (a seat freed). No counter goes below 0. */
  allowNegative: boolean
  /** The Stripe meter’s event name */
  stripeMeter: string | null
}

export interface BillingFeaturePage {
  items: BillingFeature[]
  total: number
  page: number
  pageSize: number
}

export interface BillingFeatureCreate {
  /** Lower case, dot-separated: `projects`, `api.calls` */
  key: string
  name: string
  type: "boolean" | "limit" | "metered"
  unit?: string
  reset?: "month" | "never"
  /** Metered features only (default false): negative usage values give use back (credits refunded); otherwise a negative value is 400. A `limit` feature always takes negative values (a seat freed). No counter goes below 0. */
  allowNegative?: boolean
  /** The Stripe meter’s event name */
  stripeMeter?: string | null
}

export interface BillingFeaturePatch {
  name?: string
  unit?: string
  reset?: "month" | "never"
  /** Metered features only (default false): negative usage values give use back (credits refunded); otherwise a negative value is 400. A `limit` feature always takes negative values (a seat freed). No counter goes below 0. */
  allowNegative?: boolean
  /** The Stripe meter’s event name */
  stripeMeter?: string | null
}

export interface BillingPrice {
  /** Minor units (cents) */
  amount: number
  /** ISO 4217, lower case (`usd`, `eur`) */
  currency: string
  interval: "month" | "year"
  /** The Stripe price Checkout sells this as */
  stripePriceId?: string
}

export interface BillingPlanEntitlement {
  /** Lower case, dot-separated: `projects`, `api.calls` */
  feature: string
  /** Default true */
  enabled?: boolean
  /** For limit and metered features; null or absent = no limit */
  limit?: number | null
  overage?: "block" | "allow"
}

export interface BillingPlan {
  /** `free`, `pro`, `team-2026` */
  key: string
  name: string
  description: string
  /** Applies to every customer without a subscription or assignment; one plan at most (setting it moves it) */
  isDefault: boolean
  /** Listed in the price list anyone may read (GET /billing/catalogue); default false */
  public: boolean
  /** Checkout starts a trial this long */
  trialDays: number
  prices: BillingPrice[]
  entitlements: BillingPlanEntitlement[]
  createdAt: string
  updatedAt: string
}

export interface BillingPlanPage {
  items: BillingPlan[]
  total: number
  page: number
  pageSize: number
}

export interface BillingPlanCreate {
  /** `free`, `pro`, `team-2026` */
  key: string
  name: string
  description?: string
  /** Applies to every customer without a subscription or assignment; one plan at most (setting it moves it) */
  isDefault?: boolean
  /** Listed in the price list anyone may read (GET /billing/catalogue); default false */
  public?: boolean
  /** Checkout starts a trial this long */
  trialDays?: number
  prices?: BillingPrice[]
  entitlements?: BillingPlanEntitlement[]
}

export interface BillingPlanPatch {
  name?: string
  description?: string
  /** Applies to every customer without a subscription or assignment; one plan at most (setting it moves it) */
  isDefault?: boolean
  /** Listed in the price list anyone may read (GET /billing/catalogue); default false */
  public?: boolean
  /** Checkout starts a trial this long */
  trialDays?: number
  prices?: BillingPrice[]
  entitlements?: BillingPlanEntitlement[]
}

export interface BillingAccount {
  customerId: string
  /** The plan in force; null when none applies (no default plan) */
  plan: string | null
  source: "default" | "manual" | "stripe"
  subscription: {
    id: string
    plan: string | null
    status: "incomplete" | "incomplete_expired" | "trialing" | "active" | "past_due" | "canceled" | "unpaid" | "paused"
    currentPeriodStart: string | null
    currentPeriodEnd: string | null
    cancelAtPeriodEnd: boolean
    trialEnd: string | null
  } | null
  entitlements: {
    feature: string
    type: "boolean" | "limit" | "metered"
    enabled: boolean
    /** null: no limit */
    limit: number | null
    used: number
    remaining: number | null
    /** When a monthly feature’s use starts again from 0 */
    resetsAt: string | null
    /** What was sent to Stripe for usage-based charging (a feature with a `stripeMeter`); null otherwise */
    reported: {
      /** The Stripe meter’s event name */
      meter: string
      /** Use of this period Stripe has accepted as meter events */
      sent: number
      /** Use of this period accepted here and not yet sent (sent within seconds, retried while Stripe fails) */
      pending: number
      /** Use of this period Stripe refused (e.g. older than its 35 days); not retried */
      failed: number
    } | null
  }[]
}

export interface BillingInvoice {
  id: string
  number: string | null
  /** draft, open, paid, uncollectible or void */
  status: string
  /** Minor units */
  total: number
  currency: string
  hostedInvoiceUrl: string | null
  periodStart: string | null
  periodEnd: string | null
  createdAt: string
}

export interface BillingInvoicePage {
  items: BillingInvoice[]
  total: number
  page: number
  pageSize: number
}

export interface BillingPlanAssignment {
  /** `free`, `pro`, `team-2026` */
  plan: string
}

export interface BillingUsageBatch {
  events: {
    customerId: string
    /** Lower case, dot-separated: `projects`, `api.calls` */
    feature: string
    /** Negative gives back: a `limit` feature’s (a seat freed), or a metered one’s that declares `allowNegative` (400 otherwise); the use never goes below 0 (events of one counter in one batch are summed first) */
    value: number
    /** Counted once per ecosystem, however often sent */
    idempotencyKey: string
    /** When it happened (default now): decides the month it counts in */
    at?: string
  }[]
}

export interface BillingUsageResult {
  accepted: number
  duplicates: number
}

export interface BillingCheck {
  /** Admins and owners: whom to check (default: yourself); anyone else checks only itself (403) */
  customerId?: string
  /** Lower case, dot-separated: `projects`, `api.calls` */
  feature: string
  /** Default 1 */
  amount?: number
  /** Check and record the use in one step: of two concurrent reserves of the last unit, one succeeds */
  reserve?: boolean
}

export interface BillingCheckResult {
  allowed: boolean
  limit: number | null
  used: number
  remaining: number | null
}

export interface BillingCheckout {
  /** `free`, `pro`, `team-2026` */
  plan: string
  interval: "month" | "year"
  /** http or https; Stripe replaces `{CHECKOUT_SESSION_ID}` in it with the session’s id */
  successUrl: string
  /** http or https; also where the portal returns to when the customer already has a subscription (409) */
  cancelUrl: string
}

export interface BillingRedirect {
  url: string
}

export interface BillingPortal {
  /** http or https */
  returnUrl: string
}

export interface BillingWebhookResult {
  received: boolean
  duplicate: boolean
}

/** The routes under /billing. */
export interface BillingRoutes {
  settings: {
    /** The ecosystem’s billing provider */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: BillingSettings; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Choose the billing provider */
    put(body: BillingSettingsUpdate, options?: RequestOptions<never>): Promise<Result<{ 200: BillingSettings; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  catalogue: {
    /** The price list: plans marked public, with prices and what they grant */
    get(options?: RequestOptions<{ ecosystem?: string }>): Promise<Result<{ 200: BillingCatalogue; 400: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  features: ((params: { key: string | number }) => {
    /** One feature */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: BillingFeature; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Rename a feature, change its unit or reset */
    patch(body?: BillingFeaturePatch, options?: RequestOptions<never>): Promise<Result<{ 200: BillingFeature; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
    /** Delete a feature no plan grants */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Features plans can grant */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: BillingFeaturePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Define a feature */
    post(body: BillingFeatureCreate, options?: RequestOptions<never>): Promise<Result<{ 201: BillingFeature; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  plans: ((params: { key: string | number }) => {
    /** One plan */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: BillingPlan; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Change a plan (its customers’ entitlements follow at once) */
    patch(body?: BillingPlanPatch, options?: RequestOptions<never>): Promise<Result<{ 200: BillingPlan; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete a plan nobody is on */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Plans, by key */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: BillingPlanPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Define a plan */
    post(body: BillingPlanCreate, options?: RequestOptions<never>): Promise<Result<{ 201: BillingPlan; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody }>>
  }
  me: {
    /** Your plan, subscription and entitlements with their use */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: BillingAccount; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    invoices: {
      /** Your invoices, newest first (mirrored from Stripe) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: BillingInvoicePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }
  customers: ((params: { customerId: string | number }) => {
    /** A customer’s plan, subscription and entitlements with their use */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: BillingAccount; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    invoices: {
      /** A customer’s invoices, newest first (mirrored from Stripe) */
      get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: BillingInvoicePage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
    plan: {
      /** Put a customer on a plan by hand */
      put(body: BillingPlanAssignment, options?: RequestOptions<never>): Promise<Result<{ 200: BillingAccount; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
      /** Remove a manual assignment */
      delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: BillingAccount; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  })
  usage: {
    /** Report usage of metered and limit features */
    post(body: BillingUsageBatch, options?: RequestOptions<never>): Promise<Result<{ 200: BillingUsageResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  check: {
    /** May this customer use this much of a feature? */
    post(body: BillingCheck, options?: RequestOptions<never>): Promise<Result<{ 200: BillingCheckResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }
  checkout: {
    /** A Stripe Checkout page for a plan */
    post(body: BillingCheckout, options?: RequestOptions<never>): Promise<Result<{ 200: BillingRedirect; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody; 502: ErrorBody }>>
  }
  portal: {
    /** The Stripe customer portal (change plan, payment method, cancel) */
    post(body: BillingPortal, options?: RequestOptions<never>): Promise<Result<{ 200: BillingRedirect; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 409: ErrorBody; 429: ErrorBody; 502: ErrorBody }>>
  }
  stripe: {
    webhook: ((params: { ecosystemId: string | number }) => {
      /** Where Stripe posts the ecosystem’s events */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: BillingWebhookResult; 400: ErrorBody; 409: ErrorBody; 429: ErrorBody; 502: ErrorBody }>>
    })
  }
}
