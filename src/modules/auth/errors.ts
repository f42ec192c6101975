import { errorCatalogue } from '../../platform/errors'

/** The error codes the auth area answers besides the platform's (code → meaning, shown in the OpenAPI document). */
export const AUTH_ERRORS = {
  registration_disabled: 'registration with e-mail and password is disabled on this instance',
  email_taken: 'an account with this e-mail already exists',
  invalid_credentials: 'the e-mail or password is wrong',
  slug_taken: 'another account has this handle',
  invalid_token: 'the e-mailed link is invalid, expired or already used',
  origin_not_allowed: 'this origin may not use the refresh cookie (CORS_ORIGINS)',
  invalid_code: 'the second-factor code, recovery code or passkey answer does not match, or was used already (400)',
  passkey_origin_mismatch:
    'passkeys cannot work for a page at the request’s origin: the message names RP_ID / WEBAUTHN_ORIGINS (from PUBLIC_URL) and the address to open instead (400)',
  interactive_session_required:
    'API tokens cannot manage credentials (second factors, passkeys, recovery codes, API tokens, sessions, the password): use a signed-in session (403)',
} as const

/** `authError(status, code, message)` throws only platform or auth codes; `errors(...)` lists them on routes. */
export const { error: authError, errors } = errorCatalogue(AUTH_ERRORS)
