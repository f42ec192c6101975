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

export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'invalid_verifier'
  | 'invalid_scope'

export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description)
export const invalidGrant = (description: string) => new OAuthError(400, 'invalid_grant', description)
export const invalidClient = () => new OAuthError(401, 'invalid_client', 'Client authentication failed: wrong client_id or client_secret')
