import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { IdParam } from '../../../platform/params'
import { errors } from '../errors'
import { requestInfo } from '../../../platform/http'
import {
  AuthResult,
  CredentialResponse,
  MFA_FACTOR_EXAMPLE,
  MfaFactor,
  MfaVerifyBody,
  PasskeyRegistered,
  RecoveryCodes,
  TotpConfirmed,
  TotpEnrollment,
} from '../model'
import type { AuthService } from '../service'
import type { Config } from '../../../config'
import { refreshCookie } from './cookie'

const AAL2 = 'Needs `aal2` (a second factor verified in this session) while the account has a factor: 403 `mfa_required` otherwise.'
const INTERACTIVE = 'A signed-in session only: API tokens get 403 `interactive_session_required`.'
const CREDENTIAL = `${INTERACTIVE} ${AAL2}`
/** The 403 codes of a route that changes the account's credentials. */
const CREDENTIAL_403 = { 403: ['mfa_required', 'interactive_session_required'] } as const

/** Second factors of the signed-in account (tag `auth`). Reachable at `aal1`, which is how one gets to `aal2`. */
export function mfaRoutes(auth: AuthService, guards: Guards, config: Pick<Config, 'corsOrigins' | 'publicUrl' | 'refreshTokenTtl'>) {
  const refresh = refreshCookie(config)
  return new Elysia({ name: 'auth-mfa', prefix: '/auth/mfa', detail: { tags: ['auth'] } })
    .use(guards.auth)
    .post('/totp', ({ principal, body }) => auth.mfa.enrollTotp(principal, body.name), {
      auth: true,
      body: t.Object(
        { name: t.String({ minLength: 1, maxLength: 100, description: 'What the user calls the device' }) },
        { title: 'TotpEnroll', examples: [{ name: 'Phone' }] },
      ),
      response: { 200: TotpEnrollment, ...errors(400, 401, CREDENTIAL_403) },
      detail: {
        operationId: 'authMfaTotpEnroll',
        summary: 'Start a TOTP factor: its secret and QR code',
        description: `The factor counts once a code from it is confirmed. ${CREDENTIAL}`,
      },
    })
    .post('/totp/:id/confirm', ({ principal, params, body }) => auth.mfa.confirmTotp(principal, params.id, body.code), {
      auth: true,
      params: IdParam,
      body: t.Object({ code: t.String({ pattern: '^[0-9]{6}$' }) }, { title: 'TotpConfirm', examples: [{ code: '492039' }] }),
      response: {
        200: TotpConfirmed,
        ...errors(401, 404, CREDENTIAL_403, { 400: ['validation_failed', 'invalid_code'], 409: ['conflict'], 429: ['rate_limited'] }),
      },
      detail: {
        operationId: 'authMfaTotpConfirm',
        summary: 'Confirm a TOTP factor with a code from it',
        description: `On the account’s first factor, ten recovery codes come back (shown once, stored hashed) and every other session of the account ends (the e-mail says so). The session that confirms it is \`aal2\` from its next refresh: refresh now, since until then its access token is \`aal1\` of an account with a factor. From now on a password sign-in is \`aal1\` until a factor is verified. Each 30-second step is accepted once (±1 step for clock drift). Wrong codes count toward the account's throttle (429). ${CREDENTIAL}`,
      },
    })
    .post('/verify/options', async ({ principal, headers }) => ({ ...(await auth.passkeys.stepUpOptions(principal, headers.origin)) }), {
      auth: true,
      response: {
        200: PasskeyOptions(STEP_UP_OPTIONS_EXAMPLE),
        ...errors(401, { 400: ['passkey_origin_mismatch'], 403: ['interactive_session_required'], 409: ['conflict'] }),
      },
      detail: {
        operationId: 'authMfaVerifyOptions',
        summary: 'Request options for verifying with a passkey',
        description:
          'For a session at `aal1` (a password sign-in of an account with a factor): WebAuthn request options allowing the account’s passkeys (challenge valid 5 minutes, once). Hand `navigator.credentials.get()`’s answer to POST /auth/mfa/verify as `{ passkey }`. 409 `conflict` when the account has no passkey; 400 `passkey_origin_mismatch` when the page’s origin cannot use passkeys here (the message says which address to open).',
      },
    })
    .post(
      '/verify',
      async ({ principal, body, cookie }) => {
        const result = 'passkey' in body ? await auth.passkeys.stepUp(principal, body.passkey as never) : await auth.mfa.verify(principal, body)
        refresh.keep(cookie, result.refreshToken)
        return result
      },
      {
        auth: true,
        body: MfaVerifyBody,
        response: {
          200: AuthResult,
          ...errors(401, { 400: ['validation_failed', 'invalid_code'], 403: ['interactive_session_required'], 429: ['rate_limited'] }),
        },
        detail: {
          operationId: 'authMfaVerify',
          summary: 'Step up to aal2 with a code, a recovery code or a passkey',
          description:
            'New tokens for the same session at `aal2` (refreshes keep it); its refresh tokens not used yet stop working, and the `ecobase_refresh` cookie gets the new one (as at sign-in). A recovery code works once; a passkey answers the options of POST /auth/mfa/verify/options. Every step-up is an audit event and an “account security” e-mail. Wrong answers are counted per account over a sliding window, whichever session gave them (LOGIN_MAX_FAILURES_PER_EMAIL in LOGIN_FAILURE_WINDOW_SECONDS, then 429; a success does not reset the count), each is an audit event, and the owner gets one e-mail per window with their count. A session only: API tokens get 403 `interactive_session_required`.',
        },
      },
    )
    .post('/recovery-codes', ({ principal }) => auth.mfa.regenerateRecoveryCodes(principal), {
      auth: true,
      response: { 200: RecoveryCodes, ...errors(401, CREDENTIAL_403, { 409: ['conflict'] }) },
      detail: { operationId: 'authMfaRecoveryCodes', summary: 'Replace the ten recovery codes', description: `The old ones stop working. ${CREDENTIAL}` },
    })
    .delete(
      '/factors/:id',
      async ({ principal, params, status }) => {
        await auth.mfa.removeFactor(principal, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Removed' }), ...errors(401, 404, CREDENTIAL_403) },
        detail: {
          operationId: 'authMfaRemoveFactor',
          summary: 'Remove a second factor',
          description: `With the last one the recovery codes go too. ${CREDENTIAL}`,
        },
      },
    )
}

const PasskeyOptions = (example: Record<string, unknown>) =>
  t.Record(t.String(), t.Unknown(), {
    description: 'WebAuthn options as JSON, for `navigator.credentials` (through @simplewebauthn/browser’s helpers, say)',
    examples: [example],
  })
/** What browsers' `credential.toJSON()` gives (buffers as base64url), shortened: the shapes of a registration and a sign-in. */
const ATTESTATION_EXAMPLE = {
  id: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LE',
  rawId: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LE',
  type: 'public-key',
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0',
    attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YVjF',
    transports: ['internal', 'hybrid'],
  },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
}
const ASSERTION_EXAMPLE = {
  id: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LE',
  rawId: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LE',
  type: 'public-key',
  response: {
    clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uZ2V0In0',
    authenticatorData: 'SZYN5YgOjGh0NBcPZHZgW4_krrmihjLHmVzzuoMdl2MFAAAAAQ',
    signature: 'MEUCIQDbRq3vNF',
    userHandle: 'NmYxYzBhM2U',
  },
  clientExtensionResults: {},
  authenticatorAttachment: 'platform',
}

/** What @simplewebauthn/server generates for the routes below (RP_ID app.example.com). */
const REGISTRATION_OPTIONS_EXAMPLE = {
  challenge: 'ZMkRJxULfrDpHlbo_mmZSBnljNg-TcxyBMD6vTamYxw',
  rp: { name: 'Ecobase', id: 'app.example.com' },
  user: { id: 'NmYxYzBhM2UtMmI3ZC00YzFhLTllNWYtM2QyYjFhMGM5ZThm', name: 'ada@example.com', displayName: 'Ada Lovelace' },
  pubKeyCredParams: [
    { alg: -48, type: 'public-key' },
    { alg: -8, type: 'public-key' },
    { alg: -7, type: 'public-key' },
    { alg: -257, type: 'public-key' },
  ],
  timeout: 60000,
  attestation: 'none',
  excludeCredentials: [],
  authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred', requireResidentKey: false },
  extensions: { credProps: true },
  hints: [],
}
const LOGIN_OPTIONS_EXAMPLE = {
  rpId: 'app.example.com',
  challenge: '9eHy2ldAhinMw89t-zKzuOGwCWbp_s8zchuAoM5FJJA',
  allowCredentials: [{ id: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LE', transports: ['internal', 'hybrid'], type: 'public-key' }],
  timeout: 60000,
  userVerification: 'preferred',
}

/** What the step-up options look like: the account's passkeys allowed. */
const STEP_UP_OPTIONS_EXAMPLE = { ...LOGIN_OPTIONS_EXAMPLE, challenge: 'r2Tb8kQm4Yw1Xc9Zp0Lh6Ns3Vd5Fg7Jk-aEoUiQyWtM' }
/** The same for every e-mail: no credential ids, the authenticator offers its discoverable passkeys. */
const DISCOVERABLE_OPTIONS_EXAMPLE = { ...LOGIN_OPTIONS_EXAMPLE, allowCredentials: [] }

/** Passkeys of the signed-in account, and signing in with one (tag `auth`). */
export function passkeyRoutes(auth: AuthService, guards: Guards, config: Pick<Config, 'corsOrigins' | 'publicUrl' | 'refreshTokenTtl' | 'trustProxy'>) {
  const refresh = refreshCookie(config)
  return new Elysia({ name: 'auth-passkeys', prefix: '/auth/passkeys', detail: { tags: ['auth'] } })
    .use(guards.auth)
    .get('', ({ principal }) => auth.passkeys.list(principal), {
      auth: true,
      response: {
        200: t.Array(MfaFactor, {
          examples: [[{ ...MFA_FACTOR_EXAMPLE, id: '8c7b6a59-4e3d-4c2b-a190-f8e7d6c5b4a3', type: 'passkey', name: 'MacBook Touch ID' }]],
        }),
        ...errors(401, { 403: ['interactive_session_required'] }),
      },
      detail: {
        operationId: 'authPasskeys',
        summary: 'Your passkeys',
        description: `The account’s registered passkeys (WebAuthn credentials) as second factors: id, name, when added and last used. Reachable at \`aal1\`. Add one with /auth/passkeys/register/*, remove one with DELETE /auth/passkeys/{id}. ${INTERACTIVE}`,
      },
    })
    .post('/register/options', async ({ principal, headers }) => ({ ...(await auth.passkeys.registrationOptions(principal, headers.origin)) }), {
      auth: true,
      response: { 200: PasskeyOptions(REGISTRATION_OPTIONS_EXAMPLE), ...errors(401, CREDENTIAL_403, { 400: ['passkey_origin_mismatch'] }) },
      detail: {
        operationId: 'authPasskeyRegisterOptions',
        summary: 'Creation options for a new passkey',
        description: `RP_ID and the challenge (valid 5 minutes, once). 400 \`passkey_origin_mismatch\` when a page at the request’s Origin cannot use passkeys of this RP_ID (an origin WEBAUTHN_ORIGINS does not list, or an IP address): the message names RP_ID, WEBAUTHN_ORIGINS and PUBLIC_URL, and the address to open instead. A passkey is a second factor: ${CREDENTIAL}`,
      },
    })
    .post('/register/verify', ({ principal, body }) => auth.passkeys.register(principal, body.response as never, body.name), {
      auth: true,
      body: t.Object(
        { response: CredentialResponse, name: t.String({ minLength: 1, maxLength: 100 }) },
        { title: 'PasskeyRegister', examples: [{ response: ATTESTATION_EXAMPLE, name: 'MacBook Touch ID' }] },
      ),
      response: { 200: PasskeyRegistered, ...errors(400, 401, CREDENTIAL_403) },
      detail: {
        operationId: 'authPasskeyRegister',
        summary: 'Keep the new passkey',
        description: `Verified against the challenge, WEBAUTHN_ORIGINS and RP_ID (400 otherwise). The account’s first factor brings ten recovery codes and ends every other session of the account, as TOTP does. ${CREDENTIAL}`,
      },
    })
    .post('/login/options', async ({ headers }) => ({ ...(await auth.passkeys.loginOptions(headers.origin)) }), {
      body: t.Optional(
        t.Object(
          { email: t.Optional(t.String({ maxLength: 320, description: 'Accepted and not used: the answer is the same for every address' })) },
          { title: 'PasskeyLoginStart', examples: [{}] },
        ),
      ),
      response: { 200: PasskeyOptions(DISCOVERABLE_OPTIONS_EXAMPLE), ...errors({ 400: ['validation_failed', 'passkey_origin_mismatch'] }) },
      detail: {
        operationId: 'authPasskeyLoginOptions',
        summary: 'Request options for signing in with a passkey',
        description:
          'The same answer for everyone (a fresh challenge, an empty `allowCredentials`): the authenticator offers the discoverable passkeys it holds for this RP_ID, so the options tell nobody whether an address has an account or passkeys. An `email` in the body is accepted and ignored. A passkey that is not discoverable (some security keys) still verifies a password sign-in (POST /auth/mfa/verify/options). 400 `passkey_origin_mismatch` as for registration.',
        security: [],
      },
    })
    .post(
      '/login/verify',
      async ({ body, request, server, cookie }) => {
        const result = await auth.passkeys.login(body.response as never, requestInfo(request, server, config.trustProxy))
        refresh.keep(cookie, result.refreshToken)
        return result
      },
      {
        body: t.Object({ response: CredentialResponse }, { title: 'PasskeyLogin', examples: [{ response: ASSERTION_EXAMPLE }] }),
        response: { 200: AuthResult, ...errors(400, { 401: ['invalid_credentials'] }) },
        detail: {
          operationId: 'authPasskeyLogin',
          summary: 'Sign in with a passkey',
          description:
            'The spec’s AuthResult, at `aal2` when the authenticator verified the user (PIN, biometrics), else `aal1`, and the `ecobase_refresh` cookie, as at sign-in. The sign counter must grow (a cloned authenticator is refused: 401).',
          security: [],
        },
      },
    )
    .delete(
      '/:id',
      async ({ principal, params, status }) => {
        await auth.passkeys.remove(principal, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Removed' }), ...errors(401, 404, CREDENTIAL_403) },
        detail: { operationId: 'authPasskeyRemove', summary: 'Remove a passkey', description: `As removing any factor. ${CREDENTIAL}` },
      },
    )
}
