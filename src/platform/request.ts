import type { Server } from 'bun'

/**
 * The caller's address: the socket peer, or the first X-Forwarded-For hop when TRUST_PROXY=on
 * (only behind a proxy that sets it; otherwise clients could choose their own address).
 */
export function clientIp(request: Request, server: Server<unknown> | null | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',')[0]?.trim()
    if (forwarded) return forwarded
  }
  return server?.requestIP(request)?.address ?? 'unknown'
}

/** How deeply a JSON body may nest arrays and objects; deeper is refused before it is parsed. */
export const MAX_JSON_DEPTH = 64

/**
 * Why a JSON text is refused before anything parses or walks it: nesting deeper than `maxDepth`
 * (recursive code further on — validation, cleaning, the database driver — would overflow the
 * stack on 20,000 levels), or a lone surrogate, raw or as a `\uD800`-style escape, which is not
 * Unicode text and which PostgreSQL refuses to store. One pass over the raw text, brackets counted
 * outside strings; anything else malformed is left for the JSON parser to report.
 */
export function refusedJson(text: string, maxDepth = MAX_JSON_DEPTH): 'too_deep' | 'lone_surrogate' | null {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) i++
      else return 'lone_surrogate'
    } else if (inString) {
      if (c === 0x22) inString = false
      else if (c === 0x5c) {
        if (text.charCodeAt(i + 1) !== 0x75) {
          i++ // a one-character escape such as \" or \\
          continue
        }
        const unit = hex4(text, i + 2)
        if (unit >= 0xd800 && unit <= 0xdbff) {
          if (text.charCodeAt(i + 6) !== 0x5c || text.charCodeAt(i + 7) !== 0x75 || !isLowSurrogate(hex4(text, i + 8))) return 'lone_surrogate'
          i += 11
        } else if (isLowSurrogate(unit)) return 'lone_surrogate'
        else i += 5
      }
    } else if (c === 0x22) inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return 'too_deep'
    } else if (c === 0x5d || c === 0x7d) depth--
  }
  return null
}

/**
 * Whether a URL (path or query) holds a lone surrogate: percent-encoded as UTF-8 would have it
 * (`%ED%A0%80`…`%ED%BF%BF`, which no valid UTF-8 contains) or as a raw code unit.
 */
export function urlHasLoneSurrogate(url: string): boolean {
  return /%ed%[ab][0-9a-f]/i.test(url) || !url.isWellFormed()
}

const isLowSurrogate = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff

/** The four hex digits at `at` as a number, or -1. */
function hex4(text: string, at: number): number {
  const digits = text.slice(at, at + 4)
  return /^[0-9a-fA-F]{4}$/.test(digits) ? Number.parseInt(digits, 16) : -1
}
