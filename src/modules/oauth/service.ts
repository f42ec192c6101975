import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import type { AuditService } from '../audit/service'
import type { AuthService } from '../auth/service'
import { Authorizations } from './authorize'
import { OAuthClients } from './clients'
import { OAuthGrants } from './grants'
import { OAUTH_PATHS } from './paths'
import { SCOPE_NAMES } from './scopes'
import { OAuthTokens } from './tokens'

/** The OAuth 2.0 authorization server, assembled once per app. */
export class OauthService {
  readonly clients: OAuthClients
  readonly grants: OAuthGrants
  readonly authorizations: Authorizations
  readonly tokens: OAuthTokens

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'now' | 'tokens'>,
    private readonly auth: AuthService,
    audit: AuditService,
  ) {
    this.clients = new OAuthClients(deps, audit)
    this.grants = new OAuthGrants(deps)
    this.authorizations = new Authorizations(deps, this.clients)
    this.tokens = new OAuthTokens(deps, this.clients, this.grants)
  }

  /** The user behind a token; an OAuth token sees the e-mail only with the `email` scope. */
  async me(principal: Principal) {
    const user = await this.auth.accounts.me(principal)
    if (principal.oauth && !principal.oauth.scopes.includes('email')) {
      const { email: _hidden, ...rest } = user
      return rest
    }
    return user
  }

  /** RFC 8414 authorization server metadata. */
  metadata() {
    const base = this.deps.config.publicUrl
    const auth = ['client_secret_post', 'client_secret_basic']
    return {
      issuer: base,
      authorization_endpoint: base + OAUTH_PATHS.authorize,
      token_endpoint: base + OAUTH_PATHS.token,
      revocation_endpoint: base + OAUTH_PATHS.revoke,
      ecobase_refresh_endpoint: base + OAUTH_PATHS.refresh,
      ecobase_me_endpoint: base + OAUTH_PATHS.me,
      scopes_supported: SCOPE_NAMES,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: auth,
      revocation_endpoint_auth_methods_supported: auth,
      code_challenge_methods_supported: ['S256'],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${base}/openapi`,
    }
  }
}
