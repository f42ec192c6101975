import type { Deps } from '../../deps'
import type { Principal, PrincipalSource } from '../../platform/auth'
import { AppError } from '../../platform/errors'
import type { AccessClaims } from '../../platform/jwt'
import type { EventBus } from '../../platform/events'
import type { SettingsService } from '../settings/service'
import { AccountEmails, type InstanceMailer } from './account-emails'
import { Accounts } from './accounts'
import { AdminAccounts } from './admin-accounts'
import { requireCredentialChange } from './interactive'

export { insertPasswordAccount, USER_CACHE, type Accounts, type PublicProfile } from './accounts'
import { API_TOKEN_PREFIX, ApiTokens } from './api-tokens'
import { Mfa } from './mfa'
import { Passkeys } from './passkeys'
import { Passwords } from './passwords'
import { RotatingSessions } from '../../platform/sessions'
import type { AuditService } from '../audit/service'
import { refreshTokens, sessions } from './schema'

/** Access-token kinds (`typ`) other areas sign and resolve themselves, e.g. `oauth` (their manifests' `extends.tokenKinds`). */
type TokenKinds = () => readonly Readonly<Record<string, (claims: AccessClaims) => Promise<Principal>>>[]

/** The accounts area, assembled once per app from its deps. */
export class AuthService implements PrincipalSource {
  readonly sessions: RotatingSessions
  readonly accounts: Accounts
  readonly apiTokens: ApiTokens
  readonly mfa: Mfa
  readonly passkeys: Passkeys
  readonly emails: AccountEmails
  readonly admin: AdminAccounts
  private kinds: Map<string, (claims: AccessClaims) => Promise<Principal>> | undefined

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'database' | 'db' | 'logger' | 'now' | 'queue' | 'rateLimits' | 'secret' | 'tokens'>,
    settings: SettingsService,
    events: Pick<EventBus, 'emit'>,
    private readonly tokenKinds: TokenKinds,
    mail: InstanceMailer,
    private readonly audit: AuditService,
  ) {
    this.sessions = new RotatingSessions(
      deps,
      { sessions, refreshTokens },
      {
        kind: 'user',
        refreshTtlSeconds: deps.config.refreshTokenTtl,
        maxAgeSeconds: deps.config.sessionMaxAge,
        accessTtlSeconds: deps.config.accessTokenTtl,
        // Who and how the session signed in; whether the account has a second factor is read per request (resolveBearer), never from here.
        claimColumns: { aal: sessions.aal, amr: sessions.amr },
        claims: (userId, { aal, amr }) => ({ sub: userId, typ: 'user', aal: aal ?? 'aal1', amr: amr ?? [] }),
      },
    )
    this.accounts = new Accounts(deps, new Passwords(deps.config.password), this.sessions, settings, events, audit)
    this.apiTokens = new ApiTokens(deps, audit)
    this.mfa = new Mfa(deps, this.sessions, this.accounts, events, audit)
    this.passkeys = new Passkeys(deps, this.sessions, this.accounts, this.mfa, audit)
    this.emails = new AccountEmails(deps, this.accounts, this.mfa, mail)
    this.admin = new AdminAccounts(deps)
  }

  /**
   * The principal behind a bearer credential. Whether the account has a verified second factor
   * comes from the account (the replica cache: memory while unchanged), never from the token: a
   * token issued before the first factor was enrolled does not act as "no factor".
   */
  async resolveBearer(token: string): Promise<Principal> {
    if (token.startsWith(API_TOKEN_PREFIX)) {
      const principal = await this.apiTokens.authenticate(token)
      // Made by a session that verified the account's factor when it had one; it is no interactive session (see requireInteractive).
      return { ...principal, assurance: { aal: 'aal2', mfa: await this.accounts.hasFactor(principal.userId) } }
    }
    const claims = await this.deps.tokens.verify(token)
    this.kinds ??= new Map(this.tokenKinds().flatMap((kinds) => Object.entries(kinds)))
    const kind = this.kinds.get(claims.typ)
    if (kind) return kind(claims)
    const sid = claims.sid
    if (claims.typ !== 'user' || typeof sid !== 'string') {
      throw new AppError(401, 'unauthorized', 'This token cannot be used here')
    }
    const [alive, mfa] = await Promise.all([this.sessions.isAlive(sid, claims.sub), this.accounts.hasFactor(claims.sub)])
    if (!alive) throw new AppError(401, 'unauthorized', 'The session has been revoked or has expired')
    return { kind: 'user', userId: claims.sub, sessionId: sid, apiTokenId: null, assurance: { aal: claims.aal === 'aal2' ? 'aal2' : 'aal1', mfa } }
  }

  capabilities(principal: Principal): Promise<string[]> {
    return this.accounts.capabilities(principal.userId)
  }

  /**
   * Revokes every session of the user (sign out everywhere), with its audit event; API tokens stay
   * valid. From a session at `aal2` while the account has a factor: a password alone (or a token)
   * must not end the owner's verified sessions.
   */
  signOutEverywhere(principal: Principal): Promise<void> {
    requireCredentialChange(principal)
    return this.deps.db.transaction(async (tx) => {
      await this.sessions.revoke(tx, { subjectId: principal.userId }, 'sign_out_everywhere')
      await this.audit.record(tx, principal, { action: 'auth.session.revoked_all', target: { type: 'user', id: principal.userId } })
    })
  }
}
