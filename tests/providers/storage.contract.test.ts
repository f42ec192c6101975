import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { LocalObjectStore, S3ObjectStore, type ObjectStore } from '../../src/providers/storage'
import { S3_KEY, startS3, type S3Peer } from '../support/s3'
import { sha256 } from '../support/storage'

/**
 * One contract for every ObjectStore adapter, run against each over real HTTP: the local store
 * served by a loopback server, the S3 adapter against s3rver (behind a SigV4-checking front).
 */
interface Subject {
  /** A store whose clock is `now` (to sign URLs in the past). */
  make(now: () => Date): ObjectStore
  close(): Promise<void>
}

const subjects: Record<string, () => Promise<Subject>> = {
  async local() {
    const root = mkdtempSync(join(tmpdir(), 'ecobase-objects-'))
    let store: LocalObjectStore | undefined
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (req) => store!.serve(req) })
    const baseUrl = `http://127.0.0.1:${server.port}/storage/objects`
    return {
      make: (now) => (store = new LocalObjectStore({ root, baseUrl, secret: 'x'.repeat(40), now, maxUploadBytes: 1 << 30 })),
      async close() {
        server.stop(true)
        rmSync(root, { recursive: true, force: true })
      },
    }
  },
  async s3() {
    const peer: S3Peer = await startS3()
    const bucket = await peer.createBucket()
    return {
      make: (now) => new S3ObjectStore({ endpoint: peer.endpoint, region: 'us-east-1', bucket, credentials: S3_KEY, forcePathStyle: true }, now),
      close: () => peer.close(),
    }
  },
}

let keys = 0
const newKey = () => `contract/${process.pid}/${++keys}-${crypto.randomUUID()}`
const body = (bytes: Uint8Array) => bytes as Uint8Array<ArrayBuffer>

for (const [kind, start] of Object.entries(subjects)) {
  describe(`ObjectStore contract: ${kind}`, () => {
    let subject: Subject
    let store: ObjectStore
    let offsetMs = 0
    beforeAll(async () => {
      subject = await start()
      store = subject.make(() => new Date(Date.now() + offsetMs))
    })
    afterAll(() => subject.close())

    async function putBytes(key: string, bytes: Uint8Array, contentType = 'application/octet-stream') {
      const put = await store.presignPut({ key, contentType, sizeBytes: bytes.byteLength, sha256Hex: sha256(bytes), expiresIn: 60 })
      return fetch(put.url, { method: 'PUT', headers: put.headers, body: body(bytes) })
    }

    test('kind names the adapter', () => {
      expect(store.kind).toBe(kind as 'local' | 's3')
    })

    test('bytes PUT at a presigned URL come back at a presigned GET, named for download', async () => {
      const key = newKey()
      const bytes = randomBytes(256 * 1024)
      const put = await store.presignPut({ key, contentType: 'application/pdf', sizeBytes: bytes.byteLength, sha256Hex: sha256(bytes), expiresIn: 60 })
      expect(put.expiresAt.getTime()).toBeGreaterThan(Date.now() + 50_000)
      expect(put.headers['content-type']).toBe('application/pdf')
      expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: body(bytes) })).status).toBe(200)
      expect(await store.head(key)).toEqual({ sizeBytes: bytes.byteLength })

      const get = await store.presignGet({ key, filename: 'résumé "2026".pdf', contentType: 'application/pdf', expiresIn: 60 })
      const res = await fetch(get.url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toBe('application/pdf')
      const disposition = res.headers.get('content-disposition')!
      expect(disposition).toStartWith('attachment;')
      expect(disposition).toContain(`filename*=UTF-8''r%C3%A9sum%C3%A9%20%222026%22.pdf`)
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
    })

    test('a presigned GET with a Range of the first bytes answers 206 with those bytes only (a preview reads no further)', async () => {
      const key = newKey()
      const bytes = randomBytes(10_000)
      expect((await putBytes(key, bytes, 'text/plain')).status).toBe(200)
      const get = await store.presignGet({ key, filename: 'long.txt', contentType: 'text/plain', expiresIn: 60 })
      const head = await fetch(get.url, { headers: { range: 'bytes=0-4095' } })
      expect(head.status).toBe(206)
      expect(head.headers.get('content-range')).toBe(`bytes 0-4095/${bytes.byteLength}`)
      expect(Buffer.from(await head.arrayBuffer()).equals(bytes.subarray(0, 4096))).toBe(true)
      const tail = await fetch(get.url, { headers: { range: 'bytes=9000-20000' } })
      expect(tail.status).toBe(206)
      expect(tail.headers.get('content-range')).toBe(`bytes 9000-9999/${bytes.byteLength}`)
      expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(9000))).toBe(true)
    })

    test('an empty object is an object', async () => {
      const key = newKey()
      expect((await putBytes(key, new Uint8Array(0))).status).toBe(200)
      expect(await store.head(key)).toEqual({ sizeBytes: 0 })
    })

    test('head of a missing object is null; delete is idempotent', async () => {
      const key = newKey()
      expect(await store.head(key)).toBeNull()
      await store.delete(key)
      expect((await putBytes(key, new Uint8Array([1, 2, 3]))).status).toBe(200)
      await store.delete(key)
      expect(await store.head(key)).toBeNull()
      await store.delete(key)
      const get = await store.presignGet({ key, filename: 'x.bin', contentType: 'application/octet-stream', expiresIn: 60 })
      expect((await fetch(get.url)).status).toBe(404)
    })

    test('a PUT with another Content-Type than presigned is refused and stores nothing', async () => {
      const key = newKey()
      const bytes = new TextEncoder().encode('typed')
      const put = await store.presignPut({ key, contentType: 'text/plain', sizeBytes: bytes.byteLength, sha256Hex: sha256(bytes), expiresIn: 60 })
      const res = await fetch(put.url, { method: 'PUT', headers: { ...put.headers, 'content-type': 'text/html' }, body: body(bytes) })
      expect([400, 403]).toContain(res.status)
      expect(await store.head(key)).toBeNull()
    })

    test('a PUT of more or fewer bytes than presigned is refused and stores nothing', async () => {
      const key = newKey()
      const bytes = new TextEncoder().encode('exactly this')
      const put = await store.presignPut({ key, contentType: 'text/plain', sizeBytes: bytes.byteLength, sha256Hex: sha256(bytes), expiresIn: 60 })
      for (const other of [new TextEncoder().encode('exactly this and more'), new TextEncoder().encode('exactly')]) {
        const res = await fetch(put.url, { method: 'PUT', headers: put.headers, body: body(other) })
        expect([400, 403]).toContain(res.status)
      }
      expect(await store.head(key)).toBeNull()
    })

    test('a URL signed for one key does not reach another', async () => {
      const key = newKey()
      const bytes = new TextEncoder().encode('mine')
      const put = await store.presignPut({ key, contentType: 'text/plain', sizeBytes: bytes.byteLength, sha256Hex: sha256(bytes), expiresIn: 60 })
      const other = newKey()
      const res = await fetch(put.url.replace(key, other), { method: 'PUT', headers: put.headers, body: body(bytes) })
      expect(res.status).toBe(403)
      expect(await store.head(other)).toBeNull()
    })

    test('expired PUT and GET URLs are refused (403)', async () => {
      const key = newKey()
      const bytes = new TextEncoder().encode('late')
      expect((await putBytes(key, bytes, 'text/plain')).status).toBe(200)
      offsetMs = -3600_000
      const put = await store.presignPut({ key: newKey(), contentType: 'text/plain', sizeBytes: 4, sha256Hex: sha256(bytes), expiresIn: 60 })
      const get = await store.presignGet({ key, filename: 'late.txt', contentType: 'text/plain', expiresIn: 60 })
      offsetMs = 0
      expect((await fetch(put.url, { method: 'PUT', headers: put.headers, body: body(bytes) })).status).toBe(403)
      expect((await fetch(get.url)).status).toBe(403)
    })

    if (kind === 'local') {
      test('local: bytes of the right length but another SHA-256 are refused (400 hash_mismatch)', async () => {
        const key = newKey()
        const bytes = new TextEncoder().encode('original')
        const put = await store.presignPut({ key, contentType: 'text/plain', sizeBytes: bytes.byteLength, sha256Hex: sha256(bytes), expiresIn: 60 })
        const res = await fetch(put.url, { method: 'PUT', headers: put.headers, body: body(new TextEncoder().encode('forgery!')) })
        expect(res.status).toBe(400)
        expect(((await res.json()) as { error: { code: string } }).error.code).toBe('hash_mismatch')
        expect(await store.head(key)).toBeNull()
      })
    } else {
      test('s3: the SHA-256 travels as a signed x-amz-checksum-sha256 header (S3 verifies it; s3rver does not)', async () => {
        const bytes = new TextEncoder().encode('checksummed')
        const put = await store.presignPut({ key: newKey(), contentType: 'text/plain', sizeBytes: bytes.byteLength, sha256Hex: sha256(bytes), expiresIn: 60 })
        expect(put.headers['x-amz-checksum-sha256']).toBe(Buffer.from(sha256(bytes), 'hex').toString('base64'))
        expect(new URL(put.url).searchParams.get('X-Amz-SignedHeaders')!.split(';')).toContain('x-amz-checksum-sha256')
        const res = await fetch(put.url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: body(bytes) })
        expect(res.status).toBe(403)
      })
    }
  })
}
