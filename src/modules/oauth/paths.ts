/** Paths of the OAuth endpoints, relative to PUBLIC_URL: the routes, the metadata and the OpenAPI security scheme take them from here. */
export const OAUTH_PATHS = {
  authorize: '/api/oauth/authorize',
  token: '/api/oauth/signin/exchange',
  refresh: '/api/auth/refresh',
  revoke: '/api/auth/revoke',
  me: '/api/auth/me',
  metadata: '/.well-known/oauth-authorization-server',
} as const
