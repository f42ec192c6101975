/**
 * Which kind of network an IP address belongs to, to decide what the server may connect to on a
 * tenant's behalf. Pure: no DNS, no I/O.
 *
 * - `public`: globally routable unicast.
 * - `private`: loopback, RFC 1918, carrier-grade NAT (100.64/10), unique-local (fc00::/7) and the
 *   other special-purpose ranges that are not globally reachable (documentation, benchmarking,
 *   IETF protocol assignments, deprecated site-local). Reached only when the operator allows it.
 * - `never`: no model service lives there: link-local (169.254/16, fe80::/10, where cloud metadata
 *   answers), the other metadata hosts, unspecified, multicast, broadcast and reserved ranges.
 *
 * IPv6 forms that deliver to an IPv4 address (IPv4-mapped ::ffff:0:0/96, IPv4-compatible ::/96,
 * NAT64 64:ff9b::/96, 6to4 2002::/16) are judged by that IPv4 address.
 */
export type AddressClass = 'public' | 'private' | 'never'

/** `deny`: only public addresses; `allow`: private ones too. `never` addresses are refused either way. */
export type PrivateAddressPolicy = 'deny' | 'allow'

/** `ipv4`: judged by the IPv4 address found `ipv4Shift` bits from the right. */
type Range<K> = { network: bigint; bits: number; length: number; kind: K; ipv4Shift: bigint }

const range = <K extends AddressClass | 'ipv4'>(cidr: string, kind: K, ipv4Shift = 0n): Range<K> => {
  const [address, length] = cidr.split('/') as [string, string]
  const v4 = parseIpv4(address)
  const network = v4 ?? parseIpv6(address)
  if (network === null) throw new Error(`bad range ${cidr}`)
  return { network, bits: v4 === null ? 128 : 32, length: Number(length), kind, ipv4Shift }
}

/** First match wins, so the narrower ranges come before the ranges holding them. */
const IPV4: Range<AddressClass>[] = [
  range('0.0.0.0/8', 'never'), // "this network"; 0.0.0.0 reaches the local host
  range('10.0.0.0/8', 'private'),
  range('100.100.100.200/32', 'never'), // Alibaba Cloud metadata, inside CGNAT
  range('100.64.0.0/10', 'private'), // carrier-grade NAT
  range('127.0.0.0/8', 'private'), // loopback
  range('168.63.129.16/32', 'never'), // Azure platform endpoint (WireServer)
  range('169.254.0.0/16', 'never'), // link-local: cloud metadata at 169.254.169.254
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'private'), // IETF protocol assignments
  range('192.0.2.0/24', 'private'), // documentation
  range('192.88.99.0/24', 'private'), // 6to4 relay anycast (deprecated)
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'private'), // benchmarking
  range('198.51.100.0/24', 'private'), // documentation
  range('203.0.113.0/24', 'private'), // documentation
  range('224.0.0.0/4', 'never'), // multicast
  range('240.0.0.0/4', 'never'), // reserved, and the 255.255.255.255 broadcast
]

const IPV6: Range<AddressClass | 'ipv4'>[] = [
  range('::/128', 'never'), // unspecified
  range('::1/128', 'private'), // loopback
  range('::ffff:0:0/96', 'ipv4'), // IPv4-mapped
  range('::/96', 'ipv4'), // IPv4-compatible (deprecated)
  range('64:ff9b::/96', 'ipv4'), // NAT64: the gateway connects to the IPv4 address
  range('64:ff9b:1::/48', 'private'), // local-use NAT64
  range('100::/64', 'private'), // discard-only
  range('2001::/23', 'private'), // IETF protocol assignments (Teredo, ORCHID, benchmarking)
  range('2001:db8::/32', 'private'), // documentation
  range('2002::/16', 'ipv4', 80n), // 6to4: the IPv4 address in bits 16-47
  range('3fff::/20', 'private'), // documentation
  range('fd00:ec2::254/128', 'never'), // AWS metadata over IPv6, inside unique-local
  range('fc00::/7', 'private'), // unique-local
  range('fe80::/10', 'never'), // link-local
  range('fec0::/10', 'private'), // site-local (deprecated)
  range('ff00::/8', 'never'), // multicast
  range('2000::/3', 'public'), // global unicast; everything outside it is reserved
]

const contains = (r: Range<unknown>, value: bigint) => value >> BigInt(r.bits - r.length) === r.network >> BigInt(r.bits - r.length)

function classifyIpv4(value: bigint): AddressClass {
  return IPV4.find((r) => contains(r, value))?.kind ?? 'public'
}

function classifyIpv6(value: bigint): AddressClass {
  const r = IPV6.find((r) => contains(r, value))
  if (!r) return 'never'
  return r.kind === 'ipv4' ? classifyIpv4((value >> r.ipv4Shift) & 0xffffffffn) : r.kind
}

/** The class of an IPv4 or IPv6 address (an IPv6 zone suffix is ignored); null when `ip` is not one. */
export function classifyAddress(ip: string): AddressClass | null {
  const v4 = parseIpv4(ip)
  if (v4 !== null) return classifyIpv4(v4)
  const v6 = parseIpv6(ip)
  return v6 === null ? null : classifyIpv6(v6)
}

/** Whether the server may connect to `ip` under `policy`; anything that is not an address is refused. */
export function addressAllowed(ip: string, policy: PrivateAddressPolicy): boolean {
  const kind = classifyAddress(ip)
  return kind === 'public' || (kind === 'private' && policy === 'allow')
}

/** The IP address a URL's `hostname` names literally (IPv6 without its brackets), or null for a domain name. */
export function hostAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  return classifyAddress(bare) === null ? null : bare
}

/** Dotted-quad IPv4 as WHATWG URLs and DNS write it (no octal, hex or shortened forms). */
function parseIpv4(text: string): bigint | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0n
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null
    value = (value << 8n) | BigInt(part)
  }
  return value
}

function parseIpv6(text: string): bigint | null {
  let rest = text.replace(/%[^%]*$/, '')
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(rest)
  if (dotted) {
    const v4 = parseIpv4(dotted[2]!)
    if (v4 === null) return null
    rest = `${dotted[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`
  }
  const halves = rest.split('::')
  if (halves.length > 2) return null
  const head = halves[0] ? halves[0].split(':') : []
  const tail = halves.length === 2 && halves[1] ? halves[1].split(':') : []
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null
  let value = 0n
  for (const group of [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail]) {
    if (!/^[0-9a-f]{1,4}$/i.test(group)) return null
    value = (value << 16n) | BigInt(parseInt(group, 16))
  }
  return value
}
