import { createHash } from 'node:crypto'
import { deflateSync } from 'node:zlib'
import { createHarness, type Harness, type RegisteredUser } from './harness'
import { startS3, type S3Peer } from './s3'
import { customerOf, provision, type Provisioned } from './tenancy'

export type StoreKind = 'local' | 's3'
/** Every storage behaviour test runs on both stores. */
export const STORE_KINDS: StoreKind[] = ['local', 's3']

export const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest('hex')
export const bytesOf = (text: string) => new TextEncoder().encode(text)

/** A real PNG of `width` × `height` (a colour gradient), so the browser has something to draw. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, 'latin1'), body])
    const frame = Buffer.alloc(8 + typed.byteLength)
    frame.writeUInt32BE(body.byteLength, 0)
    frame.set(typed, 4)
    frame.writeUInt32BE(Bun.hash.crc32(typed), 4 + typed.byteLength)
    return frame
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header.set([8, 2, 0, 0, 0], 8) // 8-bit RGB, no interlace
  const stride = 1 + width * 3
  const rows = Buffer.alloc(height * stride)
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) rows.set([(x * 255) / width, (y * 255) / height, 160], y * stride + 1 + x * 3)
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))])
}
/** presign → PUT → complete as the customer `token`, on `h`'s app; the ready attachment. */
export async function uploadAs(h: Harness, token: string, filename: string, contentType: string, bytes: Uint8Array) {
  const p = await h.call('POST', '/storage/uploads', { token, body: { filename, contentType, sizeBytes: bytes.byteLength, contentHash: sha256(bytes) } })
  if (p.status !== 201) throw new Error(`presign: ${p.status} ${JSON.stringify(p.body)}`)
  const request = new Request(p.body.uploadUrl, { method: 'PUT', headers: p.body.uploadHeaders, body: new Uint8Array(bytes) })
  // The local store's URLs at the harness's PUBLIC_URL are the app's own; a bucket's are on the network.
  const put = new URL(request.url).host === 'localhost' ? await h.app.handle(request) : await fetch(request)
  if (put.status !== 200) throw new Error(`PUT: ${put.status} ${await put.text()}`)
  const done = await h.call('POST', `/storage/attachments/${p.body.attachment.id}/complete`, { token })
  if (done.status !== 200) throw new Error(`complete: ${done.status} ${JSON.stringify(done.body)}`)
  return done.body.attachment as { id: string; sizeBytes: number }
}

/** An ecosystem owner who signs in with `password`, and their customer Ada Lovelace with a customer token: the console's storage browser tests. */
export async function ownerAndAda(h: Harness, password: string) {
  const owner = await h.register({ password })
  const org = await provision(h, owner)
  const as = org.as(owner)
  const ada: string = (await h.call('POST', '/customer/register', { ...as, body: { name: 'Ada Lovelace' } })).body.customerId
  const token: string = (await h.call('POST', '/customer/token', { ...as, body: { customerId: ada } })).body.token
  return { owner, org, as, ada, token }
}

export interface Creds {
  token: string
  headers?: Record<string, string>
}

/**
 * An app on a fresh database with the given store (s3: a real s3rver of its own, fresh bucket),
 * one ecosystem, its owner, and a customer with a token.
 */
export async function storageApp(kind: StoreKind, env: Record<string, string> = {}) {
  let s3: S3Peer | undefined
  let storeEnv: Record<string, string> = {}
  if (kind === 's3') {
    s3 = await startS3()
    storeEnv = s3.env(await s3.createBucket())
  }
  const h = await createHarness({ ...storeEnv, ...env })
  const owner = await h.register()
  const org = await provision(h, owner)
  const customer = await customerOf(h, org, owner)
  const creds: Creds = { token: customer.token }

  /** fetch for presigned URLs: the app's own (local store) in-process, anything else (s3rver) over the network. */
  const fetchUrl = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init)
    return new URL(req.url).host === 'localhost' ? h.app.handle(req) : fetch(req)
  }

  /** POST /storage/uploads for `bytes` (declared fields overridable). */
  const presign = (bytes: Uint8Array, body: Record<string, unknown> = {}, who: Creds = creds) =>
    h.call('POST', '/storage/uploads', {
      ...who,
      body: { filename: 'hello.txt', contentType: 'text/plain', sizeBytes: bytes.byteLength, contentHash: sha256(bytes), ...body },
    })

  /** PUTs `bytes` to a presigned upload exactly as told (headers can be overridden). */
  const put = (upload: { uploadUrl: string; uploadHeaders: Record<string, string> }, bytes: Uint8Array, headers: Record<string, string> = {}) =>
    fetchUrl(upload.uploadUrl, { method: 'PUT', headers: { ...upload.uploadHeaders, ...headers }, body: bytes as Uint8Array<ArrayBuffer> })

  const complete = (id: string, who: Creds = creds) => h.call('POST', `/storage/attachments/${id}/complete`, who)

  /** presign → PUT → complete; returns the ready attachment. */
  async function upload(bytes: Uint8Array, body: Record<string, unknown> = {}, who: Creds = creds) {
    const p = await presign(bytes, body, who)
    if (p.status !== 201) throw new Error(`presign: ${p.status} ${JSON.stringify(p.body)}`)
    const res = await put(p.body, bytes)
    if (res.status !== 200) throw new Error(`PUT: ${res.status} ${await res.text()}`)
    const c = await complete(p.body.attachment.id, who)
    if (c.status !== 200) throw new Error(`complete: ${c.status} ${JSON.stringify(c.body)}`)
    return c.body.attachment as { id: string; objectKey: string; sizeBytes: number; status: string; filename: string }
  }

  return {
    kind,
    h,
    s3,
    owner,
    org,
    customer,
    creds,
    fetchUrl,
    presign,
    put,
    complete,
    upload,
    async close() {
      await h.close()
      await s3?.close()
    },
  }
}

export type StorageApp = Awaited<ReturnType<typeof storageApp>>
export type { Harness, Provisioned, RegisteredUser }
