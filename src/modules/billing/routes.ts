import { Elysia, t } from 'elysia'
import { adminResource } from '../../platform/crud/admin'
import type { Guards } from '../../platform/guards'
import { paged, pageParams, PageQuery } from '../../platform/paging'
import { errors } from './errors'
import {
  BillingAccount,
  BillingCatalogue,
  CatalogueQuery,
  BillingFeature,
  BillingFeatureCreate,
  BillingFeaturePatch,
  BillingInvoice,
  BillingPlan,
  BillingPlanCreate,
  BillingPlanPatch,
  BillingSettings,
  BillingSettingsUpdate,
  CheckoutRequest,
  CheckRequest,
  CheckResult,
  PlanAssignment,
  PortalRequest,
  RedirectUrl,
  UsageBatch,
} from './model'
import type { BillingService } from './service'

/** Where Stripe posts an ecosystem's events (the route reads the body as text: the signature covers the exact bytes). */
export const STRIPE_WEBHOOK_PATH = '/billing/stripe/webhook'
const CustomerParam = t.Object({ customerId: t.String({ format: 'uuid' }) })
const ENFORCED =
  'Ecobase enforces `storage.bytes` on upload presigns (counting the bytes of uploads presigned and not yet completed) and again on completes, and `chat.messages` on every model reply, sent or regenerated (402 `entitlement_exceeded`); other features are for your code to check (`POST /billing/check`). `reported` shows what was sent to a Stripe meter.'

/** Billing (tag `billing`). */
export function billingRoutes(billing: BillingService, guards: Guards) {
  const features = adminResource(guards, {
    path: '/features',
    param: { name: 'key', schema: t.String({ maxLength: 100 }) },
    schemas: {
      page: paged(BillingFeature, 'BillingFeaturePage'),
      create: BillingFeatureCreate,
      item: BillingFeature,
      detail: BillingFeature,
      patch: BillingFeaturePatch,
    },
    service: billing.features,
    operations: {
      list: {
        operationId: 'billingFeatures',
        summary: 'Features plans can grant',
        description: `The two built in (\`storage.bytes\`: a limit in bytes; \`chat.messages\`: metered monthly) first, then the ecosystem’s own by key. ${ENFORCED}`,
      },
      create: {
        operationId: 'billingFeatureCreate',
        summary: 'Define a feature',
        description: '`reset` defaults to `month` for metered features, `never` otherwise.',
        errors: errors({ 409: ['conflict', 'builtin_feature'] }),
      },
      get: { operationId: 'billingFeature', summary: 'One feature', errors: errors({ 404: ['feature_not_found'] }) },
      update: {
        operationId: 'billingFeatureUpdate',
        summary: 'Rename a feature, change its unit or reset',
        errors: errors({ 404: ['feature_not_found'], 409: ['builtin_feature'] }),
      },
      remove: {
        operationId: 'billingFeatureDelete',
        summary: 'Delete a feature no plan grants',
        deleted: 'Deleted',
        errors: errors({ 404: ['feature_not_found'], 409: ['builtin_feature', 'in_use'] }),
      },
    },
  })
  const plans = adminResource(guards, {
    path: '/plans',
    param: { name: 'key', schema: t.String({ maxLength: 63 }) },
    schemas: { page: paged(BillingPlan, 'BillingPlanPage'), create: BillingPlanCreate, item: BillingPlan, detail: BillingPlan, patch: BillingPlanPatch },
    service: billing.plans,
    operations: {
      list: { operationId: 'billingPlans', summary: 'Plans, by key' },
      create: {
        operationId: 'billingPlanCreate',
        summary: 'Define a plan',
        description:
          'Entitlements name features of the ecosystem (400 `feature_not_found`), each once. Prices are in the ecosystem’s currency (its billing settings; 400 `validation_failed` otherwise). A feature the plan does not name: the built-in ones have no limit, the others are not granted. `isDefault` moves the default to this plan: it applies to every customer with no assignment and no granting subscription.',
        errors: errors({ 400: ['feature_not_found'], 409: ['conflict'] }),
      },
      get: { operationId: 'billingPlan', summary: 'One plan', errors: errors({ 404: ['plan_not_found'] }) },
      update: {
        operationId: 'billingPlanUpdate',
        summary: 'Change a plan (its customers’ entitlements follow at once)',
        errors: errors({ 400: ['feature_not_found'], 404: ['plan_not_found'] }),
      },
      remove: {
        operationId: 'billingPlanDelete',
        summary: 'Delete a plan nobody is on',
        description:
          'Not the default plan (409 `default_plan`: make another plan the default first), nor one an assignment or a subscription not canceled is on (409 `in_use`).',
        deleted: 'Deleted',
        errors: errors({ 404: ['plan_not_found'], 409: ['in_use', 'default_plan'] }),
      },
    },
  })

  return new Elysia({ name: 'billing', prefix: '/billing', detail: { tags: ['billing'] } })
    .use(guards.tenancy)
    .get('/settings', ({ tenant }) => billing.settings(tenant), {
      tenant: 'admin',
      response: { 200: BillingSettings },
      detail: {
        operationId: 'billingSettings',
        summary: 'The ecosystem’s billing provider',
        description: 'The Stripe keys are never shown: `configKeys` names those stored.',
      },
    })
    .put('/settings', ({ tenant, body }) => billing.setSettings(tenant, body), {
      tenant: 'admin',
      body: BillingSettingsUpdate,
      response: { 200: BillingSettings, ...errors({ 409: ['in_use'] }) },
      detail: {
        operationId: 'billingSetSettings',
        summary: 'Choose the billing provider',
        description: `Every plan price is in \`currency\` (\`usd\` until set): it changes only while no plan has prices in another (409 \`in_use\`). \`manual\` (the default) needs no outside service: admins assign plans. \`stripe\` needs \`stripeSecretKey\` and \`stripeWebhookSecret\` (given now or before; sealed with the server key, write-only); point Stripe’s webhook at \`POST ${STRIPE_WEBHOOK_PATH}/{ecosystemId}\`.`,
      },
    })
    .get('/catalogue', ({ tenant, query }) => billing.catalogue(tenant, query.ecosystem), {
      optionalTenant: 'customer',
      query: CatalogueQuery,
      response: { 200: BillingCatalogue, ...errors({ 400: ['ecosystem_required'], 404: ['not_found'] }) },
      detail: {
        operationId: 'billingCatalogue',
        summary: 'The price list: plans marked public, with prices and what they grant',
        description:
          'For a pricing page with no backend of its own: the plans an admin marked `public`, cheapest first (plans without a price first), each with its prices (no Stripe ids) and its entitlements with the features’ names and units; `currency` is the ecosystem’s. Anyone may read it naming the ecosystem (`?ecosystem=<id or rdid>`, 404 when there is none); a customer’s token names its own (an account credential, as everywhere, with X-Ecosystem-Id); with neither, 400 `ecosystem_required`. Plans not marked public, assignments and subscriptions never appear.',
      },
    })
    .use(features)
    .use(plans)
    .get('/me', ({ tenant }) => billing.account(tenant, tenant.customerId), {
      tenant: 'customer',
      response: { 200: BillingAccount },
      detail: { operationId: 'billingMe', summary: 'Your plan, subscription and entitlements with their use', description: ENFORCED },
    })
    .get('/me/invoices', ({ tenant, query }) => billing.invoices(tenant, tenant.customerId, pageParams(query)), {
      tenant: 'customer',
      query: PageQuery,
      response: { 200: paged(BillingInvoice, 'BillingInvoicePage') },
      detail: {
        operationId: 'billingMyInvoices',
        summary: 'Your invoices, newest first (mirrored from Stripe)',
        description:
          'The calling customer’s invoices as the Stripe webhooks last reported them (number, status, total in minor units, currency, period, the hosted invoice link). Empty with the `manual` provider.',
      },
    })
    .get('/customers/:customerId', ({ tenant, params }) => billing.account(tenant, params.customerId), {
      tenant: 'admin',
      params: CustomerParam,
      response: { 200: BillingAccount },
      detail: { operationId: 'billingCustomer', summary: 'A customer’s plan, subscription and entitlements with their use' },
    })
    .get('/customers/:customerId/invoices', ({ tenant, params, query }) => billing.invoices(tenant, params.customerId, pageParams(query)), {
      tenant: 'admin',
      params: CustomerParam,
      query: PageQuery,
      response: { 200: paged(BillingInvoice, 'BillingInvoicePage') },
      detail: { operationId: 'billingCustomerInvoices', summary: 'A customer’s invoices, newest first (mirrored from Stripe)' },
    })
    .put('/customers/:customerId/plan', ({ tenant, params, body }) => billing.assign(tenant, params.customerId, body.plan), {
      tenant: 'admin',
      params: CustomerParam,
      body: PlanAssignment,
      response: { 200: BillingAccount, ...errors({ 404: ['not_found', 'plan_not_found'] }) },
      detail: {
        operationId: 'billingAssignPlan',
        summary: 'Put a customer on a plan by hand',
        description:
          'Wins over any subscription until removed: comps, support, and the `manual` provider. Emits `billing.entitlements.updated` when the plan in force changes.',
      },
    })
    .delete('/customers/:customerId/plan', ({ tenant, params }) => billing.unassign(tenant, params.customerId), {
      tenant: 'admin',
      params: CustomerParam,
      response: { 200: BillingAccount },
      detail: {
        operationId: 'billingUnassignPlan',
        summary: 'Remove a manual assignment',
        description: 'The subscription (if granting) or the default plan applies again.',
      },
    })
    .post('/usage', ({ tenant, body }) => billing.usage(tenant, body), {
      tenant: 'admin',
      body: UsageBatch,
      response: {
        200: t.Object({ accepted: t.Integer(), duplicates: t.Integer() }, { title: 'BillingUsageResult', examples: [{ accepted: 1, duplicates: 0 }] }),
        ...errors({ 400: ['feature_not_found', 'builtin_feature'] }),
      },
      detail: {
        operationId: 'billingUsage',
        summary: 'Report usage of metered and limit features',
        description:
          'Up to 1,000 events, written in one transaction. An `idempotencyKey` already seen in the ecosystem (or twice in the batch) counts once (`duplicates`). A monthly feature counts in the month of `at`. `storage.bytes` is measured by storage itself (400). With an API token (`eco_…`) of an admin, for a backend that meters.',
      },
    })
    .post('/check', ({ tenant, body }) => billing.check(tenant, body), {
      tenant: 'customer',
      body: CheckRequest,
      response: { 200: CheckResult, ...errors({ 404: ['not_found', 'feature_not_found'] }) },
      detail: {
        operationId: 'billingCheck',
        summary: 'May this customer use this much of a feature?',
        description:
          'Check → work → track, or with `reserve: true` check and record in one step (the use is counted only when allowed; of two concurrent reserves of the last unit, one succeeds). Boolean features answer `allowed` = enabled. Customers and members check themselves; admins and owners anyone of the ecosystem (`customerId`, default their own record).',
      },
    })
    .post('/checkout', ({ tenant, body }) => billing.checkout(tenant, body), {
      tenant: 'customer',
      body: CheckoutRequest,
      response: {
        200: RedirectUrl,
        ...errors({ 404: ['plan_not_found'], 409: ['billing_not_configured', 'no_price', 'subscription_exists'], 502: ['provider_error'] }),
      },
      detail: {
        operationId: 'billingCheckout',
        summary: 'A Stripe Checkout page for a plan',
        description:
          'Send the customer to `url`. Its Stripe customer is created first (once per Ecobase customer); the plan’s `trialDays` start a trial, once per customer (a customer who had a trial gets none). `successUrl` and `cancelUrl` are http(s) addresses; `{CHECKOUT_SESSION_ID}` in `successUrl` is filled in by Stripe. A customer whose subscription is live (not canceled) changes it in the portal instead: 409 `subscription_exists` with `portalUrl`, a portal session returning to `cancelUrl`. The subscription reaches Ecobase through Stripe’s webhook. `stripe` provider only (409 `billing_not_configured`).',
      },
    })
    .post('/portal', ({ tenant, body }) => billing.portal(tenant, body.returnUrl), {
      tenant: 'customer',
      body: PortalRequest,
      response: { 200: RedirectUrl, ...errors({ 409: ['billing_not_configured'], 502: ['provider_error'] }) },
      detail: {
        operationId: 'billingPortal',
        summary: 'The Stripe customer portal (change plan, payment method, cancel)',
        description:
          'On the Stripe customer of the customer’s subscription (one made outside Checkout and bound by its metadata too), else its own. `returnUrl` is an http(s) address. `stripe` provider only (409 `billing_not_configured`).',
      },
    })
    .post(
      '/stripe/webhook/:ecosystemId',
      async ({ params, request, headers }) => billing.webhook(params.ecosystemId, await request.text(), headers['stripe-signature'] ?? ''),
      {
        parse: 'none',
        params: t.Object({ ecosystemId: t.String({ format: 'uuid' }) }),
        response: {
          200: t.Object({ received: t.Boolean(), duplicate: t.Boolean() }, { title: 'BillingWebhookResult', examples: [{ received: true, duplicate: false }] }),
          ...errors({ 400: ['invalid_signature'], 409: ['billing_not_configured'], 502: ['provider_error'] }),
        },
        detail: {
          operationId: 'billingStripeWebhook',
          summary: 'Where Stripe posts the ecosystem’s events',
          description:
            'Verified with the ecosystem’s webhook secret (400 `invalid_signature`). An event id already handled answers `duplicate: true`. Subscription, Checkout-session and invoice events fetch the object from Stripe as it is now and overwrite the mirror, so events may arrive in any order and repeat; a Stripe outage answers 502 and Stripe retries, while an object Stripe answers 404 for is acknowledged (200, logged): asking again would never find it. A subscription bound by `metadata.customerId` (made outside Checkout) records its Stripe customer, whose invoices are then kept; one whose price no plan sells (nor names an existing plan in `metadata.plan`) leaves the customer on the default plan and emits `billing.subscription.unmatched` (the admins are told).',
          security: [],
        },
      },
    )
}
