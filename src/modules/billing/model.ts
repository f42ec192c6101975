import { t } from 'elysia'
import { Int } from '../../platform/numbers'

const FeatureKey = t.String({
  pattern: '^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$',
  maxLength: 100,
  description: 'Lower case, dot-separated: `projects`, `api.calls`',
})
const PlanKey = t.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,62}$', description: '`free`, `pro`, `team-2026`' })
const Currency = t.String({ pattern: '^[a-z]{3}$', description: 'ISO 4217, lower case (`usd`, `eur`)' })
const FeatureType = t.Union([t.Literal('boolean'), t.Literal('limit'), t.Literal('metered')], {
  description: '`boolean`: on or off; `limit`: up to a number at any time (seats, projects); `metered`: up to a number per period (API calls a month)',
})
const Reset = t.Union([t.Literal('month'), t.Literal('never')], {
  description: 'When the use of a metered feature starts again from 0: at the start of each calendar month (UTC), or never',
})

const StripeMeter = t.Union([t.String({ pattern: '^[A-Za-z0-9_.:-]{1,100}$', description: 'The Stripe meter’s event name' }), t.Null()], {
  description:
    'Metered features only: the Stripe meter (its `event_name`) accepted usage is sent to as meter events, for usage-based prices; null: not charged through Stripe',
})
const AllowNegative = t.Boolean({
  description:
    'Metered features only (default false): negative usage values give use back (credits refunded); otherwise a negative value is 400. A `limit` feature always takes negative values (a seat freed). No counter goes below 0.',
})

export const BillingSettings = t.Object(
  {
    provider: t.Union([t.Literal('manual'), t.Literal('stripe')]),
    currency: Currency,
    configKeys: t.Array(t.String(), { description: 'Which Stripe keys are stored (their values are never shown)' }),
  },
  { title: 'BillingSettings', examples: [{ provider: 'stripe', currency: 'usd', configKeys: ['stripeSecretKey', 'stripeWebhookSecret'] }] },
)
export const BillingSettingsUpdate = t.Object(
  {
    provider: t.Union([t.Literal('manual'), t.Literal('stripe')], {
      description: '`manual` (the default): plans assigned by admins, no outside service; `stripe`: Checkout, the portal and webhooks',
    }),
    currency: t.Optional(Currency),
    stripeSecretKey: t.Optional(t.String({ pattern: '^(sk|rk)_', maxLength: 300, description: 'Write-only; kept when omitted' })),
    stripeWebhookSecret: t.Optional(t.String({ pattern: '^whsec_', maxLength: 300, description: 'Write-only; kept when omitted' })),
  },
  {
    title: 'BillingSettingsUpdate',
    examples: [{ provider: 'stripe', currency: 'usd', stripeSecretKey: 'sk_test_51ExampleKey', stripeWebhookSecret: 'whsec_ExampleSecret' }],
  },
)

export const BillingFeature = t.Object(
  {
    key: FeatureKey,
    name: t.String({ minLength: 1, maxLength: 200 }),
    type: FeatureType,
    unit: t.String({ maxLength: 50, description: '`bytes`, `messages`, `seats`' }),
    reset: Reset,
    builtIn: t.Boolean({ description: 'Metered by Ecobase itself (storage.bytes, chat.messages): read-only' }),
    allowNegative: AllowNegative,
    stripeMeter: StripeMeter,
  },
  {
    title: 'BillingFeature',
    examples: [
      { key: 'api.calls', name: 'API calls', type: 'metered', unit: 'calls', reset: 'month', builtIn: false, allowNegative: false, stripeMeter: 'api_calls' },
    ],
  },
)
export const BillingFeatureCreate = t.Object(
  {
    key: FeatureKey,
    name: t.String({ minLength: 1, maxLength: 200 }),
    type: FeatureType,
    unit: t.Optional(t.String({ maxLength: 50 })),
    reset: t.Optional(Reset),
    allowNegative: t.Optional(AllowNegative),
    stripeMeter: t.Optional(StripeMeter),
  },
  {
    title: 'BillingFeatureCreate',
    examples: [{ key: 'api.calls', name: 'API calls', type: 'metered', unit: 'calls', reset: 'month', stripeMeter: 'api_calls' }],
  },
)
export const BillingFeaturePatch = t.Partial(
  t.Object({
    name: t.String({ minLength: 1, maxLength: 200 }),
    unit: t.String({ maxLength: 50 }),
    reset: Reset,
    allowNegative: AllowNegative,
    stripeMeter: StripeMeter,
  }),
  { title: 'BillingFeaturePatch', examples: [{ name: 'API requests', unit: 'requests' }], minProperties: 1 },
)

const Price = t.Object(
  {
    amount: Int({ minimum: 0, maximum: 100_000_000_00, description: 'Minor units (cents)' }),
    currency: Currency,
    interval: t.Union([t.Literal('month'), t.Literal('year')]),
    stripePriceId: t.Optional(t.String({ pattern: '^price_', maxLength: 200, description: 'The Stripe price Checkout sells this as' })),
  },
  { title: 'BillingPrice' },
)
const Entitlement = t.Object(
  {
    feature: FeatureKey,
    enabled: t.Optional(t.Boolean({ description: 'Default true' })),
    limit: t.Optional(t.Union([Int({ minimum: 0 }), t.Null()], { description: 'For limit and metered features; null or absent = no limit' })),
    overage: t.Optional(t.Union([t.Literal('block'), t.Literal('allow')], { description: 'Past the limit: refuse (default) or allow and keep counting' })),
  },
  { title: 'BillingPlanEntitlement' },
)
const planFields = {
  name: t.String({ minLength: 1, maxLength: 200 }),
  description: t.String({ maxLength: 2000 }),
  isDefault: t.Boolean({ description: 'Applies to every customer without a subscription or assignment; one plan at most (setting it moves it)' }),
  public: t.Boolean({ description: 'Listed in the price list anyone may read (GET /billing/catalogue); default false' }),
  trialDays: Int({ minimum: 0, maximum: 730, description: 'Checkout starts a trial this long' }),
  prices: t.Array(Price, { maxItems: 20 }),
  entitlements: t.Array(Entitlement, { maxItems: 200 }),
}
export const BillingPlan = t.Object(
  { key: PlanKey, ...planFields, createdAt: t.String(), updatedAt: t.String() },
  {
    title: 'BillingPlan',
    examples: [
      {
        key: 'pro',
        name: 'Pro',
        description: 'For teams that chat a lot',
        isDefault: false,
        public: true,
        trialDays: 14,
        prices: [{ amount: 1900, currency: 'usd', interval: 'month', stripePriceId: 'price_1PqRsTuVwXyZ' }],
        entitlements: [{ feature: 'chat.messages', limit: 10000 }],
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const BillingPlanCreate = t.Object(
  {
    key: PlanKey,
    name: planFields.name,
    description: t.Optional(planFields.description),
    isDefault: t.Optional(planFields.isDefault),
    public: t.Optional(planFields.public),
    trialDays: t.Optional(planFields.trialDays),
    prices: t.Optional(planFields.prices),
    entitlements: t.Optional(planFields.entitlements),
  },
  {
    title: 'BillingPlanCreate',
    examples: [
      {
        key: 'pro',
        name: 'Pro',
        description: 'For teams that chat a lot',
        public: true,
        trialDays: 14,
        prices: [{ amount: 1900, currency: 'usd', interval: 'month', stripePriceId: 'price_1PqRsTuVwXyZ' }],
        entitlements: [
          { feature: 'chat.messages', limit: 10000 },
          { feature: 'storage.bytes', limit: 10737418240 },
        ],
      },
    ],
  },
)
export const BillingPlanPatch = t.Partial(t.Object(planFields), {
  title: 'BillingPlanPatch',
  examples: [
    {
      trialDays: 30,
      prices: [{ amount: 2900, currency: 'usd', interval: 'month', stripePriceId: 'price_1PqRsTuVwXyZ' }],
      entitlements: [{ feature: 'chat.messages', limit: 20000, overage: 'allow' }],
    },
  ],
  minProperties: 1,
})

const Nullable = (description?: string) => t.Union([t.String(), t.Null()], description ? { description } : {})
export const SubscriptionStatus = t.Union(
  ['incomplete', 'incomplete_expired', 'trialing', 'active', 'past_due', 'canceled', 'unpaid', 'paused'].map((s) => t.Literal(s)),
  { description: 'As Stripe says it' },
)
export const BillingAccount = t.Object(
  {
    customerId: t.String(),
    plan: Nullable('The plan in force; null when none applies (no default plan)'),
    source: t.Union([t.Literal('default'), t.Literal('manual'), t.Literal('stripe')], {
      description: 'What decides the plan: a manual assignment, a granting subscription, or the default plan',
    }),
    subscription: t.Union([
      t.Object({
        id: t.String(),
        plan: Nullable(),
        status: SubscriptionStatus,
        currentPeriodStart: Nullable(),
        currentPeriodEnd: Nullable(),
        cancelAtPeriodEnd: t.Boolean(),
        trialEnd: Nullable(),
      }),
      t.Null(),
    ]),
    entitlements: t.Array(
      t.Object({
        feature: t.String(),
        type: FeatureType,
        enabled: t.Boolean(),
        limit: t.Union([t.Number(), t.Null()], { description: 'null: no limit' }),
        used: t.Number(),
        remaining: t.Union([t.Number(), t.Null()]),
        resetsAt: Nullable('When a monthly feature’s use starts again from 0'),
        reported: t.Union(
          [
            t.Object({
              meter: t.String({ description: 'The Stripe meter’s event name' }),
              sent: Int({ description: 'Use of this period Stripe has accepted as meter events' }),
              pending: Int({ description: 'Use of this period accepted here and not yet sent (sent within seconds, retried while Stripe fails)' }),
              failed: Int({ description: 'Use of this period Stripe refused (e.g. older than its 35 days); not retried' }),
            }),
            t.Null(),
          ],
          { description: 'What was sent to Stripe for usage-based charging (a feature with a `stripeMeter`); null otherwise' },
        ),
      }),
    ),
  },
  {
    title: 'BillingAccount',
    examples: [
      {
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        plan: 'pro',
        source: 'manual',
        subscription: null,
        entitlements: [
          {
            feature: 'storage.bytes',
            type: 'limit',
            enabled: true,
            limit: 10737418240,
            used: 52428800,
            remaining: 10684989440,
            resetsAt: null,
            reported: null,
          },
          {
            feature: 'chat.messages',
            type: 'metered',
            enabled: true,
            limit: 10000,
            used: 1250,
            remaining: 8750,
            resetsAt: '2026-12-01T00:00:00.000Z',
            reported: null,
          },
          {
            feature: 'api.calls',
            type: 'metered',
            enabled: true,
            limit: null,
            used: 120,
            remaining: null,
            resetsAt: '2026-12-01T00:00:00.000Z',
            reported: { meter: 'api_calls', sent: 100, pending: 20, failed: 0 },
          },
        ],
      },
    ],
  },
)
export const BillingInvoice = t.Object(
  {
    id: t.String(),
    number: Nullable(),
    status: t.String({ description: 'draft, open, paid, uncollectible or void' }),
    total: Int({ description: 'Minor units' }),
    currency: t.String(),
    hostedInvoiceUrl: Nullable(),
    periodStart: Nullable(),
    periodEnd: Nullable(),
    createdAt: t.String(),
  },
  {
    title: 'BillingInvoice',
    examples: [
      {
        id: 'in_1QExampleInvoice0001',
        number: 'ECO-0001',
        status: 'paid',
        total: 1900,
        currency: 'usd',
        hostedInvoiceUrl: 'https://invoice.stripe.com/i/acct_Example/test_Example0001',
        periodStart: '2026-11-26T09:00:00.000Z',
        periodEnd: '2026-12-26T09:00:00.000Z',
        createdAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)
export const UsageBatch = t.Object(
  {
    events: t.Array(
      t.Object({
        customerId: t.String({ format: 'uuid' }),
        feature: FeatureKey,
        value: Int({
          minimum: -1_000_000_000_000,
          maximum: 1_000_000_000_000,
          description:
            'Negative gives back: a `limit` feature’s (a seat freed), or a metered one’s that declares `allowNegative` (400 otherwise); the use never goes below 0 (events of one counter in one batch are summed first)',
        }),
        idempotencyKey: t.String({ minLength: 1, maxLength: 200, description: 'Counted once per ecosystem, however often sent' }),
        at: t.Optional(t.String({ format: 'date-time', description: 'When it happened (default now): decides the month it counts in' })),
      }),
      { minItems: 1, maxItems: 1000 },
    ),
  },
  {
    title: 'BillingUsageBatch',
    examples: [
      { events: [{ customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170', feature: 'api.calls', value: 120, idempotencyKey: 'batch-2026-11-26T09:00Z-42' }] },
    ],
  },
)
export const CheckRequest = t.Object(
  {
    customerId: t.Optional(
      t.String({ format: 'uuid', description: 'Admins and owners: whom to check (default: yourself); anyone else checks only itself (403)' }),
    ),
    feature: FeatureKey,
    amount: t.Optional(Int({ minimum: 1, maximum: 1_000_000_000_000, description: 'Default 1' })),
    reserve: t.Optional(t.Boolean({ description: 'Check and record the use in one step: of two concurrent reserves of the last unit, one succeeds' })),
  },
  { title: 'BillingCheck', examples: [{ feature: 'api.calls', amount: 1, reserve: true }] },
)
export const CheckResult = t.Object(
  { allowed: t.Boolean(), limit: t.Union([t.Number(), t.Null()]), used: t.Number(), remaining: t.Union([t.Number(), t.Null()]) },
  { title: 'BillingCheckResult', examples: [{ allowed: true, limit: 100, used: 13, remaining: 87 }] },
)
export const PlanAssignment = t.Object({ plan: PlanKey }, { title: 'BillingPlanAssignment', examples: [{ plan: 'pro' }] })
/** Where Stripe sends the customer back: an http(s) address (no `javascript:` or other scheme); `{CHECKOUT_SESSION_ID}` is kept for Stripe to fill in. */
const ReturnAddress = (description: string) => t.String({ pattern: '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#]+[^\\s]*$', maxLength: 2000, description })
export const CheckoutRequest = t.Object(
  {
    plan: PlanKey,
    interval: t.Union([t.Literal('month'), t.Literal('year')]),
    successUrl: ReturnAddress('http or https; Stripe replaces `{CHECKOUT_SESSION_ID}` in it with the session’s id'),
    cancelUrl: ReturnAddress('http or https; also where the portal returns to when the customer already has a subscription (409)'),
  },
  {
    title: 'BillingCheckout',
    examples: [
      {
        plan: 'pro',
        interval: 'month',
        successUrl: 'https://app.example.com/billing/thanks?session_id={CHECKOUT_SESSION_ID}',
        cancelUrl: 'https://app.example.com/billing',
      },
    ],
  },
)
export const PortalRequest = t.Object(
  { returnUrl: ReturnAddress('http or https') },
  { title: 'BillingPortal', examples: [{ returnUrl: 'https://app.example.com/billing' }] },
)
export const BillingCatalogue = t.Object(
  {
    ecosystemId: t.String(),
    currency: Currency,
    plans: t.Array(
      t.Object({
        key: t.String(),
        name: t.String(),
        description: t.String(),
        isDefault: t.Boolean({ description: 'Customers with no subscription are on it' }),
        trialDays: Int({ description: 'Checkout starts a trial this long (once per customer)' }),
        prices: t.Array(
          t.Object({
            amount: Int({ description: 'Minor units (cents)' }),
            currency: t.String(),
            interval: t.Union([t.Literal('month'), t.Literal('year')]),
          }),
        ),
        entitlements: t.Array(
          t.Object({
            feature: t.String(),
            name: t.String({ description: 'The feature’s name, to show' }),
            type: FeatureType,
            unit: t.String(),
            reset: Reset,
            enabled: t.Boolean(),
            limit: t.Union([Int(), t.Null()], { description: 'null: no limit' }),
            overage: t.Union([t.Literal('block'), t.Literal('allow')], { description: 'Past the limit: refused, or allowed and counted' }),
          }),
        ),
      }),
    ),
  },
  {
    title: 'BillingCatalogue',
    examples: [
      {
        ecosystemId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        currency: 'usd',
        plans: [
          {
            key: 'pro',
            name: 'Pro',
            description: 'For teams that chat a lot',
            isDefault: false,
            trialDays: 14,
            prices: [{ amount: 1900, currency: 'usd', interval: 'month' }],
            entitlements: [
              {
                feature: 'chat.messages',
                name: 'Chat messages',
                type: 'metered',
                unit: 'messages',
                reset: 'month',
                enabled: true,
                limit: 10000,
                overage: 'block',
              },
            ],
          },
        ],
      },
    ],
  },
)
export const CatalogueQuery = t.Object({
  ecosystem: t.Optional(t.String({ minLength: 1, maxLength: 253, description: 'Ecosystem id or rdid: whose price list (a customer’s token names its own)' })),
})
export const RedirectUrl = t.Object(
  { url: t.String() },
  { title: 'BillingRedirect', examples: [{ url: 'https://checkout.stripe.com/c/pay/cs_test_ExampleSession0001' }] },
)
