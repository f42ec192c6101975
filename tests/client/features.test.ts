import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { decodeJwt } from 'jose'
import { apiError, EcobaseError, type ClientOptions, type UploadProgress } from '../../client/index'
import { createHarness, type Harness, type RegisteredUser } from '../support/harness'
import { sha256 } from '../support/storage'
import { customerOf, provision, type Provisioned } from '../support/tenancy'
import { connect, PAST_EXPIRY_MS } from './connect'

let h: Harness
beforeAll(async () => {
  h = await createHarness()
}, 30_000)
afterAll(() => h.close())

/** `METHOD /path` with ids and signed object paths folded, so sequences can be compared. */
const route = (req: Request) =>
  `${req.method} ${new URL(req.url).pathname.replace(/^\/storage\/objects\/.*/, '/storage/objects/*').replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, ':id')}`

interface Sent {
  route: string
  ecosystem: string | null
  bearer: boolean
}

/**
 * connect() that also notes, for each request that reaches the app, its ecosystem header and
 * whether it carried a bearer token. Like fetch, a request whose signal has fired is refused
 * with an AbortError (the in-process app would otherwise answer it).
 */
function watch(options: Partial<ClientOptions> = {}, timeline?: string[]) {
  const sent: Sent[] = []
  const connected = connect(h, {
    ...options,
    hook: (req) => {
      if (req.signal.aborted) throw new DOMException('The operation was aborted.', 'AbortError')
      sent.push({ route: route(req), ecosystem: req.headers.get('x-ecosystem-id'), bearer: req.headers.has('authorization') })
      timeline?.push(route(req))
      return undefined
    },
  })
  return { ...connected, sent }
}

/** Reads back a ready attachment's bytes through its presigned download URL. */
async function downloaded(client: ReturnType<typeof connect>['client'], id: string): Promise<Buffer> {
  const d = await client.api.storage.attachments({ id }).download.get()
  expect(d.error).toBeNull()
  return Buffer.from(await (await h.app.handle(new Request(d.data!.url))).arrayBuffer())
}

describe('client ecosystem: X-Ecosystem-Id from the client, visible in what the server answers', () => {
  let owner: RegisteredUser
  let org: Provisioned
  let first: { id: string; rdid: string }
  let second: { id: string; rdid: string }
  const query = { q: 'only-in-' }
  /** The externalIds of a customer list (only the two seeded customers match `query`). */
  const externalIds = (page: { items: { externalId: string | null }[] } | null | undefined) => page?.items.map((c) => c.externalId)

  beforeAll(async () => {
    owner = await h.register()
    org = await provision(h, owner)
    first = org.ecosystem
    const created = await h.call('POST', '/registry/ecosystems', { token: owner.token, body: { organizationId: org.organization.id, slug: 'second' } })
    expect(created.status).toBe(201)
    second = created.body
    await customerOf(h, org, owner, 'only-in-first')
    await customerOf(h, { ...org, as: (u) => ({ token: u.token, headers: { 'x-ecosystem-id': second.id } }) }, owner, 'only-in-second')
  })

  /** The owner's access token only, so no refresh ever changes it. */
  const ownerTokens = () => ({ token: owner.token })

  test('the ecosystem option goes with every call of client.api and client.fetch; without it the server asks for one', async () => {
    const { client, sent } = watch({ tokens: ownerTokens(), ecosystem: first.id })
    const listed = await client.api.customer.customers.get({ query })
    expect(listed.error).toBeNull()
    expect(externalIds(listed.data)).toEqual(['only-in-first'])
    const raw = await client.fetch('/customer/customers?q=only-in-')
    expect(raw.status).toBe(200)
    expect(externalIds((await raw.json()) as { items: { externalId: string | null }[] })).toEqual(['only-in-first'])
    const resolved = await client.api.customer.resolve.post({ externalId: 'only-in-first' })
    expect(resolved.status).toBe(200)
    expect(sent).toEqual([
      { route: 'GET /customer/customers', ecosystem: first.id, bearer: true },
      { route: 'GET /customer/customers', ecosystem: first.id, bearer: true },
      { route: 'POST /customer/resolve', ecosystem: first.id, bearer: true },
    ])

    // The same calls without the option: no header, and the server refuses them.
    const none = watch({ tokens: ownerTokens() })
    expect(apiError(await none.client.api.customer.customers.get({ query }))).toMatchObject({ status: 400, code: 'ecosystem_required' })
    expect((await none.client.fetch('/customer/customers')).status).toBe(400)
    expect(none.sent.map((s) => s.ecosystem)).toEqual([null, null])
  })

  test('setEcosystem changes the ecosystem of later calls; null sends none; a function is asked at each call', async () => {
    const { client, sent } = watch({ tokens: ownerTokens(), ecosystem: first.id })
    expect(externalIds((await client.api.customer.customers.get({ query })).data)).toEqual(['only-in-first'])
    client.setEcosystem(second.id)
    expect(externalIds((await client.api.customer.customers.get({ query })).data)).toEqual(['only-in-second'])
    expect(externalIds((await (await client.fetch('/customer/customers?q=only-in-')).json()) as never)).toEqual(['only-in-second'])
    client.setEcosystem(first.rdid)
    expect(externalIds((await client.api.customer.customers.get({ query })).data)).toEqual(['only-in-first'])
    client.setEcosystem(null)
    expect(apiError(await client.api.customer.customers.get({ query }))?.code).toBe('ecosystem_required')
    expect(sent.map((s) => s.ecosystem)).toEqual([first.id, second.id, second.id, first.rdid, null])

    let current = second.id
    const asked = watch({ tokens: ownerTokens(), ecosystem: () => current })
    expect(externalIds((await asked.client.api.customer.customers.get({ query })).data)).toEqual(['only-in-second'])
    current = first.id
    expect(externalIds((await asked.client.api.customer.customers.get({ query })).data)).toEqual(['only-in-first'])
  })

  test('client.in(other) acts in other for its own calls only; client.api keeps the default, also side by side', async () => {
    const { client, sent } = watch({ tokens: ownerTokens(), ecosystem: first.id })
    const inSecond = client.in(second.id)
    const [a, b, c, d] = await Promise.all([
      client.api.customer.customers.get({ query }),
      inSecond.api.customer.customers.get({ query }),
      inSecond.fetch('/customer/customers?q=only-in-').then((r) => r.json() as Promise<{ items: { externalId: string | null }[] }>),
      client.fetch('/customer/customers?q=only-in-').then((r) => r.json() as Promise<{ items: { externalId: string | null }[] }>),
    ])
    expect([externalIds(a.data), externalIds(b.data), externalIds(c), externalIds(d)]).toEqual([
      ['only-in-first'],
      ['only-in-second'],
      ['only-in-second'],
      ['only-in-first'],
    ])
    expect(sent.map((s) => s.ecosystem).sort()).toEqual([first.id, first.id, second.id, second.id].sort())

    // By rdid too; and afterwards the client itself still acts in its default.
    expect(externalIds((await client.in(second.rdid).api.customer.customers.get({ query })).data)).toEqual(['only-in-second'])
    expect(externalIds((await client.api.customer.customers.get({ query })).data)).toEqual(['only-in-first'])
    expect(sent.at(-1)?.ecosystem).toBe(first.id)
  })

  test("an x-ecosystem-id in a call's headers wins over the option and over in(), for that call only", async () => {
    const { client, sent } = watch({ tokens: ownerTokens(), ecosystem: first.id })
    const explicit = await client.api.customer.customers.get({ query, headers: { 'x-ecosystem-id': second.id } })
    expect(externalIds(explicit.data)).toEqual(['only-in-second'])
    const viaIn = await client.in(first.id).api.customer.customers.get({ query, headers: { 'X-Ecosystem-Id': second.id } })
    expect(externalIds(viaIn.data)).toEqual(['only-in-second'])
    const raw = await client.fetch('/customer/customers?q=only-in-', { headers: { 'X-Ecosystem-Id': second.id } })
    expect(externalIds((await raw.json()) as never)).toEqual(['only-in-second'])
    expect(externalIds((await client.api.customer.customers.get({ query })).data)).toEqual(['only-in-first'])
    expect(sent.map((s) => s.ecosystem)).toEqual([second.id, second.id, second.id, first.id])
  })

  test("uploads' API calls carry the ecosystem, the presigned PUT to the store does not; each file lands in its ecosystem", async () => {
    const { client, sent } = watch({ tokens: ownerTokens(), ecosystem: first.id })
    const one = await client.upload(new Blob(['bytes for the first ecosystem']), { filename: 'first.txt' })
    expect(one.error).toBeNull()
    const two = await client.in(second.id).upload(new Blob(['bytes for the second ecosystem']), { filename: 'second.txt' })
    expect(two.error).toBeNull()
    expect(one.data!.attachment).toMatchObject({ ecosystemId: first.id, status: 'ready' })
    expect(two.data!.attachment).toMatchObject({ ecosystemId: second.id, status: 'ready' })

    const upload = (ecosystem: string): Sent[] => [
      { route: 'POST /storage/uploads', ecosystem, bearer: true },
      { route: 'PUT /storage/objects/*', ecosystem: null, bearer: false },
      { route: 'POST /storage/attachments/:id/complete', ecosystem, bearer: true },
    ]
    expect(sent).toEqual([...upload(first.id), ...upload(second.id)])

    // Each ecosystem lists only its own file.
    const inFirst = await client.api.storage.attachments.get()
    const inSecond = await client.in(second.id).api.storage.attachments.get()
    expect(inFirst.data!.items.map((a) => a.filename)).toEqual(['first.txt'])
    expect(inSecond.data!.items.map((a) => a.filename)).toEqual(['second.txt'])
  })
})

/** A Blob that refuses to be read whole: only `stream()` works. */
class StreamOnly extends Blob {
  override arrayBuffer(): never {
    throw new Error('arrayBuffer() reads the whole file into memory')
  }
  override text(): never {
    throw new Error('text() reads the whole file into memory')
  }
  override bytes(): never {
    throw new Error('bytes() reads the whole file into memory')
  }
}

/** A StreamOnly whose stream() yields the given pieces as they are (chunk boundaries anywhere, as a disk or a network may). */
class Pieces extends StreamOnly {
  constructor(private readonly pieces: Uint8Array<ArrayBuffer>[]) {
    super(pieces)
  }
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    const queue = [...this.pieces]
    return new ReadableStream({
      pull: (controller) => {
        const next = queue.shift()
        if (next) controller.enqueue(next.slice())
        else controller.close()
      },
    })
  }
}

describe('client.upload: streamed, with progress and abort', () => {
  let owner: RegisteredUser
  let org: Provisioned
  beforeAll(async () => {
    owner = await h.register()
    org = await provision(h, owner)
  })

  /** A client for a fresh customer (so usage and attachment lists start empty). */
  async function customerClient(timeline?: string[]) {
    const customer = await customerOf(h, org, owner)
    return watch({ tokens: { token: customer.token } }, timeline)
  }

  test('a multi-MB file is never read whole: hashed over several chunks, stored, with the SHA-256 of its bytes', async () => {
    const { client } = await customerClient()
    const bytes = randomBytes(5 * 1024 * 1024 + 7)
    const file = new StreamOnly([bytes], { type: 'application/octet-stream' })
    expect(() => file.arrayBuffer()).toThrow()
    const hashed: number[] = []
    const res = await client.upload(file, { filename: 'big.bin', onProgress: (p) => void (p.phase === 'hash' && hashed.push(p.loaded)) })
    expect(res.error).toBeNull()
    expect(res.data!.deduplicated).toBe(false)
    expect(res.data!.attachment).toMatchObject({ filename: 'big.bin', sizeBytes: bytes.byteLength, contentHash: sha256(bytes), status: 'ready' })
    // 0, then one step per chunk read: several chunks.
    expect(hashed.length).toBeGreaterThanOrEqual(4)
    expect((await downloaded(client, res.data!.attachment.id)).equals(bytes)).toBe(true)
  })

  test('the hash is right whatever the chunk boundaries (pieces of 1, 63, 65, … bytes across SHA-256 blocks)', async () => {
    const { client } = await customerClient()
    const sizes = [1, 62, 1, 64, 65, 3, 129, 70_001, 55, 9, 128, 0, 1000]
    const pieces = sizes.map((n) => new Uint8Array(randomBytes(n)))
    const all = Buffer.concat(pieces)
    const res = await client.upload(new Pieces(pieces), { filename: 'pieces.bin' })
    expect(res.error).toBeNull()
    expect(res.data!.attachment).toMatchObject({ sizeBytes: all.byteLength, contentHash: sha256(all), status: 'ready' })
    expect((await downloaded(client, res.data!.attachment.id)).equals(all)).toBe(true)
  })

  test('onProgress: hash rises from 0 to the size, then the presign, then upload from 0 to the total once the store has the bytes', async () => {
    const timeline: string[] = []
    const { client } = await customerClient(timeline)
    const file = new Blob([randomBytes(3 * 1024 * 1024 + 5)])
    const events: UploadProgress[] = []
    const res = await client.upload(file, {
      onProgress: (p) => {
        events.push(p)
        timeline.push(`${p.phase} ${p.loaded}/${p.total}`)
      },
    })
    expect(res.error).toBeNull()

    const hash = events.filter((e) => e.phase === 'hash')
    const upload = events.filter((e) => e.phase === 'upload')
    expect(events).toEqual([...hash, ...upload])
    expect(hash.length).toBeGreaterThanOrEqual(3)
    expect(hash[0]).toEqual({ phase: 'hash', loaded: 0, total: file.size })
    expect(hash.at(-1)).toEqual({ phase: 'hash', loaded: file.size, total: file.size })
    expect(hash.every((e, i) => i === 0 || e.loaded > hash[i - 1]!.loaded)).toBe(true)
    expect(upload.length).toBeGreaterThanOrEqual(1)
    expect(upload.every((e, i) => e.total === file.size && (i === 0 || e.loaded >= upload[i - 1]!.loaded))).toBe(true)
    expect(upload.at(-1)).toEqual({ phase: 'upload', loaded: file.size, total: file.size })

    // In order with the requests: hashing before the presign, 100 % only after the PUT.
    const at = (entry: string) => timeline.indexOf(entry)
    expect(at(`hash ${file.size}/${file.size}`)).toBeLessThan(at('POST /storage/uploads'))
    expect(at('POST /storage/uploads')).toBeLessThan(timeline.findIndex((e) => e.startsWith('upload ')))
    expect(at('PUT /storage/objects/*')).toBeLessThan(at(`upload ${file.size}/${file.size}`))
    expect(at(`upload ${file.size}/${file.size}`)).toBeLessThan(at('POST /storage/attachments/:id/complete'))
  })

  test('aborted while hashing: { data: null, error: EcobaseError aborted }, hashing stops, nothing is sent or created', async () => {
    const { client, requests } = await customerClient()
    const file = new Blob([randomBytes(4 * 1024 * 1024)])
    const controller = new AbortController()
    let hashedUpTo = 0
    const res = await client.upload(file, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase !== 'hash') return
        hashedUpTo = p.loaded
        if (p.loaded > 0) controller.abort()
      },
    })
    expect(res.data).toBeNull()
    expect(res.error).toBeInstanceOf(EcobaseError)
    expect(res.error!.toJSON()).toEqual({ status: 0, code: 'aborted', message: expect.any(String) })
    expect(hashedUpTo).toBeGreaterThan(0)
    expect(hashedUpTo).toBeLessThan(file.size)

    // A signal that has already fired: the same, at once.
    const early = await client.upload(file, { signal: AbortSignal.abort() })
    expect(early.error).toBeInstanceOf(EcobaseError)
    expect(early.error?.code).toBe('aborted')

    expect(requests).toEqual([])
    expect((await client.api.storage.attachments.get()).data).toMatchObject({ items: [], total: 0 })
    expect((await client.api.usage.storage.get()).data?.usageBytes).toBe(0)
  })

  test('aborted after the presign, before the PUT: aborted, the attachment stays pending and does not count; a retry then succeeds', async () => {
    const { client, sent } = await customerClient()
    const bytes = randomBytes(1024 * 1024)
    const file = new Blob([bytes], { type: 'application/octet-stream' })
    const controller = new AbortController()
    const res = await client.upload(file, {
      filename: 'stopped.bin',
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'upload') controller.abort()
      },
    })
    expect(res.data).toBeNull()
    expect(res.error).toBeInstanceOf(EcobaseError)
    expect(res.error?.code).toBe('aborted')
    // The presign reached the server; the PUT and the complete did not.
    expect(sent.map((s) => s.route)).toEqual(['POST /storage/uploads'])

    const pending = await client.api.storage.attachments.get({ query: { status: 'pending' } })
    expect(pending.data!.items).toEqual([expect.objectContaining({ filename: 'stopped.bin', status: 'pending', sizeBytes: bytes.byteLength })])
    expect((await client.api.storage.attachments.get({ query: { status: 'ready' } })).data!.total).toBe(0)
    expect((await client.api.usage.storage.get()).data?.usageBytes).toBe(0)
    const download = await client.api.storage.attachments({ id: pending.data!.items[0]!.id }).download.get()
    expect(apiError(download)).toMatchObject({ status: 409, code: 'attachment_pending' })

    // The same bytes again, not aborted: uploaded in full (a pending attachment is no duplicate), and now counted.
    const again = await client.upload(file, { filename: 'stopped.bin' })
    expect(again.error).toBeNull()
    expect(again.data!.deduplicated).toBe(false)
    expect((await client.api.usage.storage.get()).data?.usageBytes).toBe(bytes.byteLength)
  })
})

// Last: these move the server's clock forward.
describe('client customer sessions (tokens from POST /customer/token)', () => {
  async function customerTokens() {
    const owner = await h.register()
    const org = await provision(h, owner)
    const customer = await customerOf(h, org, owner)
    expect(decodeJwt(customer.token).typ).toBe('customer')
    return customer
  }

  test('an expired customer token is refreshed at /customer/refresh (never /auth/refresh), kept, and the call retried', async () => {
    const customer = await customerTokens()
    const { client, count, seen } = connect(h, { tokens: { token: customer.token, refreshToken: customer.refreshToken } })
    expect((await client.api.customer.me.get()).data?.id).toBe(customer.customerId)
    h.advanceClock(PAST_EXPIRY_MS)

    const res = await client.api.customer.me.get()
    expect(res.status).toBe(200)
    expect(res.data?.id).toBe(customer.customerId)
    expect(count('POST /customer/refresh')).toBe(1)
    expect(count('POST /auth/refresh')).toBe(0)
    expect(count('GET /customer/me')).toBe(3)
    const after = client.getTokens()!
    expect(after.token).not.toBe(customer.token)
    expect(after.refreshToken).not.toBe(customer.refreshToken)
    expect(seen).toEqual([after])
    expect(decodeJwt(after.token)).toMatchObject({ typ: 'customer', sub: customer.customerId })

    // The kept tokens carry the session through the next expiry too; a burst shares one refresh.
    h.advanceClock(PAST_EXPIRY_MS)
    const burst = await Promise.all(Array.from({ length: 5 }, () => client.api.customer.me.get()))
    expect(burst.map((r) => r.status)).toEqual(Array(5).fill(200))
    expect(count('POST /customer/refresh')).toBe(2)
    expect(count('POST /auth/refresh')).toBe(0)
    expect(seen).toHaveLength(2)
    expect(seen.at(-1)).toEqual(client.getTokens())

    // The first refresh token was really rotated away on the server.
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })).status).toBe(401)
  })

  test('a customer session the server has ended: one refused /customer/refresh, the tokens are dropped, onTokens(null)', async () => {
    const customer = await customerTokens()
    const { client, count, seen } = connect(h, { tokens: { token: customer.token, refreshToken: customer.refreshToken } })
    expect((await h.call('POST', '/customer/revoke', { body: { refreshToken: customer.refreshToken } })).status).toBe(204)
    const res = await client.api.customer.me.get()
    expect(res.status).toBe(401)
    expect(count('POST /customer/refresh')).toBe(1)
    expect(count('POST /auth/refresh')).toBe(0)
    expect(client.getTokens()).toBeNull()
    expect(seen).toEqual([null])
  })

  test('logout revokes at /customer/revoke: the refresh token and the access token stop working', async () => {
    const customer = await customerTokens()
    const { client, count, seen } = connect(h, { tokens: { token: customer.token, refreshToken: customer.refreshToken } })
    expect((await client.api.customer.me.get()).status).toBe(200)
    expect(await client.logout()).toBe(true)
    expect(count('POST /customer/revoke')).toBe(1)
    expect(count('POST /auth/revoke')).toBe(0)
    expect(client.getTokens()).toBeNull()
    expect(seen).toEqual([null])
    // The access token first: presenting a used refresh token would itself end the session.
    expect((await h.call('GET', '/customer/me', { token: customer.token })).status).toBe(401)
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })).status).toBe(401)
  })

  test('logout after a refresh revokes the refreshed session', async () => {
    const customer = await customerTokens()
    const { client, count } = connect(h, { tokens: { token: customer.token, refreshToken: customer.refreshToken } })
    h.advanceClock(PAST_EXPIRY_MS)
    expect((await client.api.customer.me.get()).status).toBe(200)
    const current = client.getTokens()!
    expect(await client.logout()).toBe(true)
    expect(count('POST /customer/revoke')).toBe(1)
    expect((await h.call('GET', '/customer/me', { token: current.token })).status).toBe(401)
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: current.refreshToken } })).status).toBe(401)
  })

  test('logout({ everywhere: true }) of a customer still ends its session (there is no account to sign out everywhere)', async () => {
    const customer = await customerTokens()
    const { client, count, seen } = connect(h, { tokens: { token: customer.token, refreshToken: customer.refreshToken } })
    expect(await client.logout({ everywhere: true })).toBe(true)
    expect(client.getTokens()).toBeNull()
    expect(seen).toEqual([null])
    expect(count('POST /customer/revoke')).toBe(1)
    expect(count('POST /customer/refresh')).toBe(0)
    // The access token first: presenting a used refresh token would itself end the session.
    expect((await h.call('GET', '/customer/me', { token: customer.token })).status).toBe(401)
    expect((await h.call('POST', '/customer/refresh', { body: { refreshToken: customer.refreshToken } })).status).toBe(401)
  })
})
