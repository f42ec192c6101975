import { describe, expect, test } from 'bun:test'
import { bytesOf, STORE_KINDS, storageApp } from '../support/storage'

// The console loads presigned URLs (previews, uploads): its content security policy names where
// they point, the service itself for the local store and the bucket's origin for a bucket store.

const directive = (policy: string, name: string) =>
  policy
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `))

describe.each(STORE_KINDS)('the console’s content security policy (%s store)', (kind) => {
  test('lets images and fetches reach exactly where the store’s presigned URLs point', async () => {
    const app = await storageApp(kind)
    try {
      const bytes = bytesOf('probe')
      const presigned = await app.presign(bytes)
      expect(presigned.status).toBe(201)
      const stored = new URL(presigned.body.uploadUrl).origin
      const res = await app.h.app.handle(new Request('http://localhost/console'))
      expect(res.status).toBe(200)
      const policy = res.headers.get('content-security-policy')!
      if (kind === 'local') {
        expect(directive(policy, 'img-src')).toBe("img-src 'self' data: blob:")
        expect(directive(policy, 'connect-src')).toBe("connect-src 'self'")
      } else {
        expect(stored).toBe(new URL(app.s3!.endpoint).origin)
        expect(directive(policy, 'img-src')).toBe(`img-src 'self' data: blob: ${stored}`)
        expect(directive(policy, 'connect-src')).toBe(`connect-src 'self' ${stored}`)
      }
      expect(directive(policy, 'default-src')).toBe("default-src 'self'")
    } finally {
      await app.close()
    }
  })
})
