import { errorCatalogue } from '../../platform/errors'

/**
 * An RFC 6749 error (`{ "error", "error_description" }`), thrown by the token, refresh and revoke
 * logic and rendered by their routes; everything else in the area uses AppError.
 */
export class OAuthError extends Error {
  constructor(
    readonly status: 400 | 401,
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description)
  }

  body() {
    return { error: this.error, error_description: this.description }
  }
}

export type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'invalid_grant' | 'invalid_verifier' | 'invalid_scope'

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description)
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description)
export const invalidClient = () => new OAuthError(401, 'invalid_client', 'Client authentication failed: wrong client_id or client_secret')

/**
 * The AppError codes of the OAuth area (the authorization request and client registration;
 * RFC 6749 errors of the token endpoints are OAuthError above): code → meaning, shown in the
 * OpenAPI document.
 */
export const OAUTH_ERRORS = {
  invalid_request: 'the authorization request is malformed (a parameter is missing, repeated or wrong)',
  invalid_client: 'the client_id is missing or names no registered application',
  invalid_redirect_uri: 'the redirect_uri is missing, malformed or not registered for this application',
  invalid_scope: 'a requested scope is unknown or not allowed for this application',
  unsupported_response_type: 'only response_type=code is supported',
} as const

/** `oauthError(status, code, message)` throws only platform or OAuth codes; `errors(...)` lists them on routes. */
export const { error: oauthError, errors } = errorCatalogue(OAUTH_ERRORS)
