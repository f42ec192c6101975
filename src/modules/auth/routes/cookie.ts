import type { Config } from '../../../config'

/** The httpOnly cookie that carries a browser's refresh token (path /auth), for front ends that keep no token in page storage. */
export const REFRESH_COOKIE = 'ecobase_refresh'

export type CookieJar = Record<string, { value?: unknown; set(o: object): unknown; remove(): unknown }>

/**
 * Setting and clearing the refresh cookie, as every route that issues account tokens does
 * (register, login, refresh, a second factor's step-up, a passkey sign-in): the session then
 * survives a reload in a page that keeps only the cookie.
 */
export function refreshCookie(config: Pick<Config, 'corsOrigins' | 'publicUrl' | 'refreshTokenTtl'>) {
  // Front ends on CORS origins are cross-site: the cookie reaches them only as SameSite=None, which browsers accept only when Secure.
  const crossSite = config.corsOrigins.length > 0
  const options = {
    httpOnly: true,
    sameSite: crossSite ? ('none' as const) : ('strict' as const),
    path: '/auth',
    secure: crossSite || config.publicUrl.startsWith('https://'),
  }
  return {
    keep: (cookie: unknown, refreshToken: string) =>
      (cookie as CookieJar)[REFRESH_COOKIE]!.set({ value: refreshToken, maxAge: config.refreshTokenTtl, ...options }),
    clear: (cookie: unknown) => (cookie as CookieJar)[REFRESH_COOKIE]!.set({ value: '', maxAge: 0, ...options }),
  }
}
