import { afterAll, describe, expect, test } from 'bun:test'
import { AppError } from '../../src/platform/errors'
import {
  assertTenantHost,
  canonicalHost,
  fetchPinned,
  guardedFetch,
  type OutboundKind,
  type OutboundOutcome,
  OutboundRefused,
  OutboundUnresolved,
  pinHost,
  type Resolver,
} from '../../src/platform/outbound'
import { selfSignedCertificate } from '../support/tls'

/** A DNS stub answering each lookup of any name with the next of `answers` (the last one repeats); it counts the lookups. */
function stubResolver(...answers: string[][]): Resolver & { calls: string[] } {
  const calls: string[] = []
  const resolve = async (hostname: string) => {
    calls.push(hostname)
    return answers[Math.min(calls.length - 1, answers.length - 1)]!
  }
  return Object.assign(resolve, { calls })
}

/** A local HTTP server bound to 127.0.0.1 only (so 127.0.0.2 does not reach it), recording the Host of each request. */
const seen: { host: string | null; path: string }[] = []
const plain = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  fetch(req) {
    seen.push({ host: req.headers.get('host'), path: new URL(req.url).pathname })
    return new Response('here')
  },
})
const { cert, key } = selfSignedCertificate(30)
const secure = Bun.serve({ hostname: '127.0.0.1', port: 0, tls: { cert, key }, fetch: (req) => new Response(`tls ${req.headers.get('host')}`) })
afterAll(() => {
  plain.stop(true)
  secure.stop(true)
})

describe('guardedFetch counts each call under its kind with its outcome', () => {
  test('an answer, a refusal, a deadline, a cancellation and a connection refused each count as what they are', async () => {
    const counted: [OutboundKind, OutboundOutcome][] = []
    const meter = { outbound: (kind: OutboundKind, outcome: OutboundOutcome, seconds: number) => void (seconds >= 0 && counted.push([kind, outcome])) }
    const slow = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      async fetch(req) {
        if (new URL(req.url).pathname === '/slow') await Bun.sleep(2000)
        return new Response(null, { status: 404 })
      },
    })
    const call = guardedFetch('allow', { kind: 'persona_service', meter })
    const failure = (url: string, init?: RequestInit) =>
      call(url, init).then(
        () => null,
        (err: Error) => err.name,
      )
    try {
      expect((await call(`http://127.0.0.1:${plain.port}/`)).status).toBe(200)
      expect((await call(`http://127.0.0.1:${slow.port}/missing`)).status).toBe(404)
      expect(await failure('http://169.254.169.254/')).toBe('Error')
      expect(await failure(`http://127.0.0.1:${slow.port}/slow`, { signal: AbortSignal.timeout(100) })).toBe('TimeoutError')
      const cancel = new AbortController()
      setTimeout(() => cancel.abort(), 100)
      expect(await failure(`http://127.0.0.1:${slow.port}/slow`, { signal: cancel.signal })).toBe('AbortError')
      const closed = Bun.serve({ port: 0, fetch: () => new Response() })
      const port = closed.port
      closed.stop(true)
      expect(await failure(`http://127.0.0.1:${port}/`)).not.toBeNull()
    } finally {
      slow.stop(true)
    }
    expect(counted).toEqual([
      ['persona_service', 'success'],
      ['persona_service', 'http_error'],
      ['persona_service', 'blocked'],
      ['persona_service', 'timeout'],
      ['persona_service', 'cancelled'],
      ['persona_service', 'network_error'],
    ])
  })
})

describe('guardedFetch: one lookup, and the connection goes to the address checked', () => {
  test('a name answering 127.0.0.1 to the check and 127.0.0.2 afterwards (rebinding) is connected to at 127.0.0.1, looked up once', async () => {
    const resolve = stubResolver(['127.0.0.1'], ['127.0.0.2'])
    const res = await guardedFetch('allow', { kind: 'webhook', resolve })(`http://rebind.example.test:${plain.port}/first`)
    expect(await res.text()).toBe('here')
    expect(resolve.calls).toEqual(['rebind.example.test'])
    expect(seen.at(-1)).toEqual({ host: `rebind.example.test:${plain.port}`, path: '/first' })
  })

  test('under deny, a name answering a public address to the check and loopback afterwards never reaches loopback', async () => {
    const resolve = stubResolver(['93.184.216.34'], ['127.0.0.1'])
    const before = seen.length
    const outcome = await guardedFetch('deny', { kind: 'webhook', resolve })(`http://rebind.example.test:${plain.port}/inside`, {
      signal: AbortSignal.timeout(500),
    }).then(
      (res) => res.status,
      (err: Error) => err.name,
    )
    // Whatever happened at the public address (no route here, or a timeout), loopback got nothing.
    expect(outcome).not.toBe(200)
    expect(resolve.calls).toHaveLength(1)
    expect(seen.length).toBe(before)
  })

  test('https: the certificate is checked against the name, not the address; Host keeps the name', async () => {
    const url = new URL(`https://localhost:${secure.port}/x`)
    const pinned = await pinHost(url.hostname, 'allow', { resolve: stubResolver(['127.0.0.1']) })
    const res = await fetchPinned(url, pinned, { tls: { ca: cert } } as RequestInit)
    expect(await res.text()).toBe(`tls localhost:${secure.port}`)
    const other = new URL(`https://other.example.test:${secure.port}/x`)
    const wrong = await pinHost(other.hostname, 'allow', { resolve: stubResolver(['127.0.0.1']) })
    const err = await fetchPinned(other, wrong, { tls: { ca: cert } } as RequestInit).then(
      () => null,
      (e: Error) => e,
    )
    expect(err?.message).toContain('other.example.test')
    expect(err?.message).not.toContain('127.0.0.1')
  })

  test('every address of a name must be allowed; the refusal never says which address it was', async () => {
    for (const answer of [['10.1.2.3'], ['93.184.216.34', '10.1.2.3'], ['::ffff:10.1.2.3'], ['169.254.169.254'], ['not-an-address']]) {
      const resolve = stubResolver(answer)
      const err = await guardedFetch('deny', { kind: 'webhook', resolve })('https://inside.example.test/').then(
        () => null,
        (e: Error) => e,
      )
      expect(err, answer.join()).toBeInstanceOf(OutboundRefused)
      expect(err!.message).toStartWith('Refused to connect to inside.example.test: it has a ')
      for (const address of answer) expect(err!.message).not.toContain(address)
    }
    const none = await pinHost('gone.example.test', 'deny', { resolve: async () => [] }).catch((e: Error) => e)
    expect(none).toBeInstanceOf(OutboundUnresolved)
  })

  test('a redirect is refused, not followed', async () => {
    const hop = Bun.serve({
      hostname: '127.0.0.1',
      port: 0,
      fetch: () => new Response(null, { status: 302, headers: { location: `http://127.0.0.1:${plain.port}/after` } }),
    })
    try {
      const before = seen.length
      const err = await guardedFetch('allow', { kind: 'webhook' })(`http://127.0.0.1:${hop.port}/`).catch((e: Error) => e)
      expect(err).toBeInstanceOf(OutboundRefused)
      expect(seen.length).toBe(before)
      expect((await guardedFetch('allow', { kind: 'webhook', redirects: 'return' })(`http://127.0.0.1:${hop.port}/`)).status).toBe(302)
    } finally {
      hop.stop(true)
    }
  })
})

describe('canonicalHost: every spelling of an address is the address', () => {
  test.each([
    ['2130706433', '127.0.0.1'],
    ['0x7f000001', '127.0.0.1'],
    ['0177.0.0.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['0x7f.1', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '::ffff:7f00:1'],
    ['::ffff:7f00:1', '::ffff:7f00:1'],
    ['Mail.Example.COM', 'mail.example.com'],
  ])('%s is %s', (host, canonical) => {
    expect(canonicalHost(host)).toBe(canonical)
  })

  test('anything but a plain host is none', () => {
    for (const host of ['user@127.0.0.1', 'a/b', 'host:25', 'a b', '']) expect(canonicalHost(host), host).toBeNull()
  })
})

describe('assertTenantHost: the check when a setting is saved', () => {
  const refused = (host: string, policy: 'deny' | 'allow' = 'deny', resolve?: Resolver) =>
    assertTenantHost('config.host', host, policy, 'SOME_PRIVATE_ADDRESSES', resolve).then(
      () => null,
      (e: AppError) => e,
    )

  test('a private, link-local, CGNAT or mapped address in any spelling is 400 naming the field and why', async () => {
    for (const host of [
      '127.0.0.1',
      '2130706433',
      '0x7f000001',
      '0177.0.0.1',
      '127.1',
      '10.0.0.1',
      '192.168.1.1',
      '172.16.0.1',
      '100.64.0.1',
      '::ffff:127.0.0.1',
      '[::ffff:7f00:1]',
      '::1',
    ]) {
      const err = await refused(host)
      expect(err, host).toBeInstanceOf(AppError)
      expect(err!.status).toBe(400)
      expect(err!.code).toBe('validation_failed')
      expect(err!.message, host).toStartWith(`config.host: ${host} is a private address`)
      expect(err!.message).toEndWith('(SOME_PRIVATE_ADDRESSES=deny)')
    }
    for (const host of ['169.254.169.254', '0.0.0.0', '[fd00:ec2::254]', '224.0.0.1']) {
      expect((await refused(host, 'allow'))?.message, host).toStartWith(`config.host: ${host} is a link-local, cloud-metadata, multicast or reserved address`)
    }
  })

  test('a name resolving to such an address is refused without saying which address; one that does not resolve passes', async () => {
    const err = await refused('inside.example.test', 'deny', stubResolver(['93.184.216.34', '10.9.8.7']))
    expect(err?.message).toStartWith('config.host: inside.example.test resolves to a private address')
    expect(err?.message).not.toContain('10.9.8.7')
    expect(await refused('later.example.test', 'deny', async () => Promise.reject(new Error('ENOTFOUND')))).toBeNull()
    expect(await refused('inside.example.test', 'allow', stubResolver(['10.9.8.7']))).toBeNull()
    expect(await refused('public.example.test', 'deny', stubResolver(['93.184.216.34']))).toBeNull()
  })
})
