import { lookup } from 'node:dns/promises'
import { AppError } from './errors'
import { addressAllowed, classifyAddress, hostAddress, type PrivateAddressPolicy } from './ip-ranges'

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** A request the guard did not send (or whose redirect it did not follow); the message is safe to show to the tenant. */
export class OutboundRefused extends Error {}

/**
 * A fetch for URLs a tenant chose. Right before each request it resolves the host (every address)
 * and refuses when any address is not allowed under `policy`; it never follows a redirect, which
 * could bounce the request from an allowed host to a forbidden one (with `redirects: 'return'` the
 * 3xx answer itself is returned, e.g. for a monitor that expects it). The messages never say which
 * address a name resolved to, so tenants cannot map the operator's internal DNS.
 *
 * What remains: the connection resolves the name again, so a name that changes its answer between
 * the two lookups (DNS rebinding) can still reach a forbidden address.
 */
export function guardedFetch(policy: PrivateAddressPolicy, options: { redirects?: 'refuse' | 'return' } = {}): Fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : input)
    await assertHostAllowed(url.hostname, policy)
    const response = await fetch(input, { ...init, redirect: 'manual' })
    if (options.redirects !== 'return' && response.status >= 300 && response.status < 400 && response.headers.has('location')) {
      await response.body?.cancel()
      throw new OutboundRefused(`Refused to follow the redirect (${response.status}) the service answered: use its final address`)
    }
    return response
  }
}

/** A URL a tenant gave, parsed: 400 naming the field when it is none, or not http(s), or carries credentials. */
export function tenantUrl(value: string, field = 'url'): URL {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new AppError(400, 'validation_failed', `${field}: not a URL`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError(400, 'validation_failed', `${field}: must be http or https`)
  if (url.username || url.password) throw new AppError(400, 'validation_failed', `${field}: must not hold credentials`)
  return url
}

/** Resolves `hostname` (every address) and throws OutboundRefused when one is not allowed under `policy`. */
export async function assertHostAllowed(hostname: string, policy: PrivateAddressPolicy): Promise<void> {
  const literal = hostAddress(hostname)
  const addresses = literal ? [literal] : (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address)
  const refused = addresses.find((address) => !addressAllowed(address, policy))
  if (refused === undefined) return
  const what = classifyAddress(refused) === 'private' ? 'a private address (loopback, private network, carrier-grade NAT or unique-local)' : 'a link-local, cloud-metadata or reserved address'
  throw new OutboundRefused(`Refused to connect to ${hostname}: it has ${what}`)
}
