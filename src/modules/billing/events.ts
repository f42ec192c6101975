import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

const Nullable = t.Union([t.String(), t.Null()])

export const subscriptionUpdated = defineEvent('billing.subscription.updated', {
  description: 'A customer’s Stripe subscription changed (as re-fetched from Stripe on one of its webhooks).',
  payload: t.Object({
    customerId: t.String(),
    subscriptionId: t.String(),
    plan: Nullable,
    status: t.String(),
    cancelAtPeriodEnd: t.Boolean(),
    currentPeriodEnd: Nullable,
  }),
  webhook: 'billing.subscription.updated',
})

export const entitlementsUpdated = defineEvent('billing.entitlements.updated', {
  description:
    'The plan that decides a customer’s entitlements changed: a manual assignment set or removed, or a subscription that starts or stops granting its plan.',
  payload: t.Object({ customerId: t.String(), plan: Nullable, source: t.Union([t.Literal('default'), t.Literal('manual'), t.Literal('stripe')]) }),
  webhook: 'billing.entitlements.updated',
})

export const subscriptionUnmatched = defineEvent('billing.subscription.unmatched', {
  description:
    'A customer’s Stripe subscription sells a price no plan of the ecosystem has (nor names an existing plan in its metadata): the customer is on the default plan until a plan carries that price. Ecosystem admins and owners are told.',
  payload: t.Object({ customerId: t.String(), subscriptionId: t.String(), priceIds: t.Array(t.String()), status: t.String() }),
  webhook: 'billing.subscription.unmatched',
})

export const BILLING_EVENTS = [subscriptionUpdated, entitlementsUpdated, subscriptionUnmatched]
