import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { createClient } from '../../client/index'
import { sha256, STORE_KINDS, storageApp, type StorageApp } from '../support/storage'

for (const kind of STORE_KINDS) {
  describe(`client.upload(file) (${kind} store)`, () => {
    let s: StorageApp
    const requests: string[] = []
    beforeAll(async () => {
      s = await storageApp(kind)
    })
    afterAll(() => s.close())

    /** The app in-process for its own host; the network (s3rver) for anything else. */
    const clientFor = (token: string) =>
      createClient({
        baseUrl: 'http://localhost',
        tokens: { token },
        fetch: async (input, init) => {
          const req = new Request(input, init)
          requests.push(`${req.method} ${new URL(req.url).host} ${req.headers.has('authorization') ? 'bearer' : 'no-bearer'}`)
          return s.fetchUrl(req)
        },
      })

    test('hashes, presigns, PUTs the bytes to the store and completes', async () => {
      const client = clientFor(s.customer.token)
      const bytes = randomBytes(100_000)
      const file = new File([bytes], 'photo.jpg', { type: 'image/jpeg' })
      requests.length = 0
      const res = await client.upload(file, { ownerType: 'chat_message', ownerId: 'm-1', metadata: { caption: 'hi' } })
      expect(res.error).toBeNull()
      expect(res.data!.deduplicated).toBe(false)
      expect(res.data!.attachment).toMatchObject({
        filename: 'photo.jpg',
        contentType: 'image/jpeg',
        sizeBytes: bytes.byteLength,
        contentHash: sha256(bytes),
        status: 'ready',
        ownerType: 'chat_message',
        ownerId: 'm-1',
        storageKind: kind,
      })
      // The PUT goes to the store without the bearer token; the API calls carry it.
      const storeHost = kind === 's3' ? new URL(s.s3!.endpoint).host : 'localhost'
      expect(requests).toEqual(['POST localhost bearer', `PUT ${storeHost} no-bearer`, 'POST localhost bearer'])

      const d = await client.api.storage.attachments({ id: res.data!.attachment.id }).download.get()
      const got = await s.fetchUrl(d.data!.url)
      expect(Buffer.from(await got.arrayBuffer()).equals(bytes)).toBe(true)
    })

    test('the same bytes again: deduplicated, nothing uploaded', async () => {
      const client = clientFor(s.customer.token)
      const blob = new Blob(['same bytes twice'], { type: 'text/plain' })
      const first = await client.upload(blob)
      expect(first.data!.attachment.filename).toBe('file')
      requests.length = 0
      const second = await client.upload(blob, { filename: 'again.txt' })
      expect(second.data).toEqual({ attachment: first.data!.attachment, deduplicated: true })
      expect(requests).toEqual(['POST localhost bearer'])
    })

    test('errors come back as { status, code, message }: quota, and a store that refuses the bytes', async () => {
      const c = await s.h.call('POST', '/customer/resolve', { ...s.org.as(s.owner), body: { externalId: `quota-${kind}` } })
      await s.h.call('PUT', `/usage/storage/quotas/${c.body.customerId}`, { ...s.org.as(s.owner), body: { quotaBytes: 4 } })
      const t = await s.h.call('POST', '/customer/token', { ...s.org.as(s.owner), body: { customerId: c.body.customerId } })
      const client = clientFor(t.body.token)
      const res = await client.upload(new Blob(['five!']))
      expect(res.data).toBeNull()
      expect(res.error).toMatchObject({ status: 413, code: 'quota_exceeded' })

      // A store that refuses the bytes (here: they changed length on the way).
      const store = createClient({
        baseUrl: 'http://localhost',
        tokens: { token: s.customer.token },
        fetch: (input, init) => s.fetchUrl(input, init?.method === 'PUT' ? { ...init, body: new TextEncoder().encode('abcde') } : init),
      })
      const refused = await store.upload(new Blob(['abcd']))
      expect(refused.data).toBeNull()
      expect(refused.error).toMatchObject(kind === 'local' ? { status: 400, code: 'length_mismatch' } : { status: 403, code: 'upload_failed' })
    })
  })
}
