import { t } from 'elysia'
import { defineAuditActions, defineAuditedEvent } from '../../platform/events'

export const passwordChanged = defineAuditedEvent('auth.password.changed', {
  description: 'An account’s password was changed (by its owner) or reset (by e-mailed link); every session of the account is revoked in the same transaction.',
  payload: t.Object({ userId: t.String(), reason: t.Union([t.Literal('password_changed'), t.Literal('password_reset')]) }),
  scope: 'account',
  // A reset is audited as auth.password.reset (declared below, with auth.password.changed).
  audit: {
    target: ({ userId }) => ({ type: 'user', id: userId }),
    metadata: () => ({ sessionsRevoked: true }),
    action: ({ reason }) => (reason === 'password_reset' ? 'auth.password.reset' : 'auth.password.changed'),
  },
})

export const SECURITY_CHANGES = ['mfa_enrolled', 'mfa_removed', 'mfa_verified', 'mfa_failed', 'recovery_used', 'recovery_regenerated', 'mfa_reset'] as const

/** The audit action of each change to an account's second factors. */
export const SECURITY_AUDIT_ACTIONS = {
  mfa_enrolled: 'auth.mfa.enrolled',
  mfa_removed: 'auth.mfa.removed',
  mfa_verified: 'auth.mfa.verified',
  mfa_failed: 'auth.mfa.failed',
  recovery_used: 'auth.recovery.used',
  recovery_regenerated: 'auth.recovery.regenerated',
  mfa_reset: 'auth.mfa.reset',
} as const satisfies Record<(typeof SECURITY_CHANGES)[number], string>

export const securityChanged = defineAuditedEvent('auth.security.changed', {
  description:
    'A second factor of an account was enrolled, removed, verified, or reset by an administrator, or its recovery codes were used or replaced; `mfa_failed` comes once for each window (LOGIN_FAILURE_WINDOW_SECONDS) in which wrong answers began, from `since` (each one is an audit event `auth.mfa.failed`). The owner gets an “account security” e-mail; for `mfa_failed` it goes as the window closes, with the count.',
  payload: t.Object({
    userId: t.String(),
    change: t.Union(SECURITY_CHANGES.map((c) => t.Literal(c))),
    sessionsRevoked: t.Optional(t.Boolean({ description: 'The change also signed out the account’s other sessions (its first factor)' })),
    since: t.Optional(t.String({ description: 'For `mfa_failed`: when the window of wrong answers began' })),
    details: t.Optional(
      t.Record(t.String(), t.Unknown(), { description: 'What the change was about (the factor, how it was proved): its audit row’s metadata' }),
    ),
  }),
  scope: 'account',
  // Each change is audited as its own action (auth.mfa.enrolled, …), declared below.
  audit: {
    target: ({ userId }) => ({ type: 'user', id: userId }),
    metadata: ({ details }) => details ?? {},
    action: ({ change }) => SECURITY_AUDIT_ACTIONS[change],
  },
})

export const AUTH_EVENTS = [passwordChanged, securityChanged]

/** The audit actions auth records (GET /audit/events). */
export const AUTH_AUDIT = defineAuditActions('auth', {
  'auth.account.registered': 'An account registered with e-mail and password',
  'auth.session.signed_in': 'An account signed in (password or passkey)',
  'auth.sign_in.failed': 'A sign-in with e-mail and password failed',
  'auth.session.revoked_all': 'An account signed out everywhere',
  'auth.password.changed': 'An account changed its password; its sessions ended',
  'auth.password.reset': 'An account reset its password by e-mailed link; its sessions ended',
  'auth.api_token.created': 'An API token was made',
  'auth.api_token.revoked': 'An API token was revoked',
  'auth.mfa.enrolled': 'A second factor was added to an account',
  'auth.mfa.removed': 'A second factor was removed from an account',
  'auth.mfa.verified': 'A second factor was used to sign in',
  'auth.mfa.failed': 'A second-factor answer was wrong',
  'auth.recovery.used': 'A recovery code was used to sign in',
  'auth.recovery.regenerated': 'The recovery codes of an account were replaced',
  'auth.mfa.reset': 'An administrator removed the second factors of an account',
})
