import { connect, type PeerCertificate } from 'node:tls'
import type { PrivateAddressPolicy } from '../../platform/ip-ranges'
import {
  answerOutcome,
  failureOutcome,
  fetchPinned,
  type OutboundMeter,
  OutboundRefused,
  outboundTimer,
  pinHost,
  type PinnedHost,
  type Resolver,
} from '../../platform/outbound'

/** At most this much of a body is read, to look for the keyword. */
export const MAX_BODY_BYTES = 1024 * 1024
const DAY_MS = 24 * 3600 * 1000

export interface ProbeTarget {
  url: string
  expectedStatus: number
  keyword: string | null
  timeoutMs: number
}

export interface ProbeResult {
  ok: boolean
  statusCode: number | null
  latencyMs: number | null
  error: string | null
  tlsDaysLeft: number | null
}

/** A probe cut short because the server is stopping: no result, nothing to record. */
export class ProbeStopped extends Error {
  constructor() {
    super('the server is stopping: the check was not finished')
  }
}

/**
 * One check: the host resolved once through the outbound gate, then a GET to that checked address
 * (redirects are answers, not followed), the status compared with the expected one, the first
 * MAX_BODY_BYTES searched for the keyword, and for https the days until the server's certificate
 * expires (read even when it is not trusted), over a connection to the same address.
 */
export class Prober {
  constructor(
    private readonly policy: PrivateAddressPolicy,
    private readonly now: () => Date,
    private readonly resolve?: Resolver,
    /** Where each check's request is counted (kind `monitored_site`). */
    private readonly meter?: OutboundMeter,
  ) {}

  /** Probes `target`; `stop` (the server stopping) ends it at once with ProbeStopped instead of a result. */
  async probe(target: ProbeTarget, stop?: AbortSignal): Promise<ProbeResult> {
    const url = new URL(target.url)
    const started = performance.now()
    const timeout = AbortSignal.timeout(target.timeoutMs)
    const signal = stop ? AbortSignal.any([timeout, stop]) : timeout
    const result = await this.probeWith(target, url, started, signal)
    if (stop?.aborted) throw new ProbeStopped()
    return result
  }

  private async probeWith(target: ProbeTarget, url: URL, started: number, signal: AbortSignal): Promise<ProbeResult> {
    const done = outboundTimer(this.meter, 'monitored_site')
    let pinned: PinnedHost
    try {
      pinned = await pinHost(url.hostname, this.policy, { resolve: this.resolve, signal })
    } catch (err) {
      done(failureOutcome(err, signal))
      const latencyMs = Math.round(performance.now() - started)
      const error =
        err instanceof OutboundRefused
          ? err.message
          : signal.aborted
            ? `no answer within ${target.timeoutMs} ms`
            : `could not connect: ${(err as Error).message}`
      return { ok: false, statusCode: null, latencyMs: err instanceof OutboundRefused ? null : latencyMs, error, tlsDaysLeft: null }
    }
    const [http, tlsDaysLeft] = await Promise.all([
      this.get(target, url, pinned, started, signal, done),
      url.protocol === 'https:' ? this.certificateDaysLeft(url, pinned, target.timeoutMs) : null,
    ])
    return { ...http, tlsDaysLeft }
  }

  private async get(
    target: ProbeTarget,
    url: URL,
    pinned: PinnedHost,
    started: number,
    signal: AbortSignal,
    done: ReturnType<typeof outboundTimer>,
  ): Promise<Omit<ProbeResult, 'tlsDaysLeft'>> {
    try {
      const res = await fetchPinned(url, pinned, { method: 'GET', headers: { 'user-agent': 'Ecobase-Monitor' }, signal }).then(
        (answer) => {
          done(answerOutcome(answer.status))
          return answer
        },
        (err) => {
          done(failureOutcome(err, signal))
          throw err
        },
      )
      const latencyMs = Math.round(performance.now() - started)
      const statusCode = res.status
      if (statusCode !== target.expectedStatus) {
        await res.body?.cancel()
        return { ok: false, statusCode, latencyMs, error: `answered ${statusCode}, expected ${target.expectedStatus}` }
      }
      if (target.keyword === null) await res.body?.cancel()
      else if (!(await bodyContains(res, target.keyword))) {
        return { ok: false, statusCode, latencyMs, error: `the keyword is not in the first ${MAX_BODY_BYTES / 1024} KiB of the page` }
      }
      return { ok: true, statusCode, latencyMs, error: null }
    } catch (err) {
      const latencyMs = Math.round(performance.now() - started)
      if (signal.aborted) return { ok: false, statusCode: null, latencyMs, error: `no answer within ${target.timeoutMs} ms` }
      return { ok: false, statusCode: null, latencyMs, error: `could not connect: ${(err as Error).message}` }
    }
  }

  /** Days until the certificate's notAfter (negative once expired); null when no TLS handshake happened. */
  private async certificateDaysLeft(url: URL, pinned: PinnedHost, timeoutMs: number): Promise<number | null> {
    const certificate = await new Promise<PeerCertificate | null>((resolve) => {
      const socket = connect({
        host: pinned.address,
        port: Number(url.port || 443),
        servername: pinned.literal ? undefined : pinned.hostname,
        rejectUnauthorized: false,
        timeout: timeoutMs,
      })
      const done = (cert: PeerCertificate | null) => {
        socket.destroy()
        resolve(cert)
      }
      socket.once('secureConnect', () => done(socket.getPeerCertificate()))
      socket.once('timeout', () => done(null))
      socket.once('error', () => done(null))
    })
    if (!certificate?.valid_to) return null
    return Math.floor((new Date(certificate.valid_to).getTime() - this.now().getTime()) / DAY_MS)
  }
}

/** Reads at most MAX_BODY_BYTES, stopping as soon as the keyword shows up. */
async function bodyContains(res: Response, keyword: string): Promise<boolean> {
  if (!res.body) return false
  const reader = res.body.getReader()
  const decoder = new TextDecoder()
  let text = ''
  let read = 0
  try {
    while (read < MAX_BODY_BYTES) {
      const { value, done } = await reader.read()
      if (done) break
      const chunk = value.subarray(0, MAX_BODY_BYTES - read)
      read += chunk.byteLength
      text += decoder.decode(chunk, { stream: true })
      if (text.includes(keyword)) return true
      // Keep only what could still hold the start of the keyword.
      text = text.slice(-keyword.length)
    }
    return false
  } finally {
    await reader.cancel().catch(() => {})
  }
}
