import * as OTPAuth from 'otpauth'
import type { Harness, RegisteredUser } from './harness'

/**
 * Second factors as a user's device would answer: TOTP codes computed by an independent library
 * (otpauth) at the app's clock, which moves on a whole 30 s step after each accepted code so the
 * next one is fresh (each step is accepted once).
 */
export function mfaKit(h: Harness) {
  const code = (secret: string) =>
    new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({ timestamp: h.deps.now().getTime() })
  const nextStep = () => h.advanceClock(30_000)

  /** Enrolls a TOTP factor with `user`'s session: its secret, id and recovery codes. */
  async function enrol(user: { token: string }, name = 'Phone') {
    const start = await h.call('POST', '/auth/mfa/totp', { token: user.token, body: { name } })
    if (start.status !== 200) throw new Error(`enrol failed: ${start.status} ${JSON.stringify(start.body)}`)
    const confirm = await h.call('POST', `/auth/mfa/totp/${start.body.factorId}/confirm`, { token: user.token, body: { code: code(start.body.secret) } })
    if (confirm.status !== 200) throw new Error(`confirm failed: ${confirm.status} ${JSON.stringify(confirm.body)}`)
    nextStep()
    return { secret: start.body.secret as string, factorId: start.body.factorId as string, recoveryCodes: confirm.body.recoveryCodes as string[] | undefined }
  }

  /** A password sign-in: `aal1` when the account has a factor. */
  async function login(user: RegisteredUser): Promise<{ token: string; refreshToken: string }> {
    return (await h.call('POST', '/auth/login', { body: { email: user.email, password: user.password } })).body
  }

  /** A password sign-in raised to `aal2` with a code. */
  async function strong(user: RegisteredUser, secret: string): Promise<{ token: string; refreshToken: string }> {
    const verified = await h.call('POST', '/auth/mfa/verify', { token: (await login(user)).token, body: { code: code(secret) } })
    if (verified.status !== 200) throw new Error(`verify failed: ${verified.status} ${JSON.stringify(verified.body)}`)
    nextStep()
    return verified.body
  }

  return { code, nextStep, enrol, login, strong }
}
