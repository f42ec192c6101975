import { afterAll, beforeAll, expect, test } from 'bun:test'
import { bytesOf, storageApp, type StorageApp } from '../support/storage'

/**
 * `metadata` is a JSON object or null, on upload and on PATCH. Elysia reshapes a body to its schema
 * before validating it, so without the route's own check `5` was stored as `{}` and `"ab"` or `[1]`
 * as `{"0": …}`; now each is a 400 and nothing is created or changed.
 */
let s: StorageApp
beforeAll(async () => {
  s = await storageApp('local')
})
afterAll(() => s.close())

const NOT_OBJECTS = [5, 0, 'ab', '', true, false, [1], [], [{ a: 1 }]]

test('upload: metadata that is not an object is 400 validation_failed, and no attachment is created', async () => {
  for (const metadata of NOT_OBJECTS) {
    const res = await s.presign(bytesOf(`file ${JSON.stringify(metadata)}`), { metadata })
    expect(res.status, JSON.stringify(metadata)).toBe(400)
    expect(res.body.error).toEqual({ code: 'validation_failed', message: 'body.metadata: must be a JSON object (or null)' })
  }
  expect((await s.h.call('GET', '/storage/attachments', s.creds)).body.total).toBe(0)
  for (const metadata of [{ alt: 'a lake', tags: ['x'] }, {}, null]) {
    const res = await s.presign(bytesOf(`ok ${JSON.stringify(metadata)}`), { metadata })
    expect(res.status, JSON.stringify(metadata)).toBe(201)
    expect(res.body.attachment.metadata).toEqual(metadata)
  }
})

test('PATCH: metadata that is not an object is 400 and leaves the attachment as it was', async () => {
  const created = await s.presign(bytesOf('patch me'), { metadata: { keep: true } })
  const id = created.body.attachment.id
  for (const metadata of NOT_OBJECTS) {
    const res = await s.h.call('PATCH', `/storage/attachments/${id}`, { ...s.creds, body: { metadata } })
    expect(res.status, JSON.stringify(metadata)).toBe(400)
    expect(res.body.error.code).toBe('validation_failed')
  }
  expect((await s.h.call('GET', `/storage/attachments/${id}`, s.creds)).body.attachment.metadata).toEqual({ keep: true })
  const changed = await s.h.call('PATCH', `/storage/attachments/${id}`, { ...s.creds, body: { metadata: { alt: 'new' } } })
  expect(changed.status).toBe(200)
  expect(changed.body.attachment.metadata).toEqual({ alt: 'new' })
})
