import { Elysia, t } from 'elysia'
import { errors } from '../errors'
import type { Guards } from '../../../platform/guards'
import { requestInfo } from '../../../platform/http'
import { clientIp } from '../../../platform/request'
import { ACCOUNT_EMAIL_LIMITS, type AccountEmails } from '../account-emails'
import { Email, NewPassword } from '../model'

const Token = t.String({ minLength: 1, maxLength: 200 })
const LIMITS = `Rate limited (429 with Retry-After): ${ACCOUNT_EMAIL_LIMITS.perIp} requests per client address and ${ACCOUNT_EMAIL_LIMITS.perAddress} per address or account per hour.`
const Accepted = t.Object({}, { title: 'AuthAccepted', description: 'Accepted; an e-mail follows if there is someone to send it to', examples: [{}] })

/** Password reset and e-mail verification (tag `auth`). */
export function accountEmailRoutes(emails: AccountEmails, guards: Guards, trustProxy: boolean) {
  return new Elysia({ name: 'account-emails', prefix: '/auth', detail: { tags: ['auth'] } })
    .use(guards.auth)
    .post(
      '/password-reset/request',
      async ({ body, request, server, set }) => {
        await emails.requestReset(body.email, clientIp(request, server, trustProxy))
        set.status = 202
        return {}
      },
      {
        body: t.Object({ email: Email }, { title: 'AuthPasswordResetRequest', examples: [{ email: 'ada@example.com' }] }),
        response: { 202: Accepted, ...errors(400, { 429: ['rate_limited'] }) },
        detail: {
          operationId: 'authPasswordResetRequest',
          summary: 'E-mail a password-reset token',
          description: `Always 202, whether or not the address has an account (the answer and its timing tell nothing). The account's address gets a single-use token valid 30 minutes, as a link to PASSWORD_RESET_URL when set. ${LIMITS}`,
          security: [],
        },
      },
    )
    .post(
      '/password-reset/confirm',
      async ({ body, request, server, status }) => {
        await emails.confirmReset(body.token, body.newPassword, requestInfo(request, server, trustProxy))
        return status(204, undefined)
      },
      {
        body: t.Object(
          { token: Token, newPassword: NewPassword },
          { title: 'AuthPasswordResetConfirm', examples: [{ token: 'prt_7Gm2kQ9xL4vB1nW8', newPassword: 'a longer passphrase for 2027' }] },
        ),
        response: {
          204: t.Void({ description: 'Password set; every session of the account revoked' }),
          ...errors({ 400: ['validation_failed', 'invalid_token'] }),
        },
        detail: {
          operationId: 'authPasswordResetConfirm',
          summary: 'Set a new password with a reset token',
          description:
            '400 `invalid_token` when the token is unknown, expired or used. Revokes every session; sign in with the new password. Also marks the address verified.',
          security: [],
        },
      },
    )
    .post(
      '/verify-email/request',
      async ({ principal, request, server, set }) => {
        await emails.requestVerification(principal, clientIp(request, server, trustProxy))
        set.status = 202
        return {}
      },
      {
        auth: true,
        response: { 202: Accepted, ...errors(401, 404, { 429: ['rate_limited'] }) },
        detail: {
          operationId: 'authVerifyEmailRequest',
          summary: 'E-mail a verification token to the signed-in account',
          description: `A single-use token valid 24 hours, as a link to VERIFY_EMAIL_URL when set; nothing is sent when the address is already verified. ${LIMITS}`,
        },
      },
    )
    .post('/verify-email/confirm', ({ body }) => emails.confirmVerification(body.token), {
      body: t.Object({ token: Token }, { title: 'AuthVerifyEmailConfirm', examples: [{ token: 'evt_3Hq8mN2xK7pL1vB5' }] }),
      response: {
        200: t.Object({ emailVerified: t.Literal(true) }, { title: 'AuthEmailVerified', examples: [{ emailVerified: true }] }),
        ...errors({ 400: ['validation_failed', 'invalid_token'] }),
      },
      detail: {
        operationId: 'authVerifyEmailConfirm',
        summary: 'Confirm the address with a verification token',
        description:
          '400 `invalid_token` when the token is unknown, expired, used, or the account no longer has that address. /auth/me then shows `emailVerified: true`.',
        security: [],
      },
    })
}
