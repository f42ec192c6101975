import { errors as joseErrors, jwtVerify, SignJWT, type JWTPayload } from 'jose'
import { AppError } from './errors'

export interface AccessClaims extends JWTPayload {
  sub: string
  typ: string
  exp: number
}

const CACHE_LIMIT = 10_000

/**
 * HS256 access tokens. Verified tokens are cached until their own `exp` (bounded LRU), so a hot
 * token costs a map lookup instead of an HMAC; revocation is enforced by the session check, not here.
 */
export class AccessTokens {
  private readonly key: Uint8Array
  private readonly verified = new Map<string, AccessClaims>()

  constructor(
    secret: string,
    private readonly issuer: string,
    private readonly now: () => Date,
  ) {
    this.key = new TextEncoder().encode(secret)
  }

  async sign(claims: Record<string, unknown> & { sub: string; typ: string }, ttlSeconds: number): Promise<string> {
    const iat = Math.floor(this.now().getTime() / 1000)
    const { sub, ...rest } = claims
    return new SignJWT(rest)
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(sub)
      .setIssuer(this.issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ttlSeconds)
      .sign(this.key)
  }

  /** Returns the claims of a valid token; 401 `token_expired` or `unauthorized` otherwise. */
  async verify(token: string): Promise<AccessClaims> {
    const nowSec = this.now().getTime() / 1000
    const cached = this.verified.get(token)
    if (cached) {
      if (cached.exp > nowSec) return cached
      this.verified.delete(token)
      throw new AppError(401, 'token_expired', 'The access token has expired')
    }
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: this.issuer,
        currentDate: this.now(),
      }))
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) throw new AppError(401, 'token_expired', 'The access token has expired')
      throw new AppError(401, 'unauthorized', 'The access token is not valid')
    }
    if (typeof payload.sub !== 'string' || typeof payload.typ !== 'string' || typeof payload.exp !== 'number') {
      throw new AppError(401, 'unauthorized', 'The access token is not valid')
    }
    if (this.verified.size >= CACHE_LIMIT) this.verified.delete(this.verified.keys().next().value!)
    const claims = payload as AccessClaims
    this.verified.set(token, claims)
    return claims
  }
}
