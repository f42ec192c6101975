import type { Deps } from '../../deps'
import { randomToken, sha256Hex } from '../../platform/crypto'
import { oauthError } from './errors'
import type { ClientRow, OAuthClients } from './clients'
import { withParams } from './redirect-uris'
import { oauthCodes } from './schema'
import { canonicalScopes, isScope, splitScope, type Scope } from './scopes'

/** The standard authorization request parameters (RFC 6749 §4.1.1, RFC 7636 §4.3). */
export interface AuthorizationParams {
  response_type?: string
  client_id?: string
  redirect_uri?: string
  scope?: string
  state?: string
  code_challenge?: string
  code_challenge_method?: string
}

export const AUTHORIZATION_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const

/** BASE64URL(SHA-256(verifier)) is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/

export type CheckedRequest =
  /** The client or its redirect URI cannot be trusted: show an error, never redirect. */
  | { kind: 'fatal'; code: 'invalid_request' | 'invalid_client' | 'invalid_redirect_uri'; message: string }
  /** Any other problem: tell the client through its redirect URI (RFC 6749 §4.1.2.1). */
  | { kind: 'error'; client: ClientRow; redirectTo: string; error: 'invalid_request' | 'invalid_scope' | 'unsupported_response_type'; description: string }
  | { kind: 'ok'; client: ClientRow; redirectUri: string; scopes: Scope[]; state?: string; codeChallenge: string }

/** The authorization step: checks requests and issues authorization codes. */
export class Authorizations {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now'>,
    private readonly clients: OAuthClients,
  ) {}

  /**
   * Checks an authorization request. `duplicated` names parameters that appeared more than once
   * (RFC 6749 §3.1: they must not).
   */
  async check(params: AuthorizationParams, duplicated: string[] = []): Promise<CheckedRequest> {
    if (duplicated.includes('client_id')) return { kind: 'fatal', code: 'invalid_request', message: 'client_id was given more than once.' }
    if (duplicated.includes('redirect_uri')) return { kind: 'fatal', code: 'invalid_request', message: 'redirect_uri was given more than once.' }
    if (!params.client_id) return { kind: 'fatal', code: 'invalid_client', message: 'The request has no client_id.' }
    const client = await this.clients.byClientId(params.client_id)
    if (!client) return { kind: 'fatal', code: 'invalid_client', message: 'This application (client_id) is not registered.' }
    if (!params.redirect_uri) return { kind: 'fatal', code: 'invalid_redirect_uri', message: 'The request has no redirect_uri.' }
    if (!client.redirectUris.includes(params.redirect_uri)) {
      return { kind: 'fatal', code: 'invalid_redirect_uri', message: 'The redirect_uri is not one this application registered.' }
    }
    const redirectUri = params.redirect_uri
    const fail = (error: (CheckedRequest & { kind: 'error' })['error'], description: string): CheckedRequest => ({
      kind: 'error',
      client,
      error,
      description,
      redirectTo: withParams(redirectUri, { error, error_description: description, state: params.state, iss: this.issuer }),
    })
    if (duplicated.length) return fail('invalid_request', `Parameters given more than once: ${duplicated.join(', ')}`)
    if (params.response_type !== 'code') {
      return params.response_type
        ? fail('unsupported_response_type', 'Only response_type=code is supported')
        : fail('invalid_request', 'response_type is missing')
    }
    if (!params.code_challenge) return fail('invalid_request', 'PKCE is required: code_challenge is missing')
    if (params.code_challenge_method !== 'S256') {
      return fail('invalid_request', 'code_challenge_method must be S256')
    }
    if (!S256_CHALLENGE.test(params.code_challenge)) {
      return fail('invalid_request', 'code_challenge must be the 43-character base64url S256 challenge')
    }
    const requested = params.scope === undefined ? client.scopes : splitScope(params.scope)
    const unknown = requested.filter((s) => !isScope(s))
    if (unknown.length) return fail('invalid_scope', `Unknown scope(s): ${unknown.join(' ')}`)
    const refused = requested.filter((s) => !client.scopes.includes(s))
    if (refused.length) return fail('invalid_scope', `This application may not ask for: ${refused.join(' ')}`)
    const scopes = canonicalScopes(requested)
    if (scopes.length === 0) return fail('invalid_scope', 'No scope requested')
    return { kind: 'ok', client, redirectUri, scopes, state: params.state, codeChallenge: params.code_challenge }
  }

  /**
   * The signed-in user approves a request: issues a single-use code and the URL to send the
   * browser back to. Requests that fail the checks answer 400 with the OAuth error as `code`.
   */
  async approve(userId: string, params: AuthorizationParams) {
    const checked = await this.check(params)
    if (checked.kind === 'fatal') throw oauthError(400, checked.code, checked.message)
    if (checked.kind === 'error') throw oauthError(400, checked.error, checked.description)
    const code = randomToken(32)
    await this.deps.db.insert(oauthCodes).values({
      codeHash: sha256Hex(code),
      clientId: checked.client.id,
      userId,
      redirectUri: checked.redirectUri,
      scopes: checked.scopes,
      codeChallenge: checked.codeChallenge,
      expiresAt: new Date(this.deps.now().getTime() + this.deps.config.oauth.codeTtl * 1000),
    })
    const redirectTo = withParams(checked.redirectUri, { code, state: checked.state, iss: this.issuer })
    return { redirectTo, code, ...(checked.state !== undefined && { state: checked.state }) }
  }

  /** Where the browser goes when the user declines (RFC 6749 §4.1.2.1 `access_denied`). */
  deniedRedirect(redirectUri: string, state: string | undefined): string {
    return withParams(redirectUri, {
      error: 'access_denied',
      error_description: 'The user declined the request',
      state,
      iss: this.issuer,
    })
  }

  private get issuer() {
    return this.deps.config.publicUrl
  }
}
