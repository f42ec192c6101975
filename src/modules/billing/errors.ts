import { errorCatalogue } from '../../platform/errors'

/** The error codes the billing area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const BILLING_ERRORS = {
  billing_not_configured: 'the ecosystem’s billing provider is not Stripe (or its keys are missing): Checkout, the portal and Stripe webhooks need it (409)',
  plan_not_found: 'no plan of the ecosystem has this key (404)',
  feature_not_found: 'no feature of the ecosystem has this key (404, or 400 inside a plan or usage event)',
  builtin_feature: 'storage.bytes and chat.messages are built in: they cannot be created, changed or deleted, and Ecobase meters them itself (409)',
  no_price: 'the plan has no Stripe price for this interval (409)',
  in_use: 'the plan or feature is still used by a plan, an assignment or a subscription (409)',
  default_plan: 'the default plan cannot be deleted while it is the default: make another plan the default first (409)',
  subscription_exists: 'the customer already has a live subscription: change or cancel it in the portal, whose address the error carries as `portalUrl` (409)',
  invalid_signature: 'the Stripe-Signature header does not verify with the ecosystem’s webhook secret (400)',
  provider_error: 'Stripe did not answer, or answered with an error (502)',
} as const

/** `billingError(status, code, message)` throws only platform or billing codes; `errors(...)` lists them on routes. */
export const { error: billingError, errors } = errorCatalogue(BILLING_ERRORS)
