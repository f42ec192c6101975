import { t } from 'elysia'
import { User } from '../auth/model'
import { SCOPES, SCOPE_NAMES } from './scopes'
import { OAUTH_PATHS } from './paths'
import { Int } from '../../platform/numbers'

const scopeList = SCOPE_NAMES.map((s) => `\`${s}\``).join(', ')
const ScopeName = t.String({ minLength: 1, maxLength: 64, description: `One of ${scopeList}` })
const RedirectUri = t.String({
  minLength: 1,
  maxLength: 2000,
  description: 'Absolute https URL (http only on localhost/127.0.0.1/[::1]); no fragment. Matched exactly.',
})

/** The client the request examples use (`client_id` ecoc_Xk4mQ9vT2pL7wB3nR8sD5fG1), as answers show it. */
const CLIENT_EXAMPLE = {
  id: '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d',
  clientId: 'ecoc_Xk4mQ9vT2pL7wB3nR8sD5fG1',
  name: 'Acme web',
  redirectUris: ['https://app.example.com/callback'],
  scopes: ['profile', 'email'],
  createdAt: '2026-11-26T09:00:00.000Z',
  updatedAt: '2026-11-26T09:00:00.000Z',
}

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
  { title: 'OAuthClient', examples: [CLIENT_EXAMPLE] },
)

export const OAuthClientCreated = t.Composite(
  [OAuthClient, t.Object({ clientSecret: t.String({ description: 'The client secret; returned exactly once, stored hashed' }) })],
  { title: 'OAuthClientCreated', examples: [{ ...CLIENT_EXAMPLE, clientSecret: 'ecos_bm90LWEtcmVhbC1zZWNyZXQtanVzdC1hbi1leGFtcGxl' }] },
)

export const CreateClientBody = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 100, description: 'Shown to users on the consent page' }),
    redirectUris: t.Array(RedirectUri, { minItems: 1, maxItems: 20 }),
    scopes: t.Optional(t.Array(ScopeName, { minItems: 1, maxItems: 50, description: 'Default: `profile`, `email`' })),
  },
  { title: 'OAuthCreateClient', examples: [{ name: 'Acme web', redirectUris: ['https://app.example.com/callback'], scopes: ['profile', 'email'] }] },
)

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
  {
    title: 'OAuthGrant',
    examples: [
      {
        id: '0e9d8c7b-6a5f-4e4d-b3c2-a1f0e9d8c7b6',
        clientId: 'ecoc_Xk4mQ9vT2pL7wB3nR8sD5fG1',
        clientName: 'Acme web',
        scopes: ['profile', 'email'],
        createdAt: '2026-11-26T09:00:00.000Z',
        lastUsedAt: '2026-11-26T10:00:00.000Z',
        expiresAt: '2026-12-26T10:00:00.000Z',
      },
    ],
  },
)

const param = (description: string) => t.String({ maxLength: 2000, description })
export const AuthorizeBody = t.Object(
  {
    response_type: param('`code`'),
    client_id: param('The client application identifier'),
    redirect_uri: param('One of the client’s registered redirect URIs, exactly'),
    scope: t.Optional(param(`Space-separated scopes (${scopeList}); default: all the client may ask for`)),
    state: t.Optional(param('Opaque value returned unchanged in the redirect')),
    code_challenge: param('PKCE: BASE64URL(SHA-256(code_verifier))'),
    code_challenge_method: param('`S256` (the only method accepted)'),
  },
  {
    title: 'OAuthAuthorize',
    examples: [
      {
        response_type: 'code',
        client_id: 'ecoc_Xk4mQ9vT2pL7wB3nR8sD5fG1',
        redirect_uri: 'https://app.example.com/callback',
        scope: 'profile email',
        state: 'x7Kp2Qm9',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      },
    ],
  },
)

export const AuthorizeResult = t.Object(
  {
    redirectTo: t.String({ description: '`redirect_uri` with `code`, `state` and `iss` added; send the browser there' }),
    code: t.String({ description: 'The authorization code (single use)' }),
    state: t.Optional(t.String({ description: 'The `state` of the request, when it had one' })),
  },
  {
    title: 'OAuthAuthorizeResult',
    examples: [
      {
        redirectTo: 'https://app.example.com/callback?code=4Fh8Kq2mX9pLc7Vb2NwQ1eRt&state=x7Kp2Qm9&iss=https%3A%2F%2Fapi.example.com',
        code: '4Fh8Kq2mX9pLc7Vb2NwQ1eRt',
        state: 'x7Kp2Qm9',
      },
    ],
  },
)

/** The RFC 6749 §5.2 error body of the token, refresh and revoke endpoints. */
export const OAuthError = t.Object(
  {
    error: t.String({
      description: '`invalid_request` (400), `invalid_grant` (400), `invalid_scope` (400), `invalid_client` (401), `invalid_verifier` (401)',
    }),
    error_description: t.String({ description: 'Human-readable explanation' }),
  },
  { title: 'OAuthError' },
)

export const TokenResponse = t.Object(
  {
    access_token: t.String({ description: 'JWT (`typ` `oauth`); send as `Authorization: Bearer <token>`' }),
    refresh_token: t.String({ description: 'Opaque and single-use; replace the stored one with it' }),
    expires_in: Int({ description: 'Seconds until the access token expires (OAUTH_ACCESS_TOKEN_TTL_SECONDS)' }),
    token_type: t.Literal('Bearer'),
    scope: t.String({ description: 'Granted scopes, space-separated' }),
  },
  {
    title: 'OAuthTokenResponse',
    examples: [
      {
        access_token: 'eyJhbGciOiJIUzI1NiIsInR5cCI6Im9hdXRoIn0.eyJzdWIiOiI2ZjFjMGEzZSIsInNjb3BlIjoicHJvZmlsZSBlbWFpbCJ9.Vh3k-2w',
        refresh_token: '8Jk3nB6vX1qLz5Hd0MpW3sYa',
        expires_in: 3600,
        token_type: 'Bearer',
        scope: 'profile email',
      },
    ],
  },
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
  {
    title: 'OAuthExchangeRequest',
    examples: [
      {
        grant_type: 'authorization_code',
        code: '4Fh8Kq2mX9pLc7Vb2NwQ1eRt',
        redirect_uri: 'https://app.example.com/callback',
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
        client_id: 'ecoc_Xk4mQ9vT2pL7wB3nR8sD5fG1',
      },
    ],
  },
)

export const RefreshRequest = t.Object(
  {
    grant_type: t.String({ description: '`refresh_token`' }),
    refresh_token: t.String(),
    scope: t.Optional(t.String({ description: 'Optional narrower set of the granted scopes' })),
    ...clientFields,
  },
  {
    title: 'OAuthRefreshRequest',
    examples: [{ grant_type: 'refresh_token', refresh_token: '8Jk3nB6vX1qLz5Hd0MpW3sYa', client_id: 'ecoc_Xk4mQ9vT2pL7wB3nR8sD5fG1' }],
  },
)

export const RevokeRequest = t.Object(
  {
    token: t.String({ description: 'A refresh token (an access token of the grant also works)' }),
    token_type_hint: t.Optional(t.String({ description: '`refresh_token` or `access_token` (optional)' })),
    ...clientFields,
  },
  {
    title: 'OAuthRevokeRequest',
    examples: [{ token: '8Jk3nB6vX1qLz5Hd0MpW3sYa', token_type_hint: 'refresh_token', client_id: 'ecoc_Xk4mQ9vT2pL7wB3nR8sD5fG1' }],
  },
)

export const RevokeResult = t.Object(
  { revoked: t.Literal(true, { description: 'Always true: unknown tokens are answered the same way (RFC 7009)' }) },
  { title: 'OAuthRevokeResult', examples: [{ revoked: true }] },
)

export const OAuthUser = t.Composite([t.Omit(User, ['email']), t.Object({ email: t.Optional(t.String({ description: 'Only with the `email` scope' })) })], {
  title: 'OAuthUser',
  examples: [{ id: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f', name: 'Ada Lovelace', avatarUrl: '', slug: null, capabilities: [], email: 'ada@example.com' }],
})

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
  {
    title: 'OAuthAuthorizationServerMetadata',
    examples: [
      {
        issuer: 'https://api.example.com',
        authorization_endpoint: 'https://api.example.com/api/oauth/authorize',
        token_endpoint: 'https://api.example.com/api/oauth/signin/exchange',
        revocation_endpoint: 'https://api.example.com/api/auth/revoke',
        ecobase_refresh_endpoint: 'https://api.example.com/api/auth/refresh',
        ecobase_me_endpoint: 'https://api.example.com/api/auth/me',
        scopes_supported: ['profile', 'email'],
        response_types_supported: ['code'],
        response_modes_supported: ['query'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        revocation_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        service_documentation: 'https://api.example.com/openapi',
      },
    ],
  },
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
