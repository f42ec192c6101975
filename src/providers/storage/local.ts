import { createHash, createHmac, randomUUID } from 'node:crypto'
import { mkdir, open, rename, rm, stat } from 'node:fs/promises'
import { dirname, resolve, sep } from 'node:path'
import { safeEqual } from '../../platform/crypto'
import { contentDisposition, type ObjectStore, type PresignedGet, type PresignedPut } from './types'

export interface LocalStoreOptions {
  /** Directory holding the objects (DATA_DIR/objects). */
  root: string
  /** Absolute URL the service answers signed requests at, e.g. `https://api.example.com/storage/objects`. */
  baseUrl: string
  /** The server key; the signing key is derived from it, so it is never used raw. */
  secret: string
  now: () => Date
  maxUploadBytes: number
}

/**
 * Keys are path segments of letters, digits, `.`, `_`, `-`, each starting with a letter or digit:
 * no `..`, no absolute paths, nothing that needs URL encoding. The temp directory starts with a
 * dot, so no key can reach it.
 */
const KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}(?:\/[A-Za-z0-9][A-Za-z0-9._-]{0,127}){0,7}$/
const TEMP_DIR = '.uploads'

/** Fields each signed URL carries in its query, in signing order. */
const FIELDS = { PUT: ['expires', 'length', 'sha256', 'type'], GET: ['expires', 'filename', 'type'] } as const
type Method = keyof typeof FIELDS

/**
 * The one range of `bytes=start-` or `bytes=start-end` within `size` bytes, else null: anything else
 * (several ranges, a suffix, a start past the end) is answered with the whole object, as HTTP allows.
 */
function byteRange(header: string | null, size: number): { start: number; end: number } | null {
  const match = header && /^bytes=(\d{1,15})-(\d{0,15})$/.exec(header.trim())
  if (!match) return null
  const start = Number(match[1])
  const end = Math.min(match[2] ? Number(match[2]) : size - 1, size - 1)
  return start <= end ? { start, end } : null
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

/**
 * The embedded object store: files under DATA_DIR/objects, written and read by the service itself
 * at URLs signed with HMAC-SHA256 (key derived from the server key). A PUT URL binds method, key,
 * expiry, content type, length and SHA-256; the PUT streams the body to a temp file while hashing
 * and moves it into place only when length and hash match. Same contract as the S3 adapter.
 */
export class LocalObjectStore implements ObjectStore {
  readonly kind = 'local' as const
  private readonly root: string
  private readonly signingKey: Buffer
  private readonly basePath: string

  constructor(private readonly options: LocalStoreOptions) {
    this.root = resolve(options.root)
    this.signingKey = createHmac('sha256', options.secret).update('ecobase:local-object-store:v1').digest()
    this.basePath = new URL(options.baseUrl).pathname.replace(/\/+$/, '')
  }

  async presignPut(input: {
    key: string
    contentType: string
    sizeBytes: number
    sha256Hex: string
    expiresIn: number
    origin?: string | null
  }): Promise<PresignedPut> {
    this.assertKey(input.key)
    if (input.sizeBytes > this.options.maxUploadBytes) throw new Error(`upload of ${input.sizeBytes} bytes exceeds the maximum`)
    const expiresAt = this.expiry(input.expiresIn)
    const params = {
      expires: String(Math.floor(expiresAt.getTime() / 1000)),
      length: String(input.sizeBytes),
      sha256: input.sha256Hex.toLowerCase(),
      type: input.contentType,
    }
    return { url: this.url('PUT', input.key, params, input.origin), headers: { 'content-type': input.contentType }, expiresAt }
  }

  async presignGet(input: { key: string; filename: string; contentType: string; expiresIn: number; origin?: string | null }): Promise<PresignedGet> {
    this.assertKey(input.key)
    const expiresAt = this.expiry(input.expiresIn)
    const params = { expires: String(Math.floor(expiresAt.getTime() / 1000)), filename: input.filename, type: input.contentType }
    return { url: this.url('GET', input.key, params, input.origin), expiresAt }
  }

  async head(key: string): Promise<{ sizeBytes: number } | null> {
    try {
      const s = await stat(this.pathOf(key))
      return s.isFile() ? { sizeBytes: s.size } : null
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true })
  }

  /** Answers a signed PUT or GET (mounted at LOCAL_OBJECTS_PATH). Errors are the API's error body. */
  async serve(request: Request): Promise<Response> {
    try {
      const url = new URL(request.url)
      const prefix = `${this.basePath}/`
      const key = url.pathname.startsWith(prefix) ? url.pathname.slice(prefix.length) : ''
      if (!KEY.test(key)) throw new Refusal(404, 'not_found', 'No such object')
      const method: Method | null = request.method === 'PUT' ? 'PUT' : request.method === 'GET' || request.method === 'HEAD' ? 'GET' : null
      if (!method) throw new Refusal(405, 'method_not_allowed', 'Objects accept PUT and GET only')
      const params = this.verify(method, key, url.searchParams)
      if (method === 'PUT') return await this.receive(key, params, request)
      return await this.send(key, params, request.method === 'HEAD', request.headers.get('range'))
    } catch (err) {
      if (!(err instanceof Refusal)) throw err
      if (request.body && !request.bodyUsed) request.body.cancel().catch(() => {})
      return Response.json({ error: { message: err.message, code: err.code } }, { status: err.status })
    }
  }

  private async receive(key: string, params: Record<string, string>, request: Request): Promise<Response> {
    const length = Number(params.length)
    const type = request.headers.get('content-type') ?? ''
    if (type !== params.type) {
      throw new Refusal(400, 'content_type_mismatch', `Content-Type must be exactly ${JSON.stringify(params.type)}, as presigned`)
    }
    const declared = request.headers.get('content-length')
    if (declared !== null && Number(declared) !== length) {
      throw new Refusal(400, 'length_mismatch', `The upload must be exactly ${length} bytes, as presigned (Content-Length ${declared})`)
    }
    const tempDir = resolve(this.root, TEMP_DIR)
    await mkdir(tempDir, { recursive: true })
    const temp = resolve(tempDir, randomUUID())
    const hash = createHash('sha256')
    let received = 0
    const file = await open(temp, 'wx', 0o600)
    try {
      try {
        if (request.body) {
          for await (const chunk of request.body as unknown as AsyncIterable<Uint8Array>) {
            received += chunk.byteLength
            if (received > length) throw new Refusal(400, 'length_mismatch', `The upload is longer than the ${length} bytes presigned`)
            hash.update(chunk)
            await file.write(chunk)
          }
        }
      } finally {
        await file.close()
      }
      if (received !== length) throw new Refusal(400, 'length_mismatch', `The upload has ${received} bytes; ${length} were presigned`)
      if (hash.digest('hex') !== params.sha256) throw new Refusal(400, 'hash_mismatch', 'The SHA-256 of the upload differs from the presigned contentHash')
      const target = this.pathOf(key)
      await mkdir(dirname(target), { recursive: true })
      await rename(temp, target)
    } finally {
      await rm(temp, { force: true })
    }
    return new Response(null, { status: 200, headers: { etag: `"${params.sha256}"` } })
  }

  /** The object, or the one byte range `range` asks for (a preview's first bytes), as S3 answers it. */
  private async send(key: string, params: Record<string, string>, headOnly: boolean, range: string | null): Promise<Response> {
    const path = this.pathOf(key)
    const found = await this.head(key)
    if (!found) throw new Refusal(404, 'not_found', 'No such object')
    const headers: Record<string, string> = {
      'content-type': params.type!,
      'content-length': String(found.sizeBytes),
      'content-disposition': contentDisposition(params.filename!),
      'accept-ranges': 'bytes',
      // Uploaded HTML must never run on the API's origin.
      'x-content-type-options': 'nosniff',
      'content-security-policy': "sandbox; default-src 'none'",
      'cache-control': 'private, no-cache',
    }
    const part = byteRange(range, found.sizeBytes)
    if (!part) return new Response(headOnly ? null : Bun.file(path), { status: 200, headers })
    headers['content-length'] = String(part.end - part.start + 1)
    headers['content-range'] = `bytes ${part.start}-${part.end}/${found.sizeBytes}`
    return new Response(headOnly ? null : Bun.file(path).slice(part.start, part.end + 1), { status: 206, headers })
  }

  /** The query's fields when its signature is ours and it has not expired; 403 otherwise. */
  private verify(method: Method, key: string, query: URLSearchParams): Record<string, string> {
    const params: Record<string, string> = {}
    for (const field of FIELDS[method]) {
      const value = query.get(field)
      if (value === null) throw new Refusal(403, 'invalid_signature', `The URL lacks the signed field ${field}`)
      params[field] = value
    }
    const signature = query.get('signature') ?? ''
    if (!safeEqual(signature, this.sign(method, key, params))) {
      throw new Refusal(403, 'invalid_signature', 'The URL signature does not match (tampered with, or for another operation)')
    }
    if (!/^\d{1,12}$/.test(params.expires!) || Number(params.expires) * 1000 < this.options.now().getTime()) {
      throw new Refusal(403, 'url_expired', 'The URL has expired; ask the API for a new one')
    }
    return params
  }

  private sign(method: Method, key: string, params: Record<string, string>): string {
    // JSON of an array leaves no ambiguity about where one field ends and the next begins.
    const canonical = JSON.stringify([method, key, ...FIELDS[method].map((f) => params[f])])
    return createHmac('sha256', this.signingKey).update(canonical).digest('base64url')
  }

  /** At PUBLIC_URL, or at `origin` (the address a same-origin caller reached the service by). */
  private url(method: Method, key: string, params: Record<string, string>, origin?: string | null): string {
    const query = new URLSearchParams(params)
    query.set('signature', this.sign(method, key, params))
    const base = origin ? `${origin}${this.basePath}` : this.options.baseUrl.replace(/\/+$/, '')
    return `${base}/${key}?${query}`
  }

  private expiry(expiresIn: number): Date {
    return new Date(this.options.now().getTime() + expiresIn * 1000)
  }

  private assertKey(key: string): void {
    if (!KEY.test(key)) throw new Error(`invalid object key ${JSON.stringify(key)}`)
  }

  private pathOf(key: string): string {
    this.assertKey(key)
    const path = resolve(this.root, key)
    if (!path.startsWith(this.root + sep)) throw new Error(`object key escapes the store: ${JSON.stringify(key)}`)
    return path
  }
}
