import { Elysia } from 'elysia'
import { randomToken } from '../../../platform/crypto'
import { errors } from '../errors'
import type { Guards } from '../../../platform/guards'
import { AUTHORIZATION_PARAMS, type AuthorizationParams } from '../authorize'
import { consentPage, errorPage, pageHeaders } from '../consent-page'
import { AuthorizationServerMetadata, AuthorizeBody, AuthorizeResult } from '../model'
import { SCOPES } from '../scopes'
import { OAUTH_PATHS } from '../paths'
import type { OauthService } from '../service'

const html = (description: string) => ({ description, content: { 'text/html': { schema: { type: 'string' as const } } } })

const queryParameters = AUTHORIZATION_PARAMS.map((name) => ({
  name,
  in: 'query',
  required: name !== 'scope' && name !== 'state',
  schema: AuthorizeBody.properties[name],
}))

/** The query of an authorization request, and the names that appear more than once. */
function authorizationQuery(url: URL): { params: AuthorizationParams; duplicated: string[] } {
  const params: Record<string, string> = {}
  const duplicated: string[] = []
  for (const name of AUTHORIZATION_PARAMS) {
    const values = url.searchParams.getAll(name)
    if (values.length > 1) duplicated.push(name)
    if (values.length) params[name] = values[0]!
  }
  return { params, duplicated }
}

/** The authorization step (GET: the page a client sends the browser to; POST: the approval) and the metadata. */
export function authorizeRoutes(oauth: OauthService, guards: Guards, consentUrl: string | null) {
  return new Elysia({ name: 'oauth-authorize', detail: { tags: ['oauth'] } })
    .use(guards.auth)
    .get(
      OAUTH_PATHS.authorize,
      async ({ request, redirect }) => {
        const url = new URL(request.url)
        const { params, duplicated } = authorizationQuery(url)
        const checked = await oauth.authorizations.check(params, duplicated)
        const nonce = randomToken(16)
        if (checked.kind === 'fatal') return new Response(errorPage(nonce, checked.message), { status: 400, headers: pageHeaders(nonce) })
        if (checked.kind === 'error') return redirect(checked.redirectTo, 302)
        if (consentUrl) return redirect(consentUrl + (consentUrl.includes('?') ? '&' : '?') + url.search.slice(1), 302)
        const page = consentPage({
          nonce,
          clientName: checked.client.name,
          scopes: checked.scopes.map((name) => ({ name, description: SCOPES[name] })),
          request: {
            response_type: 'code',
            client_id: checked.client.clientId,
            redirect_uri: checked.redirectUri,
            scope: checked.scopes.join(' '),
            code_challenge: checked.codeChallenge,
            code_challenge_method: 'S256',
            ...(checked.state !== undefined && { state: checked.state }),
          },
          denyUrl: oauth.authorizations.deniedRedirect(checked.redirectUri, checked.state),
        })
        return new Response(page, { headers: pageHeaders(nonce) })
      },
      {
        detail: {
          operationId: 'oauthAuthorizePage',
          summary: 'Start authorization: the page a client application sends the browser to',
          description:
            'The standard authorization request (RFC 6749 §4.1.1) with PKCE S256 required. An unknown `client_id` or a `redirect_uri` not registered exactly answers a 400 HTML error page and never redirects. Other problems redirect to `redirect_uri` with `error` (`invalid_request`, `unsupported_response_type`, `invalid_scope`), `error_description`, `state` and `iss`. A valid request gets the built-in sign-in + consent page, or, when OAUTH_CONSENT_URL is set, a redirect there with the same query. Approving leads to `redirect_uri?code=…&state=…&iss=…`; declining to `error=access_denied`.',
          parameters: queryParameters,
          responses: {
            200: html('The sign-in and consent page'),
            302: {
              description: 'To `redirect_uri` with an error, or to OAUTH_CONSENT_URL',
              headers: { Location: { description: 'Where the browser goes', schema: { type: 'string' } } },
            },
            400: html('Error page: unknown client or unregistered redirect URI'),
          },
        },
      },
    )
    .post(OAUTH_PATHS.authorize, ({ principal, body }) => oauth.authorizations.approve(principal.userId, body), {
      auth: true,
      body: AuthorizeBody,
      response: {
        200: AuthorizeResult,
        ...errors(401, {
          400: ['validation_failed', 'invalid_request', 'invalid_client', 'invalid_redirect_uri', 'invalid_scope', 'unsupported_response_type'],
        }),
      },
      detail: {
        operationId: 'oauthAuthorize',
        summary: 'Approve an authorization request for the signed-in user (issues the code)',
        description:
          'What a first-party consent page calls after the user approves, with the parameters of the authorization request. Account credentials only. Send the browser to `redirectTo`. 400 codes: `invalid_client` (unknown client_id), `invalid_redirect_uri` (not registered exactly), `invalid_request` (missing or malformed parameter, PKCE missing or not S256), `unsupported_response_type`, `invalid_scope`.',
      },
    })
    .get(OAUTH_PATHS.metadata, () => oauth.metadata(), {
      response: { 200: AuthorizationServerMetadata },
      detail: {
        operationId: 'oauthMetadata',
        summary: 'Authorization server metadata (RFC 8414)',
        description:
          'Names every OAuth endpoint. `token_endpoint` is POST /api/oauth/signin/exchange (it also refreshes); `ecobase_refresh_endpoint` and `ecobase_me_endpoint` name POST /api/auth/refresh and GET /api/auth/me.',
      },
    })
}
