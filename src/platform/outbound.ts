import { lookup } from 'node:dns/promises'
import { isIPv4 } from 'node:net'
import { SpanKind } from '@opentelemetry/api'
import { ATTR_HTTP_RESPONSE_STATUS_CODE } from '@opentelemetry/semantic-conventions'
import { AppError } from './errors'
import { addressAllowed, classifyAddress, hostAddress, type PrivateAddressPolicy } from './ip-ranges'
import { inChildSpan, injectTraceHeaders, outboundAttributes } from './tracing'

/**
 * The one gate for connections the server makes on a tenant's behalf (webhooks, monitored sites,
 * tenant SMTP and site-service URLs, persona services): a host is resolved once, every address it
 * has must be allowed under the policy, and the connection goes to that checked address — never to
 * a second lookup, so a name that changes its answer in between (DNS rebinding) cannot slip
 * through. The name stays where the protocol needs it (Host header, TLS SNI and certificate check).
 * No message says which address a name resolved to, so tenants cannot map the operator's DNS.
 */

export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

/** Every address a host name has. Injectable so tests can stub DNS. */
export type Resolver = (hostname: string) => Promise<string[]>

export const systemResolver: Resolver = async (hostname) => (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address)

/** A request the gate did not send (or whose redirect it did not follow); the message is safe to show to the tenant. */
export class OutboundRefused extends Error {}

/** A host whose name did not resolve at use; the message names the host only. */
export class OutboundUnresolved extends Error {}

/** Who makes a call through the gate, as the metrics count it: a fixed set, never a URL or a tenant. */
export type OutboundKind = 'webhook' | 'monitored_site' | 'persona_service'

/**
 * How a call ended: `success` (an answer below 400), `http_error` (an answer of 400 or more),
 * `blocked` (the gate refused it: an address not allowed, a redirect not followed), `timeout` (its
 * deadline passed), `cancelled` (its caller gave up first: the openai SDK cancels this way when a
 * model service stays silent past CHAT_TIMEOUT_SECONDS, or when the chat's client went away),
 * `network_error` (no answer: the name did not resolve, the connection failed or was cut).
 */
export type OutboundOutcome = 'success' | 'http_error' | 'network_error' | 'blocked' | 'timeout' | 'cancelled'

/** Where calls through the gate are counted: the app's Metrics. */
export interface OutboundMeter {
  outbound(kind: OutboundKind, outcome: OutboundOutcome, seconds: number): void
}

/** The outcome of a call that failed with `err` (its `signal` says whether a deadline passed). */
export function failureOutcome(err: unknown, signal?: AbortSignal | null): OutboundOutcome {
  if (err instanceof OutboundRefused) return 'blocked'
  const reason = (signal?.aborted ? signal.reason : err) as Error | undefined
  if (reason?.name === 'TimeoutError') return 'timeout'
  return reason?.name === 'AbortError' ? 'cancelled' : 'network_error'
}

export const answerOutcome = (status: number): OutboundOutcome => (status < 400 ? 'success' : 'http_error')

/** Starts timing one call of `kind`: the function returned counts it with its outcome (nothing without a meter). */
export function outboundTimer(meter: OutboundMeter | undefined, kind: OutboundKind): (outcome: OutboundOutcome) => void {
  if (!meter) return () => {}
  const started = performance.now()
  return (outcome) => meter.outbound(kind, outcome, (performance.now() - started) / 1000)
}

/** A host checked and fixed to one address: connect to `address`, speak to `hostname`. */
export interface PinnedHost {
  /** The host as given, normalised (lower case; IP addresses in canonical form, without brackets). */
  hostname: string
  /** The checked address to connect to. */
  address: string
  /** Whether the host was an IP address to begin with (then there is no name for SNI). */
  literal: boolean
}

/**
 * A host as WHATWG URLs normalise it: lower case, an IPv4 address in any spelling (decimal
 * `2130706433`, hex `0x7f000001`, octal `0177.0.0.1`, shortened `127.1`) as a dotted quad, IPv6
 * compressed; no brackets. Null when it is not a plain host (user info, path or port included).
 */
export function canonicalHost(host: string): string | null {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host
  const v6 = bare.includes(':')
  if (!(v6 ? /^[0-9A-Fa-f:.]+$/ : /^[A-Za-z0-9._-]+$/).test(bare)) return null
  try {
    const hostname = new URL(`http://${v6 ? `[${bare}]` : bare}/`).hostname
    return hostname.startsWith('[') ? hostname.slice(1, -1) : hostname
  } catch {
    return null
  }
}

const wording = (address: string) =>
  classifyAddress(address) === 'private'
    ? 'a private address (loopback, private network, carrier-grade NAT or unique-local)'
    : 'a link-local, cloud-metadata or reserved address'

/** Races `work` against `signal`, rejecting with its reason (e.g. a TimeoutError) when it fires first. */
function abortable<T>(work: Promise<T>, signal?: AbortSignal | null): Promise<T> {
  if (!signal) return work
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

/**
 * Resolves `host` once and checks every address under `policy`: OutboundRefused when one is not
 * allowed, OutboundUnresolved when the name has none. Returns the address to connect to (IPv4
 * first, as most networks route it). Messages name the host as given, never an address it has.
 */
export async function pinHost(
  host: string,
  policy: PrivateAddressPolicy,
  options: { resolve?: Resolver; signal?: AbortSignal | null } = {},
): Promise<PinnedHost> {
  const display = host
  const hostname = canonicalHost(host)
  if (hostname === null) throw new OutboundRefused(`Refused to connect to ${display}: not a host name`)
  const literal = hostAddress(hostname)
  let addresses: string[]
  if (literal !== null) addresses = [literal]
  else {
    try {
      addresses = await abortable((options.resolve ?? systemResolver)(hostname), options.signal)
    } catch (err) {
      if (options.signal?.aborted) throw err
      addresses = []
    }
    if (addresses.length === 0) throw new OutboundUnresolved(`${display} does not resolve`)
  }
  const refused = addresses.find((address) => !addressAllowed(address, policy))
  if (refused !== undefined) throw new OutboundRefused(`Refused to connect to ${display}: it has ${wording(refused)}`)
  return { hostname, address: addresses.find((a) => isIPv4(a)) ?? addresses[0]!, literal: literal !== null }
}

/** Replaces the pinned address in an error's text by the host name, so the error can be shown. */
export function hideAddress(text: string, pinned: PinnedHost): string {
  if (pinned.literal) return text
  return text.split(`[${pinned.address}]`).join(pinned.hostname).split(pinned.address).join(pinned.hostname)
}

function hideInError(err: unknown, pinned: PinnedHost): unknown {
  if (pinned.literal || !(err instanceof Error)) return err
  try {
    err.message = hideAddress(err.message, pinned)
    const withPath = err as Error & { path?: unknown }
    if (typeof withPath.path === 'string') withPath.path = hideAddress(withPath.path, pinned)
  } catch {}
  return err
}

/**
 * One request for `url`, sent to the pinned address: the URL's host becomes the address, the Host
 * header keeps the name (and port), and for https the TLS server name (SNI and the certificate
 * check) is the name. Redirects are answers here, never followed. Inside a traced request or job
 * the call is a client span (method, host and port: never the path or query, which may carry
 * tokens) and the receiver gets `traceparent` to continue the trace.
 */
export async function fetchPinned(url: URL, pinned: PinnedHost, init: RequestInit = {}): Promise<Response> {
  const target = new URL(url)
  target.hostname = pinned.address.includes(':') ? `[${pinned.address}]` : pinned.address
  const method = (init.method ?? 'GET').toUpperCase()
  return inChildSpan(method, SpanKind.CLIENT, outboundAttributes(method, url), async (span) => {
    const headers = new Headers(init.headers)
    headers.set('host', url.host)
    injectTraceHeaders(headers)
    const given = (init as BunFetchRequestInit).tls
    const tls = url.protocol === 'https:' && !pinned.literal ? { tls: { ...given, serverName: pinned.hostname } } : {}
    try {
      const response = await fetch(target, { ...init, headers, redirect: 'manual', ...tls } as BunFetchRequestInit)
      span?.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, response.status)
      return response
    } catch (err) {
      throw hideInError(err, pinned)
    }
  })
}

/**
 * A fetch for URLs a tenant chose, through the gate: each request resolves the host once, is
 * refused when any address is not allowed under `policy`, and goes to the checked address. It never
 * follows a redirect, which could bounce the request from an allowed host to a forbidden one (with
 * `redirects: 'return'` the 3xx answer itself is returned, e.g. for a monitor that expects it).
 * With a `meter`, each call is counted under its `kind` with its outcome and duration.
 */
export function guardedFetch(
  policy: PrivateAddressPolicy,
  options: { kind: OutboundKind; meter?: OutboundMeter; redirects?: 'refuse' | 'return'; resolve?: Resolver },
): Fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : null
    const url = new URL(input instanceof Request ? input.url : input)
    const merged: RequestInit = request
      ? { method: request.method, headers: request.headers, body: request.body, signal: request.signal, ...init }
      : { ...init }
    const done = outboundTimer(options.meter, options.kind)
    try {
      const pinned = await pinHost(url.hostname, policy, { resolve: options.resolve, signal: merged.signal })
      const response = await fetchPinned(url, pinned, merged)
      if (options.redirects !== 'return' && response.status >= 300 && response.status < 400 && response.headers.has('location')) {
        await response.body?.cancel()
        throw new OutboundRefused(`Refused to follow the redirect (${response.status}) the service answered: use its final address`)
      }
      done(answerOutcome(response.status))
      return response
    } catch (err) {
      done(failureOutcome(err, merged.signal))
      throw err
    }
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

/**
 * Who chose the server a provider config names: the operator (SMTP_URL: trusted, connected to as
 * configured) or a tenant (through the gate, under `policy`). Carried on the config under a symbol
 * key, which nothing parsed from JSON can forge; a config without it counts as a tenant's under
 * `deny`.
 */
export type ChosenBy = { by: 'operator' } | { by: 'tenant'; policy: PrivateAddressPolicy }
const CHOSEN_BY = Symbol('outbound.chosenBy')

export function markChosenBy<T extends object>(config: T, who: ChosenBy): T {
  return Object.assign(config, { [CHOSEN_BY]: who })
}

export function chosenBy(config: object): ChosenBy {
  return (config as { [CHOSEN_BY]?: ChosenBy })[CHOSEN_BY] ?? { by: 'tenant', policy: 'deny' }
}

export interface SmtpServer {
  host: string
  port?: number
  secure: boolean
  auth?: { user: string; pass: string }
}

/**
 * The server an SMTP setting names: `url` (`smtp://` or `smtps://`, credentials in it; query
 * options are not taken) or `host` with `port`, `secure`, `user` and `pass`. Null when the url is
 * none.
 */
export function smtpServer(config: Record<string, unknown>): SmtpServer | null {
  if (config.url === undefined) {
    return {
      host: String(config.host),
      port: config.port === undefined ? undefined : Number(config.port),
      secure: config.secure === true,
      auth: config.user ? { user: String(config.user), pass: String(config.pass ?? '') } : undefined,
    }
  }
  let url: URL
  try {
    url = new URL(String(config.url))
  } catch {
    return null
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') return null
  const decode = (text: string) => {
    try {
      return decodeURIComponent(text)
    } catch {
      return text
    }
  }
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    secure: url.protocol === 'smtps:',
    auth: url.username || url.password ? { user: decode(url.username), pass: decode(url.password) } : undefined,
  }
}

/** How long a check at creation waits for DNS before it lets the name through (to be checked at use). */
const SAVE_LOOKUP_MS = 2000

/** Why a tenant may not save a host: it is (`resolved`: its name resolves to) a `private` or a `never` address. */
export type HostRefusal = { kind: 'private' | 'never'; resolved: boolean } | { kind: 'not_a_host' }

/**
 * Whether a tenant may save a host (for a URL or a server it names): null when it may; a refusal
 * for a literal address not allowed under `policy`, or a name with an address that is not
 * (resolved now). A name that does not resolve now passes: every use checks it again.
 */
export async function hostRefusal(host: string, policy: PrivateAddressPolicy, resolve: Resolver = systemResolver): Promise<HostRefusal | null> {
  const hostname = canonicalHost(host)
  if (hostname === null) return { kind: 'not_a_host' }
  const literal = hostAddress(hostname)
  let addresses: string[]
  if (literal !== null) addresses = [literal]
  else {
    try {
      addresses = await abortable(resolve(hostname), AbortSignal.timeout(SAVE_LOOKUP_MS))
    } catch {
      return null
    }
  }
  const refused = addresses.find((address) => !addressAllowed(address, policy))
  if (refused === undefined) return null
  return { kind: classifyAddress(refused) === 'private' ? 'private' : 'never', resolved: literal === null }
}

/**
 * 400 `validation_failed` naming `field` and saying why, when a tenant may not save `host` (see
 * hostRefusal); `setting` is the environment variable that allows private addresses.
 */
export async function assertTenantHost(field: string, host: string, policy: PrivateAddressPolicy, setting: string, resolve?: Resolver): Promise<void> {
  const refusal = await hostRefusal(host, policy, resolve)
  if (refusal === null) return
  if (refusal.kind === 'not_a_host') throw new AppError(400, 'validation_failed', `${field}: ${host} is not a host name`)
  const is = refusal.resolved ? `${host} resolves to` : `${host} is`
  const why =
    refusal.kind === 'private'
      ? `${is} a private address (loopback, private network, carrier-grade NAT or unique-local), which this instance does not connect to on a tenant's behalf (${setting}=${policy})`
      : `${is} a link-local, cloud-metadata, multicast or reserved address, which is never connected to`
  throw new AppError(400, 'validation_failed', `${field}: ${why}`)
}
