import { Elysia } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../../../platform/errors'
import { OAuthError as OAuthFailure } from '../errors'
import { ExchangeRequest, OAuthError, OAuthUser, RefreshRequest, RevokeRequest, RevokeResult, TokenResponse } from '../model'
import type { OauthService } from '../service'
import type { TokenRequest } from '../tokens'
import { parseTokenBody, tokenRequest, tokenRequestBody } from './token-request'
import { OAUTH_PATHS } from '../paths'

const oauthErrors = { 400: OAuthError, 401: OAuthError }

/** The token endpoints take form-encoded bodies (as OAuth clients send them) as well as JSON. */
export const FORM_BODY_PATHS = [OAUTH_PATHS.token, OAUTH_PATHS.refresh, OAUTH_PATHS.revoke]

type Set = { headers: Record<string, string | number> }
type Status = (code: 400 | 401, body: { error: string; error_description: string }) => unknown

/** Runs a token-endpoint call: no caching (RFC 6749 §5.1), and OAuthError as the RFC 6749 body. */
async function answer<T>(req: TokenRequest, set: Set, status: Status, run: (req: TokenRequest) => Promise<T>) {
  set.headers['cache-control'] = 'no-store'
  set.headers.pragma = 'no-cache'
  try {
    return await run(req)
  } catch (err) {
    if (!(err instanceof OAuthFailure)) throw err
    if (err.error === 'invalid_client' && req.basic) set.headers['www-authenticate'] = 'Basic realm="ecobase"'
    return status(err.status, err.body()) as never
  }
}

const ERRORS_DOC =
  'Errors answer `{ "error", "error_description" }` (RFC 6749 §5.2): 400 `invalid_request` (a parameter missing, repeated or malformed; wrong grant_type), 400 `invalid_grant`, 401 `invalid_client` (wrong client_id or client_secret).'

/** The endpoints client applications call with their credentials, and the token check. */
export function tokenRoutes(oauth: OauthService, guards: Guards) {
  return new Elysia({ name: 'oauth-token', detail: { tags: ['oauth'] } })
    .use(guards.auth)
    .post(
      OAUTH_PATHS.token,
      ({ body, headers, set, status }) => answer(tokenRequest(body, headers.authorization), set, status, (r) => oauth.tokens.exchange(r)),
      {
        parse: parseTokenBody,
        response: { 200: TokenResponse, ...oauthErrors },
        detail: {
          operationId: 'oauthExchange',
          summary: 'Exchange an authorization code for tokens (the token endpoint)',
          description: `Call from the client's server. Client authentication: \`client_id\` + \`client_secret\` in the body, or HTTP Basic. The code lives OAUTH_CODE_TTL_SECONDS (60 s) and works once (an exchange by its own client uses it up even when redirect_uri or the verifier is wrong), and presenting it again also revokes the tokens it issued. 400 \`invalid_grant\`: code used, expired, issued to another client, or redirect_uri differs. 401 \`invalid_verifier\`: the PKCE code_verifier does not match. As the token endpoint of the metadata, it also serves \`grant_type=refresh_token\` exactly like POST /api/auth/refresh. ${ERRORS_DOC}`,
          requestBody: tokenRequestBody(ExchangeRequest, 'Form-encoded (as standard OAuth clients send) or JSON'),
        },
      },
    )
    .post(
      OAUTH_PATHS.refresh,
      ({ body, headers, set, status }) => answer(tokenRequest(body, headers.authorization), set, status, (r) => oauth.tokens.refresh(r)),
      {
        parse: parseTokenBody,
        response: { 200: TokenResponse, ...oauthErrors },
        detail: {
          operationId: 'oauthRefresh',
          summary: 'Refresh an OAuth grant (rotates the refresh token)',
          description: `Returns a new access token and a new refresh token; store both. Each refresh token works once: presenting a used one revokes the whole grant (reuse detection), and of concurrent refreshes with one token exactly one succeeds. 400 \`invalid_grant\`: the refresh token is revoked, expired or already used — the user must authorize again. 400 \`invalid_scope\`: \`scope\` asks for more than was granted. ${ERRORS_DOC}`,
          requestBody: tokenRequestBody(RefreshRequest, 'Form-encoded or JSON'),
        },
      },
    )
    .post(
      OAUTH_PATHS.revoke,
      ({ body, headers, set, status }) =>
        answer(tokenRequest(body, headers.authorization), set, status, async (r) => {
          await oauth.tokens.revoke(r)
          return { revoked: true as const }
        }),
      {
        parse: parseTokenBody,
        response: { 200: RevokeResult, ...oauthErrors },
        detail: {
          operationId: 'oauthRevoke',
          summary: 'Revoke a grant by its refresh token (RFC 7009)',
          description: `Ends the grant the token belongs to: its refresh token and access tokens stop working at once. 200 also for unknown tokens or tokens of other clients (RFC 7009 §2.2). 401 \`invalid_client\` for bad client credentials; 400 \`invalid_request\` without \`token\`.`,
          requestBody: tokenRequestBody(RevokeRequest, 'Form-encoded or JSON'),
        },
      },
    )
    .get(OAUTH_PATHS.me, ({ principal }) => oauth.me(principal), {
      scope: 'profile',
      response: { 200: OAuthUser, ...errors(401, 403) },
      detail: {
        operationId: 'oauthMe',
        summary: 'The user behind an access token (check a token)',
        description:
          'Takes an OAuth access token with the `profile` scope (or an account credential). `email` is present only with the `email` scope. 401 `token_expired` once the access token has expired: refresh and retry once; 401 `unauthorized` after revocation; 403 `insufficient_scope` without `profile`.',
      },
    })
}
