import { t } from 'elysia'
import { defineEvent } from '../../platform/events'

export const passwordChanged = defineEvent('auth.password.changed', {
  description: 'An account’s password was changed (by its owner) or reset (by e-mailed link); every session of the account is revoked in the same transaction.',
  payload: t.Object({ userId: t.String(), reason: t.Union([t.Literal('password_changed'), t.Literal('password_reset')]) }),
  scope: 'account',
})

export const SECURITY_CHANGES = ['mfa_enrolled', 'mfa_removed', 'mfa_verified', 'mfa_failed', 'recovery_used', 'recovery_regenerated', 'mfa_reset'] as const

export const securityChanged = defineEvent('auth.security.changed', {
  description:
    'A second factor of an account was enrolled, removed, verified, or reset by an administrator, or its recovery codes were used or replaced; `mfa_failed` comes once for each window (LOGIN_FAILURE_WINDOW_SECONDS) in which wrong answers began, from `since` (each one is an audit event `auth.mfa.failed`). The owner gets an “account security” e-mail; for `mfa_failed` it goes as the window closes, with the count.',
  payload: t.Object({
    userId: t.String(),
    change: t.Union(SECURITY_CHANGES.map((c) => t.Literal(c))),
    sessionsRevoked: t.Optional(t.Boolean({ description: 'The change also signed out the account’s other sessions (its first factor)' })),
    since: t.Optional(t.String({ description: 'For `mfa_failed`: when the window of wrong answers began' })),
  }),
  scope: 'account',
})

export const AUTH_EVENTS = [passwordChanged, securityChanged]
