import { afterAll, describe, expect, test } from 'bun:test'
import { Prober } from '../../src/modules/monitored_sites/probe'
import type { Resolver } from '../../src/platform/outbound'
import { selfSignedCertificate } from '../support/tls'

/** A DNS stub answering the first lookup with `first` and every later one with `then` (rebinding); it counts the lookups. */
function rebinding(first: string[], then: string[]): Resolver & { calls: number } {
  const resolve = Object.assign(async () => (resolve.calls++ === 0 ? first : then), { calls: 0 })
  return resolve
}

// Bound to 127.0.0.1 only: a connection to 127.0.0.2 finds nobody.
const { cert, key } = selfSignedCertificate(30)
const hits: string[] = []
const secure = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  tls: { cert, key },
  fetch(req) {
    hits.push(req.headers.get('host') ?? '')
    return new Response('fine')
  },
})
const plainHosts: string[] = []
const plain = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(req) {
    plainHosts.push(req.headers.get('host') ?? '')
    return new Response('fine')
  },
})
afterAll(() => {
  secure.stop(true)
  plain.stop(true)
})

const target = (url: string) => ({ url, expectedStatus: 200, keyword: null, timeoutMs: 2000 })

describe('a check resolves the host once; the GET and the TLS probe both go to the address checked', () => {
  test('https: one lookup per check; a name rebinding to 127.0.0.2 after the check still reads the certificate at 127.0.0.1', async () => {
    const resolve = rebinding(['127.0.0.1'], ['127.0.0.2'])
    const result = await new Prober('allow', () => new Date(), resolve).probe(target(`https://site.example.test:${secure.port}/`))
    expect(resolve.calls).toBe(1)
    // The certificate is self-signed, so the GET fails as untrusted, checked against the name.
    expect([29, 30]).toContain(result.tlsDaysLeft!)
    expect(result.error).toStartWith('could not connect')
    expect(result.error).not.toContain('127.0.0.1')
  })

  test('http: the request reaches the checked address with the name in Host', async () => {
    const resolve = rebinding(['127.0.0.1'], ['127.0.0.2'])
    const result = await new Prober('allow', () => new Date(), resolve).probe(target(`http://site.example.test:${plain.port}/`))
    expect(result).toMatchObject({ ok: true, statusCode: 200 })
    expect(resolve.calls).toBe(1)
    expect(plainHosts).toEqual([`site.example.test:${plain.port}`])
  })

  test('under deny, a name answering a private address is refused before any connection, without saying which', async () => {
    const resolve = rebinding(['10.20.30.40'], ['127.0.0.1'])
    const before = hits.length
    const result = await new Prober('deny', () => new Date(), resolve).probe(target(`https://site.example.test:${secure.port}/`))
    expect(result).toEqual({
      ok: false,
      statusCode: null,
      latencyMs: null,
      error: 'Refused to connect to site.example.test: it has a private address (loopback, private network, carrier-grade NAT or unique-local)',
      tlsDaysLeft: null,
    })
    expect(resolve.calls).toBe(1)
    expect(hits.length).toBe(before)
  })
})
