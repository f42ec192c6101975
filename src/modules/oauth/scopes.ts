/**
 * The scopes a client application can be granted, in the order they are shown and returned.
 * An API area that third parties may reach adds its scope here and declares `scope: '<name>'` on
 * its routes (platform/auth.ts); routes that declare no scope refuse OAuth access tokens.
 */
export const SCOPES = {
  profile: 'Read your profile: id, name, avatar, slug and capabilities (GET /api/auth/me)',
  email: 'Read your e-mail address (added to GET /api/auth/me)',
} as const

export type Scope = keyof typeof SCOPES
export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[]
/** What a client may ask for when it registers without naming scopes. */
export const DEFAULT_CLIENT_SCOPES: Scope[] = ['profile', 'email']

export const isScope = (name: string): name is Scope => Object.hasOwn(SCOPES, name)

/** Deduplicated, in catalogue order. */
export function canonicalScopes(names: Iterable<string>): Scope[] {
  const wanted = new Set(names)
  return SCOPE_NAMES.filter((s) => wanted.has(s))
}

/** Splits an RFC 6749 scope string (space-separated); empty pieces are dropped. */
export function splitScope(value: string): string[] {
  return value.split(' ').filter(Boolean)
}
