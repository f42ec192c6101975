import type { verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server'
import { isIP } from 'node:net'
import { and, eq, gt, lt } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Principal } from '../../platform/auth'
import type { Db } from '../../platform/db'
import type { RequestInfo } from '../../platform/http'
import type { RotatingSessions } from '../../platform/sessions'
import type { AuditService } from '../audit/service'
import type { Accounts, AuthResultView } from './accounts'
import { authError } from './errors'
import { requireCredentialChange, requireInteractive } from './interactive'
import type { Mfa } from './mfa'
import { mfaFactors, passkeys, users, webauthnChallenges } from './schema'

const CHALLENGE_MS = 5 * 60_000
const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url')
const refused = () => authError(401, 'invalid_credentials', 'The passkey was not accepted')

type RegistrationResponse = Parameters<typeof verifyRegistrationResponse>[0]['response']
type AuthenticationResponse = Parameters<typeof verifyAuthenticationResponse>[0]['response']
type PasskeyRow = typeof passkeys.$inferSelect
type Purpose = 'register' | 'login' | 'verify'
/** Loaded at the first passkey call: most instances never see one, and the library weighs ~10 MB in memory. */
const webauthn = () => import('@simplewebauthn/server')

/**
 * Passkeys (WebAuthn, @simplewebauthn/server): registered as a second factor of the signed-in
 * account, a way to verify it after a password (step-up to `aal2`), and a way to sign in on their
 * own — at `aal2` when the authenticator verified the user (PIN, biometrics). RP_ID and
 * WEBAUTHN_ORIGINS come from config; challenges are stored (any replica may see the answer) and
 * spent once; sign counters must grow.
 */
export class Passkeys {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'now'>,
    private readonly sessions: RotatingSessions,
    private readonly accounts: Pick<Accounts, 'authResult' | 'changed'>,
    private readonly mfa: Mfa,
    private readonly audit: AuditService,
  ) {}

  async list(principal: Principal) {
    requireInteractive(principal)
    return (await this.mfa.status(principal.userId)).factors.filter((f) => f.type === 'passkey')
  }

  /**
   * 400 `passkey_origin_mismatch` when a browser page at `origin` (the request's Origin header)
   * could not use passkeys of this service: an origin WEBAUTHN_ORIGINS does not list, or an RP_ID
   * that is an IP address (WebAuthn accepts domains only). Saying so beats the browser's bare
   * "invalid domain". Requests without an Origin (apps, servers) are not browsers' and pass.
   */
  usableAt(origin: string | undefined): void {
    const { rpId, origins } = this.deps.config.webauthn
    if (isIP(rpId)) {
      throw authError(
        400,
        'passkey_origin_mismatch',
        `Passkeys cannot work here: RP_ID ${rpId} (from PUBLIC_URL unless set) is an IP address, and browsers accept only a domain. Serve the service under a name (http://localhost:<port> on this machine) and set PUBLIC_URL (or RP_ID and WEBAUTHN_ORIGINS) to it.`,
      )
    }
    if (origin === undefined || origins.includes(origin)) return
    const ip = URL.canParse(origin) && isIP(new URL(origin).hostname.replace(/^\[|\]$/g, '')) ? ' (a browser never accepts an IP address for a passkey)' : ''
    throw authError(
      400,
      'passkey_origin_mismatch',
      `Passkeys of this service work at ${origins.join(' or ')} (RP_ID ${rpId}, WEBAUTHN_ORIGINS; from PUBLIC_URL unless set), not at ${origin}${ip}: open ${origins[0]} instead, or add this origin to WEBAUTHN_ORIGINS under a matching RP_ID.`,
    )
  }

  /** Creation options for a new passkey of the caller (a second factor: `aal2` while the account has one). */
  async registrationOptions(principal: Principal, origin?: string) {
    requireCredentialChange(principal)
    this.usableAt(origin)
    const [user] = await this.deps.db.select({ email: users.email, name: users.name }).from(users).where(eq(users.id, principal.userId))
    const existing = await this.deps.db
      .select({ id: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, principal.userId))
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
    requireCredentialChange(principal)
    const first = !(await this.mfa.status(principal.userId)).enabled
    let verification: Awaited<ReturnType<typeof verifyRegistrationResponse>>
    try {
      verification = await (await webauthn()).verifyRegistrationResponse({
        response,
        expectedChallenge: (challenge) => this.spend(this.deps.db, challenge, 'register', principal.userId),
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
      await tx.insert(passkeys).values({
        factorId: factor!.id,
        userId: principal.userId,
        credentialId: credential.id,
        publicKey: b64url(credential.publicKey),
        counter: credential.counter,
        transports: credential.transports ?? [],
      })
      return this.mfa.enrolled(tx, principal, factor!, first, 'webauthn')
    })
  }

  /**
   * Request options for signing in: the same answer for every caller, whatever e-mail it names (an
   * empty allow list: the authenticator offers the discoverable passkeys it holds for RP_ID), so
   * the options tell nobody whether an account exists or has passkeys.
   */
  async loginOptions(origin?: string) {
    this.usableAt(origin)
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: this.deps.config.webauthn.rpId,
      allowCredentials: [],
      userVerification: 'preferred',
    })
    await this.keep(options.challenge, 'login', null)
    return options
  }

  /** Signs in with a passkey: `aal2` when the authenticator verified the user, else `aal1`. */
  async login(response: AuthenticationResponse, request: RequestInfo): Promise<AuthResultView> {
    const [stored] = await this.deps.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.credentialId, response.id ?? ''))
    if (!stored) throw refused()
    const issued = await this.deps.db.transaction(async (tx) => {
      const asserted = await this.assert(tx, stored, response, 'login', null)
      if (!asserted) return null
      await this.accounts.changed(tx, stored.userId)
      const issued = await this.sessions.start(tx, stored.userId, request.userAgent, { aal: asserted.userVerified ? 'aal2' : 'aal1', amr: ['webauthn'] })
      await this.audit.record(
        tx,
        { actor: { type: 'user', id: stored.userId }, request },
        {
          action: 'auth.session.signed_in',
          target: { type: 'user', id: stored.userId },
          metadata: { method: 'passkey', sessionId: issued.sessionId, userVerified: asserted.userVerified },
        },
      )
      return issued
    })
    if (!issued) throw refused()
    const [user] = await this.deps.db.select().from(users).where(eq(users.id, stored.userId))
    return this.accounts.authResult(user!, issued)
  }

  /**
   * Request options for verifying the caller's account with one of its passkeys after a password
   * sign-in (`aal1`): its passkeys are allowed; the answer goes to POST /auth/mfa/verify.
   */
  async stepUpOptions(principal: Principal, origin?: string) {
    requireInteractive(principal)
    this.usableAt(origin)
    const own = await this.deps.db
      .select({ id: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, principal.userId))
    if (own.length === 0) throw authError(409, 'conflict', 'This account has no passkey: verify with a code from the authenticator app or a recovery code')
    const options = await (await webauthn()).generateAuthenticationOptions({
      rpID: this.deps.config.webauthn.rpId,
      allowCredentials: own.map((c) => ({ id: c.id, transports: c.transports })),
      userVerification: 'preferred',
    })
    await this.keep(options.challenge, 'verify', principal.userId)
    return options
  }

  /** Step-up with one of the caller's passkeys (its presence is the second factor, after the password): the session becomes `aal2`, as with a code. */
  stepUp(principal: Principal, response: AuthenticationResponse): Promise<AuthResultView> {
    return this.mfa.stepUp(principal, 'The passkey was not accepted', async (tx) => {
      const [stored] = await tx
        .select()
        .from(passkeys)
        .where(and(eq(passkeys.credentialId, response.id ?? ''), eq(passkeys.userId, principal.userId)))
      return stored && (await this.assert(tx, stored, response, 'verify', principal.userId)) ? 'webauthn' : null
    })
  }

  /** Removes one of the caller's passkeys (`aal2`): as removing any factor. */
  async remove(principal: Principal, id: string): Promise<void> {
    requireInteractive(principal)
    const [own] = await this.deps.db
      .select({ id: passkeys.factorId })
      .from(passkeys)
      .where(and(eq(passkeys.factorId, id), eq(passkeys.userId, principal.userId)))
    if (!own) throw authError(404, 'not_found', 'No such passkey')
    await this.mfa.removeFactor(principal, id)
  }

  /**
   * Checks an assertion of `stored` against a challenge handed out for `purpose` (spent here, in
   * `tx`) and moves its sign counter forward, also when two assertions race (a replayed or cloned
   * one finds it moved): whether the user was verified, or null when it is not accepted.
   */
  private async assert(
    tx: Db,
    stored: PasskeyRow,
    response: AuthenticationResponse,
    purpose: Purpose,
    userId: string | null,
  ): Promise<{ userVerified: boolean } | null> {
    let verification: Awaited<ReturnType<typeof verifyAuthenticationResponse>>
    try {
      verification = await (await webauthn()).verifyAuthenticationResponse({
        response,
        expectedChallenge: (challenge) => this.spend(tx, challenge, purpose, userId),
        expectedOrigin: this.deps.config.webauthn.origins,
        expectedRPID: this.deps.config.webauthn.rpId,
        credential: {
          id: stored.credentialId,
          publicKey: new Uint8Array(Buffer.from(stored.publicKey, 'base64url')),
          counter: stored.counter,
          transports: stored.transports,
        },
        requireUserVerification: false,
      })
    } catch {
      return null
    }
    if (!verification.verified) return null
    const { newCounter, userVerified } = verification.authenticationInfo
    const [moved] = await tx
      .update(passkeys)
      .set({ counter: newCounter })
      .where(and(eq(passkeys.factorId, stored.factorId), newCounter === 0 ? eq(passkeys.counter, 0) : lt(passkeys.counter, newCounter)))
      .returning({ id: passkeys.factorId })
    if (!moved) return null
    await tx.update(mfaFactors).set({ lastUsedAt: this.deps.now() }).where(eq(mfaFactors.id, stored.factorId))
    return { userVerified }
  }

  private async keep(challenge: string, purpose: Purpose, userId: string | null): Promise<void> {
    const now = this.deps.now()
    await this.deps.db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now))
    await this.deps.db.insert(webauthnChallenges).values({ challenge, purpose, userId, expiresAt: new Date(now.getTime() + CHALLENGE_MS) })
  }

  /** True once for a challenge this service handed out for `purpose` (and user), unexpired. */
  private async spend(db: Db, challenge: string, purpose: Purpose, userId: string | null): Promise<boolean> {
    const conditions = [eq(webauthnChallenges.challenge, challenge), eq(webauthnChallenges.purpose, purpose), gt(webauthnChallenges.expiresAt, this.deps.now())]
    if (userId) conditions.push(eq(webauthnChallenges.userId, userId))
    const spent = await db
      .delete(webauthnChallenges)
      .where(and(...conditions))
      .returning({ challenge: webauthnChallenges.challenge })
    return spent.length === 1
  }
}
