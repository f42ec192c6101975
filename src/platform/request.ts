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
