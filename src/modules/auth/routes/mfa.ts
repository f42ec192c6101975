import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { IdParam } from '../../../platform/params'
import { errors } from '../errors'
import { AuthResult, MfaVerifyBody, RecoveryCodes, TotpConfirmed, TotpEnrollment } from '../model'
import type { AuthService } from '../service'

const AAL2 = 'Needs `aal2` (a second factor verified in this session) while the account has a factor: 403 `mfa_required` otherwise.'

/** Second factors of the signed-in account (tag `auth`). Reachable at `aal1`, which is how one gets to `aal2`. */
export function mfaRoutes(auth: AuthService, guards: Guards) {
  return new Elysia({ name: 'auth-mfa', prefix: '/auth/mfa', detail: { tags: ['auth'] } })
    .use(guards.auth)
    .post('/totp', ({ principal, body }) => auth.mfa.enrollTotp(principal, body.name), {
      auth: true,
      body: t.Object({ name: t.String({ minLength: 1, maxLength: 100, description: 'What the user calls the device' }) }, { title: 'TotpEnroll' }),
      response: { 200: TotpEnrollment, ...errors(400, 401, 403) },
      detail: {
        operationId: 'authMfaTotpEnroll',
        summary: 'Start a TOTP factor: its secret and QR code',
        description: `The factor counts once a code from it is confirmed. Adding a second factor: ${AAL2}`,
      },
    })
    .post('/totp/:id/confirm', ({ principal, params, body }) => auth.mfa.confirmTotp(principal, params.id, body.code), {
      auth: true,
      params: IdParam,
      body: t.Object({ code: t.String({ pattern: '^[0-9]{6}$' }) }, { title: 'TotpConfirm' }),
      response: { 200: TotpConfirmed, ...errors(401, 403, 404, { 400: ['validation_failed', 'invalid_code'], 409: ['conflict'], 429: ['rate_limited'] }) },
      detail: {
        operationId: 'authMfaTotpConfirm',
        summary: 'Confirm a TOTP factor with a code from it',
        description:
          'On the account’s first factor, ten recovery codes come back (shown once, stored hashed). The session that confirms it is `aal2` from its next refresh; from now on a password sign-in is `aal1` until a code is verified. Each 30-second step is accepted once (±1 step for clock drift). Wrong codes are throttled per account like sign-ins (429).',
      },
    })
    .post('/verify', ({ principal, body }) => auth.mfa.verify(principal, body as { code?: string; recoveryCode?: string }), {
      auth: true,
      body: MfaVerifyBody,
      response: { 200: AuthResult, ...errors(401, { 400: ['validation_failed', 'invalid_code'], 429: ['rate_limited'] }) },
      detail: {
        operationId: 'authMfaVerify',
        summary: 'Step up to aal2 with a code or a recovery code',
        description:
          'New tokens for the same session at `aal2` (refreshes keep it); its refresh tokens not used yet stop working. A recovery code works once. Every attempt is an audit event and an “account security” e-mail; wrong ones are throttled per account (429).',
      },
    })
    .post('/recovery-codes', ({ principal }) => auth.mfa.regenerateRecoveryCodes(principal), {
      auth: true,
      response: { 200: RecoveryCodes, ...errors(401, 403, { 409: ['conflict'] }) },
      detail: { operationId: 'authMfaRecoveryCodes', summary: 'Replace the ten recovery codes', description: `The old ones stop working. ${AAL2}` },
    })
    .delete(
      '/factors/:id',
      async ({ principal, params, status }) => {
        await auth.mfa.removeFactor(principal, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Removed' }), ...errors(401, 403, 404) },
        detail: { operationId: 'authMfaRemoveFactor', summary: 'Remove a second factor', description: `With the last one the recovery codes go too. ${AAL2}` },
      },
    )
}
