// Generated from openapi.json by `npm run openapi` (client/scripts/schema-types.ts). Do not edit.
import type { RequestOptions, Result } from '../treaty'
import type { ErrorBody } from './shared'

export interface OAuthCreateClient {
  /** Shown to users on the consent page */
  name: string
  redirectUris: string[]
  /** Default: `profile`, `email` */
  scopes?: string[]
}

export interface OAuthClientCreated {
  /** Id of the registration, for /oauth/clients/{id} */
  id: string
  /** The public OAuth `client_id` */
  clientId: string
  name: string
  redirectUris: string[]
  /** Scopes the client may ask for */
  scopes: string[]
  createdAt: string
  updatedAt: string
  /** The client secret; returned exactly once, stored hashed */
  clientSecret: string
}

export interface OAuthClient {
  /** Id of the registration, for /oauth/clients/{id} */
  id: string
  /** The public OAuth `client_id` */
  clientId: string
  name: string
  redirectUris: string[]
  /** Scopes the client may ask for */
  scopes: string[]
  createdAt: string
  updatedAt: string
}

export interface OAuthClientPage {
  items: OAuthClient[]
  total: number
  page: number
  pageSize: number
}

export interface OAuthUpdateClient {
  /** Shown to users on the consent page */
  name?: string
  redirectUris?: string[]
  scopes?: string[]
}

export interface OAuthGrant {
  id: string
  /** The application’s public `client_id` */
  clientId: string
  clientName: string
  scopes: string[]
  createdAt: string
  /** Last refresh */
  lastUsedAt: string | null
  /** When the refresh token lapses unless used */
  expiresAt: string
}

export interface OAuthGrantPage {
  items: OAuthGrant[]
  total: number
  page: number
  pageSize: number
}

export interface OAuthAuthorize {
  /** `code` */
  response_type: string
  /** The client application identifier */
  client_id: string
  /** One of the client’s registered redirect URIs, exactly */
  redirect_uri: string
  /** Space-separated scopes (`profile`, `email`); default: all the client may ask for */
  scope?: string
  /** Opaque value returned unchanged in the redirect */
  state?: string
  /** PKCE: BASE64URL(SHA-256(code_verifier)) */
  code_challenge: string
  /** `S256` (the only method accepted) */
  code_challenge_method: string
}

export interface OAuthAuthorizeResult {
  /** `redirect_uri` with `code`, `state` and `iss` added; send the browser there */
  redirectTo: string
  /** The authorization code (single use) */
  code: string
  /** The `state` of the request, when it had one */
  state?: string
}

export interface OAuthAuthorizationServerMetadata {
  issuer: string
  authorization_endpoint: string
  /** POST /api/oauth/signin/exchange */
  token_endpoint: string
  /** POST /api/auth/revoke */
  revocation_endpoint: string
  /** POST /api/auth/refresh (the token endpoint refreshes too) */
  ecobase_refresh_endpoint: string
  /** GET /api/auth/me */
  ecobase_me_endpoint: string
  scopes_supported: string[]
  response_types_supported: string[]
  response_modes_supported: string[]
  grant_types_supported: string[]
  token_endpoint_auth_methods_supported: string[]
  revocation_endpoint_auth_methods_supported: string[]
  code_challenge_methods_supported: string[]
  authorization_response_iss_parameter_supported: boolean
  service_documentation: string
}

export interface OAuthExchangeRequest {
  /** `authorization_code` (`refresh_token` is also served here, as standard clients expect) */
  grant_type: string
  /** The authorization code */
  code: string
  /** Equal to the redirect URI the code was issued for */
  redirect_uri: string
  /** The PKCE verifier matching the code_challenge */
  code_verifier: string
  /** Required unless the client authenticates with HTTP Basic */
  client_id?: string
  /** Required unless the client authenticates with HTTP Basic; server-side only */
  client_secret?: string
}

export interface OAuthTokenResponse {
  /** JWT (`typ` `oauth`); send as `Authorization: Bearer <token>` */
  access_token: string
  /** Opaque and single-use; replace the stored one with it */
  refresh_token: string
  /** Seconds until the access token expires (OAUTH_ACCESS_TOKEN_TTL_SECONDS) */
  expires_in: number
  token_type: "Bearer"
  /** Granted scopes, space-separated */
  scope: string
}

export interface OAuthError {
  /** `invalid_request` (400), `invalid_grant` (400), `invalid_scope` (400), `invalid_client` (401), `invalid_verifier` (401) */
  error: string
  /** Human-readable explanation */
  error_description: string
}

export interface OAuthRefreshRequest {
  /** `refresh_token` */
  grant_type: string
  refresh_token: string
  /** Optional narrower set of the granted scopes */
  scope?: string
  /** Required unless the client authenticates with HTTP Basic */
  client_id?: string
  /** Required unless the client authenticates with HTTP Basic; server-side only */
  client_secret?: string
}

export interface OAuthRevokeRequest {
  /** A refresh token (an access token of the grant also works) */
  token: string
  /** `refresh_token` or `access_token` (optional) */
  token_type_hint?: string
  /** Required unless the client authenticates with HTTP Basic */
  client_id?: string
  /** Required unless the client authenticates with HTTP Basic; server-side only */
  client_secret?: string
}

export interface OAuthRevokeResult {
  /** Always true: unknown tokens are answered the same way (RFC 7009) */
  revoked: true
}

export interface OAuthUser {
  id: string
  name: string
  avatarUrl: string
  slug: string | null
  /** `admin` for platform administrators */
  capabilities: string[]
  /** Only with the `email` scope */
  email?: string
}

/** The routes under /oauth. */
export interface OauthRoutes {
  clients: ((params: { id: string | number }) => {
    /** One of the caller’s client applications */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: OAuthClient; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Rename a client or change its redirect URIs or scopes */
    patch(body?: OAuthUpdateClient, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthClient; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    /** Delete a client application and end all its grants */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    secret: {
      /** Replace the client secret */
      post(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthClientCreated; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
    }
  }) & {
    /** Register a client application */
    post(body: OAuthCreateClient, options?: RequestOptions<never>): Promise<Result<{ 201: OAuthClientCreated; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    /** The caller's client applications (newest first; never the secret) */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: OAuthClientPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
  grants: ((params: { id: string | number }) => {
    /** Revoke an authorized application */
    delete(body?: undefined, options?: RequestOptions<never>): Promise<Result<{ 204: void; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 404: ErrorBody; 429: ErrorBody }>>
  }) & {
    /** Applications the caller has authorized (live grants, newest first) */
    get(options?: RequestOptions<{ page?: number; pageSize?: number }>): Promise<Result<{ 200: OAuthGrantPage; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
  }
}

/** The routes under /api. */
export interface ApiRoutes {
  oauth: {
    authorize: {
      /** Start authorization: the page a client application sends the browser to */
      get(options: RequestOptions<{ response_type: string; client_id: string; redirect_uri: string; scope?: string; state?: string; code_challenge: string; code_challenge_method: string }> & { query: { response_type: string; client_id: string; redirect_uri: string; scope?: string; state?: string; code_challenge: string; code_challenge_method: string } }): Promise<Result<{ 200: string; 302: void; 400: string; 429: ErrorBody }>>
      /** Approve an authorization request for the signed-in user (issues the code) */
      post(body: OAuthAuthorize, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthAuthorizeResult; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    }
    signin: {
      exchange: {
        /** Exchange an authorization code for tokens (the token endpoint) */
        post(body: OAuthExchangeRequest, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthTokenResponse; 400: OAuthError; 401: OAuthError; 429: ErrorBody }>>
      }
    }
  }
  auth: {
    refresh: {
      /** Refresh an OAuth grant (rotates the refresh token) */
      post(body: OAuthRefreshRequest, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthTokenResponse; 400: OAuthError; 401: OAuthError; 429: ErrorBody }>>
    }
    revoke: {
      /** Revoke a grant by its refresh token (RFC 7009) */
      post(body: OAuthRevokeRequest, options?: RequestOptions<never>): Promise<Result<{ 200: OAuthRevokeResult; 400: OAuthError; 401: OAuthError; 429: ErrorBody }>>
    }
    me: {
      /** The user behind an access token (check a token) */
      get(options?: RequestOptions<never>): Promise<Result<{ 200: OAuthUser; 400: ErrorBody; 401: ErrorBody; 403: ErrorBody; 429: ErrorBody }>>
    }
  }
}

/** The routes under /.well-known. */
export interface WellKnownRoutes {
  "oauth-authorization-server": {
    /** Authorization server metadata (RFC 8414) */
    get(options?: RequestOptions<never>): Promise<Result<{ 200: OAuthAuthorizationServerMetadata; 400: ErrorBody; 429: ErrorBody }>>
  }
}
