import type { TokenRequest } from '../tokens'

type Fields = Pick<TokenRequest, 'fields' | 'problem'>

/**
 * Parses a token-endpoint body without ever failing, so every problem is answered in the RFC 6749
 * error form rather than the general one: form-encoded (what standard clients send) or JSON.
 */
export async function parseTokenBody({ request, contentType }: { request: Request; contentType: string }): Promise<Fields> {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  const text = await request.text()
  const fields: Record<string, string> = Object.create(null)
  if (type === 'application/x-www-form-urlencoded') {
    const repeated = new Set<string>()
    for (const [key, value] of new URLSearchParams(text)) {
      if (key in fields) repeated.add(key)
      fields[key] = value
    }
    return repeated.size ? { fields, problem: `Parameters must not be repeated: ${[...repeated].join(', ')}` } : { fields }
  }
  if (type === 'application/json') {
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch {
      return { fields, problem: 'The body is not valid JSON' }
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { fields, problem: 'The body must be a JSON object' }
    for (const [key, v] of Object.entries(value)) {
      if (typeof v !== 'string') return { fields, problem: `${key} must be a string` }
      fields[key] = v
    }
    return { fields }
  }
  if (!text) return { fields }
  return { fields, problem: 'Send the parameters as application/x-www-form-urlencoded or application/json' }
}

/** `Authorization: Basic` client credentials (RFC 6749 §2.3.1: each part form-urlencoded). */
export function basicCredentials(header: string | undefined): TokenRequest['basic'] {
  if (!header) return undefined
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header)
  if (!match) return 'malformed'
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon < 0) return 'malformed'
  try {
    const part = (s: string) => decodeURIComponent(s.replaceAll('+', ' '))
    return { clientId: part(decoded.slice(0, colon)), clientSecret: part(decoded.slice(colon + 1)) }
  } catch {
    return 'malformed'
  }
}

/** The token request a route hands to the service: whatever the parser made of the body, plus Basic. */
export function tokenRequest(body: unknown, authorization: string | undefined): TokenRequest {
  const parsed = (body && typeof body === 'object' && 'fields' in body ? body : { fields: {} }) as Fields
  return { ...parsed, basic: basicCredentials(authorization) }
}

/** Documents a body the route parses itself: both media types, one schema. */
export function tokenRequestBody(schema: object, description: string) {
  return {
    description,
    required: true,
    content: {
      'application/x-www-form-urlencoded': { schema },
      'application/json': { schema },
    },
  }
}
