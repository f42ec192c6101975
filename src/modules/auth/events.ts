import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const passwordChanged = defineEvent('auth.password.changed', {
  description: 'An account’s password was changed (by its owner) or reset (by e-mailed link); every session of the account is revoked in the same transaction.',
  payload: t.Object({ userId: t.String(), reason: t.Union([t.Literal('password_changed'), t.Literal('password_reset')]) }),
  scope: 'account',
})

export const AUTH_EVENTS = [passwordChanged]
