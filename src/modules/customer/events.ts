import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

const NullableString = t.Union([t.String(), t.Null()])

export const customerCreated = defineEvent('customer.customer.created', {
  description: 'A customer was registered or first resolved by its externalId (not a team member’s own record).',
  payload: t.Object({ id: t.String(), externalId: NullableString, email: NullableString, name: NullableString, createdAt: t.String() }),
  webhook: 'customer.created',
})

export const customerDeleted = defineEvent('customer.customer.deleted', {
  description: 'A customer was deleted, with everything it owned.',
  payload: t.Object({ id: t.String() }),
  webhook: 'customer.deleted',
})

export const CUSTOMER_EVENTS = [customerCreated, customerDeleted]
