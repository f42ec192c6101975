import { defineModule } from '../module'
import { Entitlements } from './entitlements'
import { BILLING_ERRORS } from './errors'
import { BILLING_EVENTS } from './events'
import { billingRoutes, STRIPE_WEBHOOK_PATH } from './routes'
import { BillingService } from './service'
import { StripeGateway } from './stripe'

declare module '../module' {
  interface Services {
    billing: BillingService
  }
}

export default defineModule({
  name: 'billing',
  tags: {
    billing:
      'Plans an ecosystem sells its customers, the features they grant (enforced for storage and chat, checked by your code for the rest), metered usage, manual assignments, and Stripe Checkout, portal, webhooks and invoices.',
  },
  errors: BILLING_ERRORS,
  events: BILLING_EVENTS,
  http: { verbatimBodyPaths: [`${STRIPE_WEBHOOK_PATH}/`] },
  setup: (ctx) => {
    const entitlements = new Entitlements(ctx.deps)
    const billing = new BillingService(
      ctx.deps,
      entitlements,
      new StripeGateway(ctx.deps.config.billing.stripeApiUrl),
      ctx.bus,
      ctx.use('customer'),
      ctx.use('registry'),
    )
    return {
      services: billing,
      queues: billing.meters.queueHandlers(),
      listen: () => entitlements.listen(),
      routes: () => [billingRoutes(billing, ctx.guards)],
    }
  },
})
