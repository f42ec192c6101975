import { type Principal, requireAal2 } from '../../platform/auth'
import { authError } from './errors'

/**
 * 403 `interactive_session_required` for an API token, whatever it may do elsewhere: credentials
 * (second factors, passkeys, recovery codes, API tokens, sessions, the password) are managed from a
 * signed-in session only, so a leaked token can neither entrench itself nor lock the owner out.
 */
export function requireInteractive(principal: Principal): void {
  if (principal.apiTokenId) {
    throw authError(
      403,
      'interactive_session_required',
      'API tokens cannot manage credentials (second factors, passkeys, recovery codes, API tokens, sessions, the password): do this from a signed-in session',
    )
  }
}

/** A change to the account's credentials: from a session (no API token) that verified the account's second factor, when it has one. */
export function requireCredentialChange(principal: Principal): void {
  requireInteractive(principal)
  requireAal2(principal)
}
