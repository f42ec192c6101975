/**
 * What the client keeps. The names match the server's `{ token, refreshToken }`, so a login or
 * refresh result can be passed as it is. An API token (`eco_...`) is a `token` with no
 * `refreshToken`: it is sent as a bearer credential and never refreshed.
 */
export interface Tokens {
  token: string
  refreshToken?: string | null
}

/** The claims of a JWT, read without verifying it (the server verifies). Null for anything that is not a JWT. */
function jwtClaims(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1]
  if (!part || token.split('.').length !== 3) return null
  try {
    const base64 = part.replace(/-/g, '+').replace(/_/g, '/')
    const claims: unknown = JSON.parse(atob(base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=')))
    return claims && typeof claims === 'object' ? (claims as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/** The `exp` and `iat` claims of a JWT (the client only wants to know when to refresh). */
export function jwtTimes(token: string): { exp: number; iat: number | null } | null {
  const claims = jwtClaims(token)
  if (typeof claims?.exp !== 'number') return null
  return { exp: claims.exp, iat: typeof claims.iat === 'number' ? claims.iat : null }
}

/** A customer session's access token (`typ: customer`), which refreshes through /customer/refresh. */
export function isCustomerToken(token: string): boolean {
  return jwtClaims(token)?.typ === 'customer'
}

/**
 * When (on the local clock, in ms) to refresh an access token proactively, or null for "never".
 *
 * A token just received from the server is timed from its arrival plus its lifetime
 * (`exp - iat`), so a device clock that is off by minutes or hours neither refreshes on every
 * request nor waits past expiry. A token handed in by the app (restored from storage) has no
 * known arrival time, so its `exp` is read against the local clock; if that is wrong the next
 * refresh brings a token timed from arrival.
 */
export function refreshDeadline(token: string, leewayMs: number, receivedAt: number | null): number | null {
  const times = jwtTimes(token)
  if (!times || leewayMs <= 0) return null
  const lifetimeMs = times.iat !== null ? (times.exp - times.iat) * 1000 : null
  // Never refresh earlier than halfway through a token's life, whatever the leeway.
  const margin = lifetimeMs !== null ? Math.min(leewayMs, lifetimeMs / 2) : leewayMs
  const expiresAt = receivedAt !== null && lifetimeMs !== null ? receivedAt + lifetimeMs : times.exp * 1000
  return expiresAt - margin
}
