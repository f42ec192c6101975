import type { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server'
import { and, eq, gt, lt } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Principal, requireAal2 } from '../../platform/auth'
import type { RequestInfo } from '../../platform/http'
import type { RotatingSessions } from '../../platform/sessions'
import { AuditLog } from '../audit/service'
import type { Accounts, AuthResultView } from './accounts'
import { authError } from './errors'
import type { Mfa } from './mfa'
import { mfaFactors, passkeys, users, webauthnChallenges } from './schema'

const CHALLENGE_MS = 5 * 60_000
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const refused = () => authError(401, 'invalid_credentials', 'The passkey was not accepted')

type RegistrationResponse = Parameters<typeof verifyRegistrationResponse>[0]['response']
type AuthenticationResponse = Parameters<typeof verifyAuthenticationResponse>[0]['response']
/** Loaded at the first passkey call: most instances never see one, and the library weighs ~10 MB in memory. */
const webauthn = () => import('@simplewebauthn/server')

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registered as a second factor of the signed-in
 * account, and a way to sign in on their own — at `aal2` when the authenticator verified the user
 * (PIN, biometrics). RP_ID and WEBAUTHN_ORIGINS come from config; challenges are stored (any
 * replica may see the answer) and spent once; sign counters must grow.
 */
export class Passkeys {
  private readonly audit: AuditLog

  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now'>,
    private readonly sessions: RotatingSessions,
    private readonly accounts: Pick<Accounts, 'authResult' | 'changed'>,
    private readonly mfa: Mfa,
  ) {
    this.audit = new AuditLog(deps)
  }

  async list(principal: Principal) {
    return (await this.mfa.status(principal.userId)).factors.filter((f) => f.type === 'passkey')
  }

  /** Creation options for a new passkey of the caller (a second factor: `aal2` while the account has one). */
  async registrationOptions(principal: Principal) {
    requireAal2(principal)
    const [user] = await this.deps.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, principal.userId))
    const existing = await this.deps.db.select({ id: passkeys.credentialId, transports: passkeys.transports }).from(passkeys).where(eq(passkeys.userId, principal.userId))
    const options = await (await webauthn()).generateRegistrationOptions({
      rpName: 'Ecobase',
      rpID: this.deps.config.webauthn.rpId,
      userName: user!.email,
      userDisplayName: user!.name,
      userID: new TextEncoder().encode(principal.userId),
      attestationType: 'none',
      excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
      authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    })
    await this.keep(options.challenge, 'register', principal.userId)
    return options
  }

  /** Verifies the authenticator's answer and keeps the passkey; the account's first factor brings recovery codes. */
  async register(principal: Principal, response: RegistrationResponse, name: string) {
    requireAal2(principal)
    const first = !(await this.mfa.status(principal.userId)).enabled
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>
    try {
      verification = await (await webauthn()).verifyRegistrationResponse({
        response,
        expectedChallenge: (challenge) => this.spend(challenge, 'register', principal.userId),
        expectedOrigin: this.deps.config.webauthn.origins,
        expectedRPID: this.deps.config.webauthn.rpId,
        requireUserVerification: false,
      })
    } catch (err) {
      throw authError(400, 'validation_failed', `response: ${(err as Error).message}`)
    }
    if (!verification.verified) throw authError(400, 'validation_failed', 'response: the registration did not verify')
    const { credential } = verification.registrationInfo
    return this.deps.db.transaction(async (tx) => {
      const [factor] = await tx.insert(mfaFactors).values({ userId: principal.userId, type: 'passkey', name, verifiedAt: this.deps.now() }).returning()
      await tx.insert(passkeys).values({ factorId: factor!.id, userId: principal.userId, credentialId: credential.id, publicKey: b64url(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [] })
      return this.mfa.enrolled(tx, principal, factor!, first, 'webauthn')
    })
  }

  /** Request options for signing in: the account's passkeys when `email` names one, else any discoverable passkey. */
  async loginOptions(email?: string) {
    const own = email
      ? await this.deps.db
          .select({ id: passkeys.credentialId, transports: passkeys.transports })
          .from(passkeys)
          .innerJoin(users, eq(users.id, passkeys.userId))
          .where(eq(users.emailKey, email.trim().toLowerCase()))
      : []
    const options = await (await webauthn()).generateAuthenticationOptions({ rpID: this.deps.config.webauthn.rpId, allowCredentials: own.map((c) => ({ id: c.id, transports: c.transports })), userVerification: 'preferred' })
    await this.keep(options.challenge, 'login', null)
    return options
  }

  /** Signs in with a passkey: `aal2` when the authenticator verified the user, else `aal1`. */
  async login(response: AuthenticationResponse, request: RequestInfo): Promise<AuthResultView> {
    const [stored] = await this.deps.db.select().from(passkeys).where(eq(passkeys.credentialId, response.id ?? ''))
    if (!stored) throw refused()
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>
    try {
      verification = await (await webauthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: (challenge) => this.spend(challenge, 'login', null),
        expectedOrigin: this.deps.config.webauthn.origins,
        expectedRPID: this.deps.config.webauthn.rpId,
        credential: { id: stored.credentialId, publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')), counter: stored.counter, transports: stored.transports },
        requireUserVerification: false,
      })
    } catch {
      throw refused()
    }
    if (!verification.verified) throw refused()
    const { newCounter, userVerified } = verification.authenticationInfo
    const issued = await this.deps.db.transaction(async (tx) => {
      // The counter moves only forward, also when two assertions race: a replayed one finds it moved.
      const [moved] = await tx
        .update(passkeys)
        .set({ counter: newCounter })
        .where(and(eq(passkeys.factorId, stored.factorId), newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter)))
        .returning({ id: passkeys.factorId })
      if (!moved) throw refused()
      await tx.update(mfaFactors).set({ lastUsedAt: this.deps.now() }).where(eq(mfaFactors.id, stored.factorId))
      await this.accounts.changed(tx, stored.userId)
      const issued = await this.sessions.start(tx, stored.userId, request.userAgent, { aal: userVerified ? 'aal2' : 'aal1', amr: ['webauthn'] })
      await this.audit.record(tx, { actor: { type: 'user', id: stored.userId }, request }, {
        action: 'auth.session.signed_in',
        target: { type: 'user', id: stored.userId },
        metadata: { method: 'passkey', sessionId: issued.sessionId, userVerified },
      })
      return issued
    })
    const [user] = await this.deps.db.select().from(users).where(eq(users.id, stored.userId))
    return this.accounts.authResult(user!, issued)
  }

  /** Removes one of the caller's passkeys (`aal2`): as removing any factor. */
  async remove(principal: Principal, id: string): Promise<void> {
    const [own] = await this.deps.db.select({ id: passkeys.factorId }).from(passkeys).where(and(eq(passkeys.factorId, id), eq(passkeys.userId, principal.userId)))
    if (!own) throw authError(404, 'not_found', 'No such passkey')
    await this.mfa.removeFactor(principal, id)
  }

  private async keep(challenge: string, purpose: 'register' | 'login', userId: string | null): Promise<void> {
    const now = this.deps.now()
    await this.deps.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now))
    await this.deps.db.insert(webauthnChallenges).values({ challenge, purpose, userId, expiresAt: new Date(now.getTime() + CHALLENGE_MS) })
  }

  /** True once for a challenge this service handed out for `purpose` (and user), unexpired. */
  private async spend(challenge: string, purpose: 'register' | 'login', userId: string | null): Promise<boolean> {
    const conditions = [eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, purpose), gt(webauthnChallenges.expiresAt, this.deps.now())]
    if (userId) conditions.push(eq(webauthnChallenges.userId, userId))
    const spent = await this.deps.db.delete(webauthnChallenges).where(and(...conditions)).returning({ challenge: webauthnChallenges.challenge })
    return spent.length === 1
  }
}
