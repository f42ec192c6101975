import { Elysia, t } from 'elysia'
import type { Deps } from '../../../deps'
import { originMayUseCookie } from '../../../platform/cors'
import { errors } from '../errors'
import { authError } from '../errors'
import type { Guards } from '../../../platform/guards'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { requestInfo } from '../../../platform/http'
import { clientIp } from '../../../platform/request'
import {
  ApiToken,
  ApiTokenCreated,
  AuthResult,
  AuthUserMethod,
  ChangePasswordBody,
  CreateApiTokenBody,
  FirstRun,
  LoginBody,
  ProfilePatch,
  RefreshBody,
  RefreshResult,
  RegisterBody,
  SlugAvailability,
  AUTH_METHOD_EXAMPLE,
  User,
  UserSelf,
} from '../model'
import type { AuthService } from '../service'
import { IdParam } from '../../../platform/params'
import { type CookieJar, REFRESH_COOKIE, refreshCookie } from './cookie'

export function accountRoutes(auth: AuthService, guards: Guards, deps: Pick<Deps, 'config'>) {
  const refresh = refreshCookie(deps.config)
  const presentedRefresh = (body: { refreshToken?: string } | null | undefined, cookie: CookieJar, headers: Record<string, string | undefined>) => {
    if (body?.refreshToken) return body.refreshToken
    const fromCookie = cookie[REFRESH_COOKIE]?.value
    if (typeof fromCookie !== 'string' || !fromCookie) return undefined
    if (!originMayUseCookie(headers, deps.config.publicUrl, deps.config.corsOrigins)) {
      throw authError(403, 'origin_not_allowed', 'This origin may not use the refresh cookie (CORS_ORIGINS)')
    }
    return fromCookie
  }

  return new Elysia({ name: 'auth', prefix: '/auth', detail: { tags: ['auth'] } })
    .use(guards.auth)
    .get('/first-run', () => auth.accounts.firstRun(), {
      response: { 200: FirstRun },
      detail: {
        operationId: 'authFirstRun',
        summary: 'Whether this instance has an account yet (public)',
        description:
          'For a sign-in page: on a fresh instance (`firstAccount: true`) it offers to create the first account, which becomes the platform admin when ADMIN_EMAILS is empty (POST /auth/register). `registration` says whether e-mail and password registration is enabled.',
      },
    })
    .post(
      '/register',
      async ({ body, request, server, cookie, status }) => {
        const result = await auth.accounts.register(body, requestInfo(request, server, deps.config.trustProxy))
        refresh.keep(cookie, result.refreshToken)
        return status(201, result)
      },
      {
        body: RegisterBody,
        response: { 201: AuthResult, ...errors(400, 413, { 403: ['registration_disabled'], 409: ['email_taken'] }) },
        detail: {
          operationId: 'authRegister',
          summary: 'Create an account and sign in',
          description:
            'E-mail is unique regardless of case (409 `email_taken`). 403 `registration_disabled` when the `password` sign-in method is switched off. Also sets the httpOnly `ecobase_refresh` cookie for browsers. With no ADMIN_EMAILS configured, the first account gets the `admin` capability.',
        },
      },
    )
    .post(
      '/login',
      async ({ body, request, server, cookie }) => {
        const ip = clientIp(request, server, deps.config.trustProxy)
        const result = await auth.accounts.login(body, ip, requestInfo(request, server, deps.config.trustProxy))
        refresh.keep(cookie, result.refreshToken)
        return result
      },
      {
        body: LoginBody,
        response: { 200: AuthResult, ...errors(400, { 401: ['invalid_credentials'], 429: ['rate_limited'] }) },
        detail: {
          operationId: 'authLogin',
          summary: 'Sign in with e-mail and password',
          description:
            'Wrong e-mail or password: 401 `invalid_credentials` (the same for both). Throttled per e-mail (failures) and per client address (attempts): 429 `rate_limited` with Retry-After.',
        },
      },
    )
    .post(
      '/refresh',
      async ({ body, cookie, headers }) => {
        const raw = presentedRefresh(body, cookie as CookieJar, headers)
        const issued = await auth.sessions.refresh(raw ?? '')
        refresh.keep(cookie, issued.refreshToken)
        return { token: issued.token, refreshToken: issued.refreshToken }
      },
      {
        body: RefreshBody,
        response: { 200: RefreshResult, ...errors(400, { 401: ['invalid_refresh_token'], 403: ['origin_not_allowed'] }) },
        detail: {
          operationId: 'authRefresh',
          summary: 'Rotate the refresh token',
          description:
            'Reads the refresh token from the JSON body `{ "refreshToken" }` or else from the `ecobase_refresh` cookie. Each refresh token works once; presenting a used one revokes its whole session (reuse detection). 401 `invalid_refresh_token` otherwise. The cookie is used only for requests without an `Origin` header, from the service\'s own origin (`PUBLIC_URL`, or any that the browser marks `Sec-Fetch-Site: same-origin`) or from a CORS_ORIGINS origin (403 `origin_not_allowed` otherwise), since a cross-site page can post without a preflight.',
        },
      },
    )
    .post(
      '/revoke',
      async ({ body, cookie, headers, status }) => {
        const raw = presentedRefresh(body, cookie as CookieJar, headers)
        if (raw) await auth.sessions.revokeByRefresh(raw)
        refresh.clear(cookie)
        return status(204, undefined)
      },
      {
        body: RefreshBody,
        response: { 204: t.Void({ description: 'Signed out' }), ...errors(400, { 403: ['origin_not_allowed'] }) },
        detail: {
          operationId: 'authRevoke',
          summary: 'Sign out (revoke the session of a refresh token)',
          description:
            'Takes the refresh token like /auth/refresh (and refuses the cookie from other origins likewise, 403 `origin_not_allowed`). Unknown tokens are ignored: 204.',
        },
      },
    )
    .get('/me', async ({ principal }) => ({ ...(await auth.accounts.me(principal)), aal: principal.assurance?.aal ?? 'aal2' }), {
      auth: true,
      response: {
        200: UserSelf,
        ...errors(401),
      },
      detail: {
        operationId: 'authMe',
        summary: 'The signed-in user',
        description:
          'User plus `emailVerified` (see /auth/verify-email), the credential’s `aal` and the account’s second factors (`mfa`, read from the account on every request, never from the token). Reachable at `aal1` by an account with a second factor, as are `/auth/mfa/*`, `/auth/passkeys/*` and sign-out (POST /auth/revoke).',
      },
    })
    .patch('/me', ({ principal, body }) => auth.accounts.updateProfile(principal, body), {
      auth: true,
      body: ProfilePatch,
      response: { 200: User, ...errors(400, 401, 404, { 403: ['mfa_required'], 409: ['slug_taken'] }) },
      detail: {
        operationId: 'authUpdateMe',
        summary: 'Update name and/or slug',
        description:
          'At least one property. 409 `slug_taken` when another account holds the slug. Needs `aal2` while the account has a second factor (403 `mfa_required` for a password sign-in that has not verified it).',
      },
    })
    .get('/slug-available/:slug', ({ principal, params }) => auth.accounts.slugAvailable(principal, params.slug), {
      auth: true,
      params: t.Object({ slug: t.String({ maxLength: 255 }) }),
      response: { 200: SlugAvailability, ...errors(400, 401) },
      detail: {
        operationId: 'authSlugAvailable',
        summary: 'Whether a slug is free and well-formed',
        description:
          '`available: false` with `reason: "format"` (2–64 of a–z 0–9 _ -, starting with a letter or digit) or `"taken"` (another account holds it). The caller’s own slug counts as available. Set it with PATCH /auth/me.',
      },
    })
    .post(
      '/revoke-all',
      async ({ principal, status }) => {
        await auth.signOutEverywhere(principal)
        return status(204, undefined)
      },
      {
        auth: true,
        response: { 204: t.Void({ description: 'All sessions revoked' }), ...errors(401, { 403: ['mfa_required', 'interactive_session_required'] }) },
        detail: {
          operationId: 'authRevokeAll',
          summary: 'Sign out everywhere (revoke every session)',
          description:
            'Revokes every session of the account, this one included, on every replica at once (their refresh tokens stop working; access tokens are refused at their next request). API tokens stay valid: delete them with DELETE /auth/tokens/{id}. Recorded in the audit log (`auth.session.revoked_all`). From a signed-in session (API tokens: 403 `interactive_session_required`) at `aal2` while the account has a second factor (403 `mfa_required`: a password alone does not end the owner’s verified sessions).',
        },
      },
    )
    .post(
      '/change-password',
      async ({ principal, body, status }) => {
        await auth.accounts.changePassword(principal, body)
        return status(204, undefined)
      },
      {
        auth: true,
        body: ChangePasswordBody,
        response: {
          204: t.Void({ description: 'Password changed; every session revoked' }),
          ...errors(400, { 401: ['unauthorized', 'invalid_credentials'], 403: ['mfa_required', 'interactive_session_required'] }),
        },
        detail: {
          operationId: 'authChangePassword',
          summary: 'Change the password',
          description:
            'Wrong current password: 401 `invalid_credentials`. New password under 8 characters: 400. Revokes every session of the account, this one included; no new tokens are issued, so sign in again. The account’s address is told by e-mail (“Your password was changed”). From a signed-in session (API tokens: 403 `interactive_session_required`) at `aal2` while the account has a second factor.',
        },
      },
    )
    .get('/tokens', ({ principal, query }) => auth.apiTokens.list(principal, pageParams(query)), {
      auth: true,
      query: PageQuery,
      response: { 200: paged(ApiToken, 'ApiTokenPage'), ...errors(400, 401, { 403: ['mfa_required', 'interactive_session_required'] }) },
      detail: {
        operationId: 'authListTokens',
        summary: 'List API tokens (newest first; never the secret)',
        description:
          'The account’s own `eco_…` tokens with their name, prefix, expiry and last use; the raw token was shown only when it was created. From a signed-in session: API tokens get 403 `interactive_session_required`.',
      },
    })
    .post('/tokens', async ({ principal, body, status }) => status(201, await auth.apiTokens.create(principal, body)), {
      auth: true,
      body: CreateApiTokenBody,
      response: { 201: ApiTokenCreated, ...errors(400, 401, { 403: ['mfa_required', 'interactive_session_required'] }) },
      detail: {
        operationId: 'authCreateToken',
        summary: 'Create an API token',
        description:
          'The raw `token` is returned exactly once and stored only as a hash. It works as a bearer credential wherever an account access token does (acting without a second factor: it is made from a session that verified one, 403 `mfa_required` otherwise, when the account has one), except on the credential routes: an API token cannot manage second factors, passkeys, recovery codes, API tokens, sessions or the password (403 `interactive_session_required`, whatever its owner’s role), so this needs a signed-in session. Under an organization’s `requireMfa`, it acts in that organization’s ecosystems only while its account has a verified second factor.',
      },
    })
    .delete(
      '/tokens/:id',
      async ({ principal, params, status }) => {
        await auth.apiTokens.remove(principal, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }), ...errors(400, 401, 404, { 403: ['mfa_required', 'interactive_session_required'] }) },
        detail: {
          operationId: 'authDeleteToken',
          summary: 'Delete an API token',
          description:
            'The token stops working at once, on every replica, also for streams opened with it (they end within seconds). Another account’s token or an unknown id: 404. Recorded in the audit log (`auth.api_token.revoked`). From a signed-in session (API tokens: 403 `interactive_session_required`).',
        },
      },
    )
    .get('/methods', ({ principal }) => auth.accounts.methods(principal), {
      auth: true,
      response: { 200: t.Array(AuthUserMethod, { examples: [[AUTH_METHOD_EXAMPLE]] }), ...errors(401) },
      detail: {
        operationId: 'authListMethods',
        summary: "The caller's sign-in methods",
        description:
          'One entry per way the account signs in: `password` or an outside provider, with `providerId` (the provider’s subject; the e-mail for `password`). `hasCredential` says whether a password is set; the hash itself never leaves the server.',
      },
    })
}
