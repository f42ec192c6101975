import { t } from 'elysia'
import { defineAuditActions, defineAuditedEvent, defineEvent } from '../../platform/events'

const NullableString = t.Union([t.String(), t.Null()])

export const customerCreated = defineEvent('customer.customer.created', {
  description: 'A customer was registered or first resolved by its externalId (not a team member’s own record).',
  payload: t.Object({ id: t.String(), externalId: NullableString, email: NullableString, name: NullableString, createdAt: t.String() }),
  webhook: 'customer.created',
})

export const customerDeleted = defineAuditedEvent('customer.customer.deleted', {
  description: 'A customer was deleted, with everything it owned.',
  payload: t.Object({ id: t.String() }),
  webhook: 'customer.deleted',
  // Only the id: the customer's profile and external id (often an e-mail) go with it.
  audit: { target: ({ id }) => ({ type: 'customer', id }) },
})

export const CUSTOMER_EVENTS = [customerCreated, customerDeleted]

/** The audit actions customer records (GET /audit/events). */
export const CUSTOMER_AUDIT = defineAuditActions('customer', {
  'customer.session.issued': 'A customer token was issued',
  'customer.support_session.started': 'An admin started a support session as a customer (one short token, not refreshable)',
  'customer.support_session.ended': 'An admin ended a support session before its time',
})
