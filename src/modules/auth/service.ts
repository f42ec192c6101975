import type { Deps } from '../../deps'
import type { Principal, PrincipalSource } from '../../platform/auth'
import { AppError } from '../../platform/errors'
import { SettingsService } from '../settings/service'
import { Accounts } from './accounts'
import { API_TOKEN_PREFIX, ApiTokens } from './api-tokens'
import { Passwords } from './passwords'
import { REVOCATION_CHANNEL, Sessions } from './sessions'

/** The accounts area, assembled once per app from its deps. */
export class AuthService implements PrincipalSource {
  readonly sessions: Sessions
  readonly accounts: Accounts
  readonly apiTokens: ApiTokens

  constructor(
    private readonly deps: Deps,
    settings: SettingsService,
  ) {
    this.sessions = new Sessions(deps)
    this.accounts = new Accounts(deps, new Passwords(deps.config.password), this.sessions, settings)
    this.apiTokens = new ApiTokens(deps)
  }

  /** Follows revocations made by other replicas (PostgreSQL NOTIFY). */
  listenForRevocations(): Promise<() => Promise<void>> {
    return this.deps.database.listen(REVOCATION_CHANNEL, (payload) => this.sessions.forget(payload))
  }

  async resolveBearer(token: string): Promise<Principal> {
    if (token.startsWith(API_TOKEN_PREFIX)) return this.apiTokens.authenticate(token)
    const claims = await this.deps.tokens.verify(token)
    const sid = claims.sid
    if (claims.typ !== 'user' || typeof sid !== 'string') {
      throw new AppError(401, 'unauthorized', 'This token cannot be used here')
    }
    if (!(await this.sessions.isAlive(sid, claims.sub))) {
      throw new AppError(401, 'unauthorized', 'The session has been revoked or has expired')
    }
    return { kind: 'user', userId: claims.sub, sessionId: sid, apiTokenId: null }
  }

  capabilities(principal: Principal): Promise<string[]> {
    return this.accounts.capabilities(principal.userId)
  }
}
