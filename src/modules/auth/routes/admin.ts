import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { IdParam } from '../../../platform/params'
import { errors } from '../errors'
import { AdminUser, AdminUserQuery } from '../model'
import type { AuthService } from '../service'

const ADMINS = 'Platform admins only (403 `forbidden`); from a session at `aal2` while the admin’s account has a factor (403 `mfa_required`).'

/** What platform admins see and do about other accounts (tag `auth`). */
export function adminRoutes(auth: AuthService, guards: Guards) {
  return new Elysia({ name: 'auth-admin', prefix: '/auth/admin', detail: { tags: ['auth'] } })
    .use(guards.auth)
    .get('/users', ({ query }) => auth.admin.list(query, pageParams(query)), {
      admin: true,
      query: t.Composite([PageQuery, AdminUserQuery]),
      response: { 200: paged(AdminUser, 'AdminUserPage'), ...errors(400, 401, { 403: ['forbidden', 'mfa_required'] }) },
      detail: {
        operationId: 'authAdminListUsers',
        summary: 'Accounts and their second factors (platform admins)',
        description: `Every account of the instance by e-mail, \`q\` narrowing it to those whose e-mail or name contains it (any case): who it is, whether it is a platform admin, its second factor (\`verified\`, the kinds of its verified factors, recovery codes left) and when its newest session on record began (sessions are kept a week after they end, so an account idle longer shows null). No secret, hash or factor detail beyond that. An account with a verified factor is reset with DELETE /auth/admin/users/{id}/factors. ${ADMINS}`,
      },
    })
    .delete(
      '/users/:id/factors',
      async ({ principal, params, status }) => {
        await auth.mfa.resetByAdmin(principal, params.id)
        return status(204, undefined)
      },
      {
        admin: true,
        params: IdParam,
        response: {
          204: t.Void({ description: 'Every factor, passkey and recovery code removed; every session ended' }),
          ...errors(400, 401, 404, { 403: ['forbidden', 'mfa_required', 'interactive_session_required'] }),
        },
        detail: {
          operationId: 'authAdminResetFactors',
          summary: 'Reset an account’s second factors (platform admins)',
          description:
            'For an owner who lost both the device and the recovery codes: removes every second factor, passkey and recovery code of the account and ends its sessions (it signs in with the password and enrolls anew). Platform admins only (403 `forbidden`), from a signed-in session (403 `interactive_session_required` for API tokens) at `aal2` while the admin’s account has a factor (403 `mfa_required`). Recorded in the audit log (`auth.mfa.reset`, by the admin); the account’s address gets an “account security” e-mail. Unknown account: 404. From the command line: `npx ecobase admin reset-mfa --email E`.',
        },
      },
    )
}
