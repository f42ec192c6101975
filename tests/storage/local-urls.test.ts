import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { bytesOf, sha256, storageApp, type StorageApp } from '../support/storage'

/** The local store's own signed URLs, reached through the app as clients reach them. */
describe('local store: signed object URLs', () => {
  let s: StorageApp
  beforeAll(async () => {
    // A small JSON limit shows that object uploads are exempt from it and nothing else is.
    s = await storageApp('local', { MAX_BODY_BYTES: '4096', STORAGE_URL_TTL_SECONDS: '60' })
  })
  afterAll(() => s.close())

  const code = async (res: Response) => ((await res.json()) as { error: { code: string } }).error.code
  const withParam = (url: string, name: string, value: string) => {
    const u = new URL(url)
    u.searchParams.set(name, value)
    return u.toString()
  }

  async function expectNothingStored(p: { attachment: { id: string; objectKey: string } }) {
    expect(await s.h.deps.storage.head(p.attachment.objectKey)).toBeNull()
    const c = await s.complete(p.attachment.id)
    expect(c.status).toBe(409)
    expect(c.body.error.code).toBe('upload_incomplete')
  }

  test('a same-origin page that reached the service at another address gets URLs there; other callers get PUBLIC_URL', async () => {
    const bytes = bytesOf('from the console at 127.0.0.1')
    const presignAt = async (url: string, origin?: string) => {
      const body = JSON.stringify({ filename: 'console.txt', contentType: 'text/plain', sizeBytes: bytes.byteLength, contentHash: sha256(bytes) })
      const res = await s.h.app.handle(
        new Request(`${url}/storage/uploads`, {
          method: 'POST',
          headers: { authorization: `Bearer ${s.creds.token}`, 'content-type': 'application/json', ...(origin ? { origin } : {}) },
          body,
        }),
      )
      return (await res.json()) as { uploadUrl: string; uploadHeaders: Record<string, string>; attachment: { id: string } }
    }
    // A page on another origin, or no page at all: PUBLIC_URL, never an address the caller chose.
    expect((await presignAt('http://127.0.0.1:4321', 'http://evil.example')).uploadUrl).toStartWith('http://localhost/storage/objects/')
    expect((await presignAt('http://127.0.0.1:4321')).uploadUrl).toStartWith('http://localhost/storage/objects/')
    // The console opened at http://127.0.0.1:4321 while PUBLIC_URL says http://localhost.
    const here = await presignAt('http://127.0.0.1:4321', 'http://127.0.0.1:4321')
    expect(here.uploadUrl).toStartWith('http://127.0.0.1:4321/storage/objects/')
    const put = await s.h.app.handle(new Request(here.uploadUrl, { method: 'PUT', headers: here.uploadHeaders, body: bytes }))
    expect(put.status).toBe(200)
    expect((await s.complete(here.attachment.id)).body.attachment.status).toBe('ready')
    const download = await s.h.app.handle(
      new Request(`http://127.0.0.1:4321/storage/attachments/${here.attachment.id}/download`, {
        headers: { authorization: `Bearer ${s.creds.token}`, origin: 'http://127.0.0.1:4321' },
      }),
    )
    expect(((await download.json()) as { url: string }).url).toStartWith('http://127.0.0.1:4321/storage/objects/')
    // A browser's same-origin GET carries no Origin, only the page as Referer: that address, or PUBLIC_URL for another page's.
    const downloadFrom = async (referer: string) => {
      const res = await s.h.app.handle(
        new Request(`http://127.0.0.1:4321/storage/attachments/${here.attachment.id}/download`, {
          headers: { authorization: `Bearer ${s.creds.token}`, referer },
        }),
      )
      return ((await res.json()) as { url: string }).url
    }
    expect(await downloadFrom('http://127.0.0.1:4321/console')).toStartWith('http://127.0.0.1:4321/storage/objects/')
    expect(await downloadFrom('http://evil.example/page')).toStartWith('http://localhost/storage/objects/')
  })

  test('an upload larger than MAX_BODY_BYTES goes through; JSON routes keep the limit', async () => {
    const bytes = randomBytes(64 * 1024)
    const a = await s.upload(bytes)
    expect(a.status).toBe('ready')
    const big = await s.h.call('PATCH', `/storage/attachments/${a.id}`, { ...s.creds, body: { metadata: { pad: 'x'.repeat(8000) } } })
    expect(big.status).toBe(413)
    expect(big.body.error.code).toBe('payload_too_large')
  })

  test('a JSON route refuses a body without Content-Length (chunked) instead of reading it', async () => {
    const req = new Request('http://localhost/storage/uploads', {
      method: 'POST',
      headers: { authorization: `Bearer ${s.creds.token}`, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: JSON.stringify({ filename: 'a' }),
    })
    const res = await s.h.app.handle(req)
    expect(res.status).toBe(411)
    expect(await code(res)).toBe('length_required')
  })

  test('more bytes than presigned: 400 length_mismatch, nothing stored', async () => {
    const bytes = bytesOf('twelve bytes')
    const p = (await s.presign(bytes)).body
    const res = await s.put(p, bytesOf('twelve bytes and more'))
    expect(res.status).toBe(400)
    expect(await code(res)).toBe('length_mismatch')
    await expectNothingStored(p)
  })

  test('fewer bytes than presigned: 400 length_mismatch, nothing stored', async () => {
    const bytes = bytesOf('twelve bytes')
    const p = (await s.presign(bytes)).body
    const res = await s.put(p, bytesOf('twelve'))
    expect(res.status).toBe(400)
    expect(await code(res)).toBe('length_mismatch')
    await expectNothingStored(p)
  })

  test('a streamed body (no Content-Length) longer than presigned is cut off: 400 length_mismatch', async () => {
    const bytes = bytesOf('short')
    const p = (await s.presign(bytes)).body
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytesOf('short'))
        controller.enqueue(bytesOf(' and then a lot more'))
        controller.close()
      },
    })
    const res = await s.fetchUrl(p.uploadUrl, { method: 'PUT', headers: p.uploadHeaders, body: stream, duplex: 'half' } as RequestInit)
    expect(res.status).toBe(400)
    expect(await code(res)).toBe('length_mismatch')
    await expectNothingStored(p)
  })

  test('the right length but other bytes: 400 hash_mismatch, nothing stored', async () => {
    const p = (await s.presign(bytesOf('genuine'))).body
    const res = await s.put(p, bytesOf('forged!'))
    expect(res.status).toBe(400)
    expect(await code(res)).toBe('hash_mismatch')
    await expectNothingStored(p)
  })

  test('another Content-Type than presigned: 400 content_type_mismatch', async () => {
    const bytes = bytesOf('<script>alert(1)</script>')
    const p = (await s.presign(bytes)).body
    const res = await s.put(p, bytes, { 'content-type': 'text/html' })
    expect(res.status).toBe(400)
    expect(await code(res)).toBe('content_type_mismatch')
    await expectNothingStored(p)
  })

  test('an expired URL: 403 url_expired (PUT and GET)', async () => {
    const bytes = bytesOf('too late')
    const ready = await s.upload(bytesOf('ready before'))
    const p = (await s.presign(bytes)).body
    const d = (await s.h.call('GET', `/storage/attachments/${ready.id}/download`, s.creds)).body
    s.h.advanceClock(61_000)
    const put = await s.put(p, bytes)
    expect(put.status).toBe(403)
    expect(await code(put)).toBe('url_expired')
    const get = await s.fetchUrl(d.url)
    expect(get.status).toBe(403)
    expect(await code(get)).toBe('url_expired')
    await expectNothingStored(p)
    // A fresh URL works again.
    const fresh = (await s.h.call('GET', `/storage/attachments/${ready.id}/download`, s.creds)).body
    expect((await s.fetchUrl(fresh.url)).status).toBe(200)
  })

  test('a tampered URL: 403 invalid_signature, whatever field was changed', async () => {
    const bytes = bytesOf('tamper-proof')
    const p = (await s.presign(bytes)).body
    const longer = bytesOf('tamper-proof plus')
    const tampered = [
      withParam(p.uploadUrl, 'length', String(longer.byteLength)),
      withParam(p.uploadUrl, 'sha256', '0'.repeat(64)),
      withParam(p.uploadUrl, 'type', 'text/html'),
      withParam(p.uploadUrl, 'expires', String(Math.floor(Date.now() / 1000) + 86400 * 365)),
      withParam(p.uploadUrl, 'signature', 'A'.repeat(43)),
      p.uploadUrl.replace(/&signature=[^&]+/, ''),
      p.uploadUrl.replace(p.attachment.id, crypto.randomUUID()),
    ]
    for (const url of tampered) {
      const res = await s.fetchUrl(url, { method: 'PUT', headers: p.uploadHeaders, body: bytes })
      expect(res.status, url).toBe(403)
      expect(await code(res), url).toBe('invalid_signature')
    }
    await expectNothingStored(p)

    const ready = await s.upload(bytesOf('download me'))
    const d = (await s.h.call('GET', `/storage/attachments/${ready.id}/download`, s.creds)).body
    for (const url of [withParam(d.url, 'type', 'text/html'), withParam(d.url, 'filename', 'evil.html'), d.url.replace('/objects/', '/objects/x')]) {
      const res = await s.fetchUrl(url)
      expect([403, 404], url).toContain(res.status)
    }
    // A GET URL is not a PUT URL.
    const put = await s.fetchUrl(d.url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: bytesOf('overwrite') })
    expect(put.status).toBe(403)
    expect(await (await s.fetchUrl(d.url)).text()).toBe('download me')
  })

  test('downloads are served so that a browser never renders them on the API origin', async () => {
    const a = await s.upload(bytesOf('<html><script>alert(1)</script></html>'), { filename: 'page.html', contentType: 'text/html' })
    const d = (await s.h.call('GET', `/storage/attachments/${a.id}/download`, s.creds)).body
    const res = await s.fetchUrl(d.url)
    expect(res.headers.get('content-disposition')).toStartWith('attachment;')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('content-security-policy')).toContain('sandbox')
  })

  test('keys that try to leave the object directory are not found', async () => {
    for (const path of [
      '/storage/objects/../../auth-secret',
      '/storage/objects/%2e%2e/%2e%2e/auth-secret',
      '/storage/objects/.uploads/x',
      '/storage/objects//etc/passwd',
      '/storage/objects/a/./b',
    ]) {
      const res = await s.h.app.handle(new Request(`http://localhost${path}?expires=9999999999&filename=x&type=text%2Fplain&signature=x`))
      expect([403, 404], path).toContain(res.status)
    }
  })

  test('bytes land under DATA_DIR/objects/<ecosystem>/<customer>/<attachment>; no temp files are left', async () => {
    const a = await s.upload(bytesOf('where am I'))
    const root = join(s.h.deps.config.dataDir, 'objects')
    expect(existsSync(join(root, s.org.ecosystem.id, s.customer.customerId, a.id))).toBe(true)
    expect(readdirSync(join(root, '.uploads'))).toEqual([])
  })
})
