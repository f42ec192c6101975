import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const passwordChanged = defineEvent('auth.password.changed', {
  description: 'An account’s password was changed (by its owner) or reset (by e-mailed link); every session of the account is revoked in the same transaction.',
  payload: t.Object({ userId: t.String(), reason: t.Union([t.Literal('password_changed'), t.Literal('password_reset')]) }),
  scope: 'account',
})

export const securityChanged = defineEvent('auth.security.changed', {
  description: 'A second factor of an account was enrolled, removed, verified or failed, or its recovery codes were used or replaced (the owner gets an “account security” e-mail).',
  payload: t.Object({
    userId: t.String(),
    change: t.Union(['mfa_enrolled', 'mfa_removed', 'mfa_verified', 'mfa_failed', 'recovery_used', 'recovery_regenerated'].map((c) => t.Literal(c))),
  }),
  scope: 'account',
})

export const AUTH_EVENTS = [passwordChanged, securityChanged]
