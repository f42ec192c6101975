import { t } from 'elysia'
import { User } from '../auth/model'
import { SCOPES, SCOPE_NAMES } from './scopes'
import { OAUTH_PATHS } from './paths'

const scopeList = SCOPE_NAMES.map((s) => `\`${s}\``).join(', ')
const ScopeName = t.String({ minLength: 1, maxLength: 64, description: `One of ${scopeList}` })
const RedirectUri = t.String({
  minLength: 1,
  maxLength: 2000,
  description: 'Absolute https URL (http only on localhost/127.0.0.1/[::1]); no fragment. Matched exactly.',
})

export const OAuthClient = t.Object(
  {
    id: t.String({ format: 'uuid', description: 'Id of the registration, for /oauth/clients/{id}' }),
    clientId: t.String({ description: 'The public OAuth `client_id`' }),
    name: t.String(),
    redirectUris: t.Array(t.String()),
    scopes: t.Array(t.String(), { description: 'Scopes the client may ask for' }),
    createdAt: t.String(),
    updatedAt: t.String(),
  },
  { title: 'OAuthClient' },
)

export const OAuthClientCreated = t.Composite(
  [OAuthClient, t.Object({ clientSecret: t.String({ description: 'The client secret; returned exactly once, stored hashed' }) })],
  { title: 'OAuthClientCreated' },
)

export const CreateClientBody = t.Object({
  name: t.String({ minLength: 1, maxLength: 100, description: 'Shown to users on the consent page' }),
  redirectUris: t.Array(RedirectUri, { minItems: 1, maxItems: 20 }),
  scopes: t.Optional(t.Array(ScopeName, { minItems: 1, maxItems: 50, description: 'Default: `profile`, `email`' })),
}, { title: 'OAuthCreateClient', examples: [{ name: 'Acme web', redirectUris: ['https://app.example.com/callback'], scopes: ['openid', 'profile', 'email'] }] })

export const UpdateClientBody = t.Object(
  {
    name: t.Optional(CreateClientBody.properties.name),
    redirectUris: t.Optional(CreateClientBody.properties.redirectUris),
    scopes: t.Optional(t.Array(ScopeName, { minItems: 1, maxItems: 50 })),
  },
  { title: 'OAuthUpdateClient', examples: [{ redirectUris: ['https://app.example.com/callback', 'http://localhost:5173/callback'] }], minProperties: 1 },
)

export const OAuthGrant = t.Object(
  {
    id: t.String({ format: 'uuid' }),
    clientId: t.String({ description: 'The application’s public `client_id`' }),
    clientName: t.String(),
    scopes: t.Array(t.String()),
    createdAt: t.String(),
    lastUsedAt: t.Nullable(t.String({ description: 'Last refresh' })),
    expiresAt: t.String({ description: 'When the refresh token lapses unless used' }),
  },
  { title: 'OAuthGrant' },
)

const param = (description: string) => t.String({ maxLength: 2000, description })
export const AuthorizeBody = t.Object({
  response_type: param('`code`'),
  client_id: param('The client application identifier'),
  redirect_uri: param('One of the client’s registered redirect URIs, exactly'),
  scope: t.Optional(param(`Space-separated scopes (${scopeList}); default: all the client may ask for`)),
  state: t.Optional(param('Opaque value returned unchanged in the redirect')),
  code_challenge: param('PKCE: BASE64URL(SHA-256(code_verifier))'),
  code_challenge_method: param('`S256` (the only method accepted)'),
}, { title: 'OAuthAuthorize', examples: [{ response_type: 'code', client_id: 'cli_acme_web', redirect_uri: 'https://app.example.com/callback', scope: 'profile email', state: 'x7Kp2Qm9', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256' }] })

export const AuthorizeResult = t.Object(
  {
    redirectTo: t.String({ description: '`redirect_uri` with `code`, `state` and `iss` added; send the browser there' }),
    code: t.String({ description: 'The authorization code (single use)' }),
    state: t.Optional(t.String({ description: 'The `state` of the request, when it had one' })),
  },
  { title: 'OAuthAuthorizeResult' },
)

/** The RFC 6749 §5.2 error body of the token, refresh and revoke endpoints. */
export const OAuthError = t.Object(
  {
    error: t.String({
      description:
        '`invalid_request` (400), `invalid_grant` (400), `invalid_scope` (400), `invalid_client` (401), `invalid_verifier` (401)',
    }),
    error_description: t.String({ description: 'Human-readable explanation' }),
  },
  { title: 'OAuthError' },
)

export const TokenResponse = t.Object(
  {
    access_token: t.String({ description: 'JWT (`typ` `oauth`); send as `Authorization: Bearer <token>`' }),
    refresh_token: t.String({ description: 'Opaque and single-use; replace the stored one with it' }),
    expires_in: t.Integer({ description: 'Seconds until the access token expires (OAUTH_ACCESS_TOKEN_TTL_SECONDS)' }),
    token_type: t.Literal('Bearer'),
    scope: t.String({ description: 'Granted scopes, space-separated' }),
  },
  { title: 'OAuthTokenResponse' },
)

const clientFields = {
  client_id: t.Optional(t.String({ description: 'Required unless the client authenticates with HTTP Basic' })),
  client_secret: t.Optional(t.String({ description: 'Required unless the client authenticates with HTTP Basic; server-side only' })),
}

export const ExchangeRequest = t.Object(
  {
    grant_type: t.String({ description: '`authorization_code` (`refresh_token` is also served here, as standard clients expect)' }),
    code: t.String({ description: 'The authorization code' }),
    redirect_uri: t.String({ description: 'Equal to the redirect URI the code was issued for' }),
    code_verifier: t.String({ description: 'The PKCE verifier matching the code_challenge' }),
    ...clientFields,
  },
  { title: 'OAuthExchangeRequest', examples: [{ grant_type: 'authorization_code', code: 'ac_4Fh8Kq2mX9pL', redirect_uri: 'https://app.example.com/callback', code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', client_id: 'cli_acme_web' }] },
)

export const RefreshRequest = t.Object(
  {
    grant_type: t.String({ description: '`refresh_token`' }),
    refresh_token: t.String(),
    scope: t.Optional(t.String({ description: 'Optional narrower set of the granted scopes' })),
    ...clientFields,
  },
  { title: 'OAuthRefreshRequest', examples: [{ grant_type: 'refresh_token', refresh_token: 'ort_8Jk3nB6vX1qL', client_id: 'cli_acme_web' }] },
)

export const RevokeRequest = t.Object(
  {
    token: t.String({ description: 'A refresh token (an access token of the grant also works)' }),
    token_type_hint: t.Optional(t.String({ description: '`refresh_token` or `access_token` (optional)' })),
    ...clientFields,
  },
  { title: 'OAuthRevokeRequest', examples: [{ token: 'ort_8Jk3nB6vX1qL', token_type_hint: 'refresh_token', client_id: 'cli_acme_web' }] },
)

export const RevokeResult = t.Object(
  { revoked: t.Literal(true, { description: 'Always true: unknown tokens are answered the same way (RFC 7009)' }) },
  { title: 'OAuthRevokeResult' },
)

export const OAuthUser = t.Composite(
  [t.Omit(User, ['email']), t.Object({ email: t.Optional(t.String({ description: 'Only with the `email` scope' })) })],
  { title: 'OAuthUser' },
)

export const AuthorizationServerMetadata = t.Object(
  {
    issuer: t.String(),
    authorization_endpoint: t.String(),
    token_endpoint: t.String({ description: 'POST /api/oauth/signin/exchange' }),
    revocation_endpoint: t.String({ description: 'POST /api/auth/revoke' }),
    ecobase_refresh_endpoint: t.String({ description: 'POST /api/auth/refresh (the token endpoint refreshes too)' }),
    ecobase_me_endpoint: t.String({ description: 'GET /api/auth/me' }),
    scopes_supported: t.Array(t.String()),
    response_types_supported: t.Array(t.String()),
    response_modes_supported: t.Array(t.String()),
    grant_types_supported: t.Array(t.String()),
    token_endpoint_auth_methods_supported: t.Array(t.String()),
    revocation_endpoint_auth_methods_supported: t.Array(t.String()),
    code_challenge_methods_supported: t.Array(t.String()),
    authorization_response_iss_parameter_supported: t.Boolean(),
    service_documentation: t.String(),
  },
  { title: 'OAuthAuthorizationServerMetadata' },
)

/** The scopes, for OpenAPI's oauth2 security scheme. */
export const SCOPE_DESCRIPTIONS: Record<string, string> = { ...SCOPES }

/** OpenAPI security scheme of OAuth access tokens; routes with `scope: 'x'` name it with their scope. */
export const oauthSecuritySchemes = {
  oauth2: {
    type: 'oauth2' as const,
    description: 'OAuth 2.0 authorization code with PKCE (S256) for client applications; access tokens are sent as Bearer.',
    flows: {
      authorizationCode: {
        authorizationUrl: OAUTH_PATHS.authorize,
        tokenUrl: OAUTH_PATHS.token,
        refreshUrl: OAUTH_PATHS.refresh,
        scopes: SCOPE_DESCRIPTIONS,
      },
    },
  },
}
