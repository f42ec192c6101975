const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/

/**
 * Why a redirect URI cannot be registered, or null when it can: absolute https, or http on a
 * loopback host (native apps, RFC 8252), never a fragment (RFC 6749 §3.1.2) or user info.
 */
export function redirectUriProblem(uri: string): string | null {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return 'is not an absolute URL'
  }
  if (uri.includes('#')) return 'must not contain a fragment'
  if (/\s/.test(uri)) return 'must not contain white space'
  if (url.username || url.password) return 'must not contain user info'
  if (url.protocol === 'https:') return null
  if (url.protocol === 'http:' && LOOPBACK_HOST.test(url.hostname)) return null
  return 'must use https (http only on a loopback host)'
}

/** Adds response parameters to a registered redirect URI, keeping its own query (RFC 6749 §3.1.2). */
export function withParams(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams()
  for (const [k, v] of Object.entries(params)) if (v !== undefined) query.set(k, v)
  const base = redirectUri.endsWith('?') ? redirectUri : redirectUri + (redirectUri.includes('?') ? '&' : '?')
  return base + query.toString()
}
