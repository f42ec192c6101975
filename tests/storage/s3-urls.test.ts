import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { presignedSignatureProblem } from '../support/sigv4'
import { S3_KEY } from '../support/s3'
import { bytesOf, storageApp, type StorageApp } from '../support/storage'

/**
 * S3 presigned URLs as the API hands them out. s3rver checks expiry but not signatures; the test
 * peer's front checks SigV4 as S3 does, so "signed" here means S3 would refuse anything else.
 */
describe('s3 store: presigned URLs from the API', () => {
  let s: StorageApp
  beforeAll(async () => {
    s = await storageApp('s3')
  })
  afterAll(() => s.close())

  test('the presigned PUT signs Content-Type, Content-Length and the SHA-256 checksum', async () => {
    const bytes = bytesOf('signed for exactly this')
    const p = (await s.presign(bytes, { contentType: 'text/plain' })).body
    const url = new URL(p.uploadUrl)
    expect(url.searchParams.get('X-Amz-SignedHeaders')!.split(';').sort()).toEqual(['content-length', 'content-type', 'host', 'x-amz-checksum-sha256'])
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900')

    // The signature itself, checked without the SDK: it holds for the declared request only.
    const request = (headers: Record<string, string>) => ({ method: 'PUT', url: p.uploadUrl, headers: new Headers({ host: url.host, ...headers }) })
    const declared = { ...p.uploadHeaders, 'content-length': String(bytes.byteLength) }
    expect(presignedSignatureProblem(request(declared), S3_KEY.secretAccessKey)).toBeNull()
    expect(presignedSignatureProblem(request({ ...declared, 'content-length': String(bytes.byteLength + 1) }), S3_KEY.secretAccessKey)).toContain('mismatch')
    expect(presignedSignatureProblem(request({ ...declared, 'content-type': 'text/html' }), S3_KEY.secretAccessKey)).toContain('mismatch')
    expect(presignedSignatureProblem(request({ ...declared, 'x-amz-checksum-sha256': Buffer.alloc(32).toString('base64') }), S3_KEY.secretAccessKey)).toContain(
      'mismatch',
    )
    expect(presignedSignatureProblem({ ...request(declared), method: 'GET' }, S3_KEY.secretAccessKey)).toContain('mismatch')

    // And over the wire: another type or length is refused, the declared request goes through.
    const refusedBefore = s.s3!.refused.length
    expect((await s.put(p, bytes, { 'content-type': 'text/html' })).status).toBe(403)
    expect((await s.put(p, bytesOf('signed for exactly this!'))).status).toBe(403)
    expect(s.s3!.refused.length).toBe(refusedBefore + 2)
    expect(await s.h.deps.storage.head(p.attachment.objectKey)).toBeNull()
    expect((await s.put(p, bytes)).status).toBe(200)
    expect((await s.complete(p.attachment.id)).status).toBe(200)
  })

  test('expired upload and download URLs are refused by the store', async () => {
    // S3 signs to the second (X-Amz-Date), so a URL made late in a second has less than its TTL:
    // 3 s leaves the upload before the wait at least 2 s on a loaded machine.
    const short = await storageApp('s3', { STORAGE_URL_TTL_SECONDS: '3' })
    try {
      const ready = await short.upload(bytesOf('downloadable'))
      const d = (await short.h.call('GET', `/storage/attachments/${ready.id}/download`, short.creds)).body
      const bytes = bytesOf('arrives too late')
      const p = (await short.presign(bytes)).body
      expect(new URL(p.uploadUrl).searchParams.get('X-Amz-Expires')).toBe('3')
      await Bun.sleep(4100)
      const put = await short.put(p, bytes)
      expect(put.status).toBe(403)
      expect(await put.text()).toContain('expired')
      expect((await short.fetchUrl(d.url)).status).toBe(403)
      const c = await short.complete(p.attachment.id)
      expect(c.status).toBe(409)
      expect(c.body.error.code).toBe('upload_incomplete')
    } finally {
      await short.close()
    }
  }, 15_000)

  test('the download URL names the file and type for the response', async () => {
    const a = await s.upload(bytesOf('%PDF-1.7'), { filename: 'Rapport d’été.pdf', contentType: 'application/pdf' })
    const d = (await s.h.call('GET', `/storage/attachments/${a.id}/download`, s.creds)).body
    const res = await s.fetchUrl(d.url)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/pdf')
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="Rapport d__t_.pdf"; filename*=UTF-8''Rapport%20d%E2%80%99%C3%A9t%C3%A9.pdf`)
  })
})
