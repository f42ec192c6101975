import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { randomBytes } from 'node:crypto'
import { addMember, customerOf } from '../support/tenancy'
import { bytesOf, sha256, STORE_KINDS, storageApp, type StorageApp } from '../support/storage'

for (const kind of STORE_KINDS) {
  describe(`attachments through the API (${kind} store)`, () => {
    let s: StorageApp
    beforeAll(async () => {
      s = await storageApp(kind)
    })
    afterAll(() => s.close())

    test('presign → PUT real bytes → complete → download gives the same bytes, named', async () => {
      const bytes = randomBytes(300 * 1024)
      const p = await s.presign(bytes, {
        filename: 'Photo été.png',
        contentType: 'image/png',
        ownerType: 'chat_message',
        ownerId: 'msg-1',
        metadata: { alt: 'a lake' },
        width: 640,
        height: 480,
      })
      expect(p.status).toBe(201)
      const a = p.body.attachment
      expect(a).toMatchObject({
        ecosystemId: s.org.ecosystem.id,
        customerId: s.customer.customerId,
        ownerType: 'chat_message',
        ownerId: 'msg-1',
        storageKind: kind,
        filename: 'Photo été.png',
        contentType: 'image/png',
        sizeBytes: bytes.byteLength,
        contentHash: sha256(bytes),
        width: 640,
        height: 480,
        durationMs: null,
        status: 'pending',
        metadata: { alt: 'a lake' },
        deletedAt: null,
      })
      expect(a.objectKey).toBe(`${s.org.ecosystem.id}/${s.customer.customerId}/${a.id}`)
      expect(p.body.uploadMethod).toBe('PUT')
      expect(new Date(p.body.expiresAt).getTime()).toBeGreaterThan(Date.now() + 800_000)

      expect((await s.put(p.body, bytes)).status).toBe(200)
      const done = await s.complete(a.id)
      expect(done.status).toBe(200)
      expect(done.body.attachment).toMatchObject({ id: a.id, status: 'ready' })

      const d = await s.h.call('GET', `/storage/attachments/${a.id}/download`, s.creds)
      expect(d.status).toBe(200)
      const res = await s.fetchUrl(d.body.url)
      expect(res.status).toBe(200)
      expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''Photo%20%C3%A9t%C3%A9.png`)
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true)
    })

    test('complete is idempotent for a ready attachment and counts it once', async () => {
      const before = (await s.h.call('GET', '/usage/storage', s.creds)).body.usageBytes
      const a = await s.upload(bytesOf(`once ${kind}`))
      const again = await s.complete(a.id)
      expect(again.status).toBe(200)
      expect(again.body.attachment.status).toBe('ready')
      expect((await s.h.call('GET', '/usage/storage', s.creds)).body.usageBytes).toBe(before + a.sizeBytes)
    })

    test('complete before the bytes arrive is 409 upload_incomplete; download of a pending attachment is 409', async () => {
      const bytes = bytesOf(`not yet ${kind}`)
      const p = await s.presign(bytes)
      const c = await s.complete(p.body.attachment.id)
      expect(c.status).toBe(409)
      expect(c.body.error.code).toBe('upload_incomplete')
      const d = await s.h.call('GET', `/storage/attachments/${p.body.attachment.id}/download`, s.creds)
      expect(d.status).toBe(409)
      expect(d.body.error.code).toBe('attachment_pending')
      expect((await s.h.call('GET', `/storage/attachments/${p.body.attachment.id}`, s.creds)).body.attachment.status).toBe('pending')
      // The upload can still be made, and then completed.
      expect((await s.put(p.body, bytes)).status).toBe(200)
      expect((await s.complete(p.body.attachment.id)).status).toBe(200)
    })

    test('the same bytes again are deduplicated (200, the existing attachment); not once it is deleted', async () => {
      const bytes = bytesOf(`dedupe me ${kind}`)
      const first = await s.upload(bytes)
      const again = await s.presign(bytes, { filename: 'other-name.txt' })
      expect(again.status).toBe(200)
      expect(again.body.deduplicated).toBe(true)
      expect(again.body.attachment.id).toBe(first.id)
      expect(again.body.uploadUrl).toBeUndefined()

      // A pending attachment with the same hash is not a duplicate: the bytes may never come.
      const pendingBytes = bytesOf(`pending twin ${kind}`)
      expect((await s.presign(pendingBytes)).status).toBe(201)
      expect((await s.presign(pendingBytes)).status).toBe(201)

      expect((await s.h.call('DELETE', `/storage/attachments/${first.id}`, s.creds)).status).toBe(204)
      expect((await s.presign(bytes)).status).toBe(201)
    })

    test('another customer of the ecosystem with the same bytes is not deduplicated against this one', async () => {
      const bytes = bytesOf(`shared secret ${kind}`)
      await s.upload(bytes)
      const other = await customerOf(s.h, s.org, s.owner)
      const p = await s.presign(bytes, {}, { token: other.token })
      expect(p.status).toBe(201)
      expect(p.body.attachment.customerId).toBe(other.customerId)
    })

    test('list is paged, newest first, filtered by ownerType, ownerId and status; deleted ones are gone', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const who = { token: c.token }
      const doc1 = await s.upload(bytesOf(`d1 ${kind}`), { ownerType: 'document', ownerId: 'doc-1' }, who)
      const doc2 = await s.upload(bytesOf(`d2 ${kind}`), { ownerType: 'document', ownerId: 'doc-2' }, who)
      const loose = await s.upload(bytesOf(`s1 ${kind}`), {}, who)
      const pending = (await s.presign(bytesOf(`p1 ${kind}`), { ownerType: 'document', ownerId: 'doc-1' }, who)).body.attachment
      const gone = await s.upload(bytesOf(`gone ${kind}`), { ownerType: 'document', ownerId: 'doc-1' }, who)
      await s.h.call('DELETE', `/storage/attachments/${gone.id}`, who)

      const ids = async (query: string) => {
        const res = await s.h.call('GET', `/storage/attachments${query}`, who)
        expect(res.status).toBe(200)
        return res.body
      }
      const all = await ids('')
      expect(all.total).toBe(4)
      expect(all.items.map((a: { id: string }) => a.id)).toEqual([pending.id, loose.id, doc2.id, doc1.id])
      expect((await ids('?ownerType=document')).items.map((a: { id: string }) => a.id)).toEqual([pending.id, doc2.id, doc1.id])
      expect((await ids('?ownerType=document&ownerId=doc-1')).items.map((a: { id: string }) => a.id)).toEqual([pending.id, doc1.id])
      expect((await ids('?status=pending')).items.map((a: { id: string }) => a.id)).toEqual([pending.id])
      expect((await ids('?ownerType=standalone&status=ready')).items.map((a: { id: string }) => a.id)).toEqual([loose.id])
      const page2 = await ids('?page=2&pageSize=3')
      expect(page2).toMatchObject({ total: 4, page: 2, pageSize: 3 })
      expect(page2.items.map((a: { id: string }) => a.id)).toEqual([doc1.id])
      expect((await s.h.call('GET', '/storage/attachments?status=deleted', who)).status).toBe(400)
    })

    test('PATCH renames, re-attaches and changes metadata; never the bytes', async () => {
      const a = await s.upload(bytesOf(`patch me ${kind}`))
      const res = await s.h.call('PATCH', `/storage/attachments/${a.id}`, {
        ...s.creds,
        body: { filename: 'renamed.txt', ownerType: 'document', ownerId: 'doc-9', metadata: { page: 3 } },
      })
      expect(res.status).toBe(200)
      expect(res.body.attachment).toMatchObject({
        filename: 'renamed.txt',
        ownerType: 'document',
        ownerId: 'doc-9',
        metadata: { page: 3 },
        sizeBytes: a.sizeBytes,
        status: 'ready',
      })
      const cleared = await s.h.call('PATCH', `/storage/attachments/${a.id}`, { ...s.creds, body: { ownerId: null, metadata: null } })
      expect(cleared.body.attachment).toMatchObject({ ownerId: null, metadata: null })
      expect((await s.h.call('PATCH', `/storage/attachments/${a.id}`, { ...s.creds, body: {} })).status).toBe(400)
      expect((await s.h.call('PATCH', `/storage/attachments/${a.id}`, { ...s.creds, body: { sizeBytes: 1 } })).status).toBe(400)

      const d = await s.h.call('GET', `/storage/attachments/${a.id}/download`, s.creds)
      expect((await s.fetchUrl(d.body.url)).headers.get('content-disposition')).toContain('renamed.txt')
    })

    test('DELETE is soft: 404 afterwards, usage drops at once, the bytes stay until purged', async () => {
      const a = await s.upload(bytesOf(`delete me ${kind}`))
      const before = (await s.h.call('GET', '/usage/storage', s.creds)).body
      expect((await s.h.call('DELETE', `/storage/attachments/${a.id}`, s.creds)).status).toBe(204)
      const after = (await s.h.call('GET', '/usage/storage', s.creds)).body
      expect(after.usageBytes).toBe(before.usageBytes - a.sizeBytes)
      expect(after.availableBytes).toBe(after.quotaBytes - after.usageBytes)
      for (const [method, path] of [
        ['GET', `/storage/attachments/${a.id}`],
        ['GET', `/storage/attachments/${a.id}/download`],
        ['PATCH', `/storage/attachments/${a.id}`],
        ['DELETE', `/storage/attachments/${a.id}`],
        ['POST', `/storage/attachments/${a.id}/complete`],
      ] as const) {
        const res = await s.h.call(method, path, { ...s.creds, body: method === 'PATCH' ? { filename: 'x' } : undefined })
        expect(res.status, `${method} ${path}`).toBe(404)
      }
      expect(await s.h.deps.storage.head(a.objectKey)).toEqual({ sizeBytes: a.sizeBytes })
      expect((await s.h.call('GET', '/usage/storage', s.creds)).body.usageBytes).toBe(after.usageBytes)
    })

    test('a team member acting in the ecosystem has its own attachments, apart from the customer', async () => {
      const member = await s.h.register()
      await addMember(s.h, s.org, s.owner, member, 'member')
      const mine = await s.upload(bytesOf(`member file ${kind}`), {}, s.org.as(member))
      const listed = await s.h.call('GET', '/storage/attachments', s.org.as(member))
      expect(listed.body.items.map((a: { id: string }) => a.id)).toEqual([mine.id])
      expect((await s.h.call('GET', `/storage/attachments/${mine.id}`, s.creds)).status).toBe(404)
      expect((await s.h.call('GET', `/storage/attachments/${mine.id}`, s.org.as(member))).body.attachment.customerId).not.toBe(s.customer.customerId)
    })

    test('bad declarations are refused with the field named', async () => {
      const bytes = bytesOf('x')
      const cases: [Record<string, unknown>, string][] = [
        [{ contentHash: 'abc' }, 'contentHash'],
        [{ sizeBytes: -1 }, 'sizeBytes'],
        [{ sizeBytes: 1.5 }, 'sizeBytes'],
        [{ filename: '' }, 'filename'],
        [{ filename: 'evil\r\nname' }, 'filename'],
        [{ contentType: 'not a type' }, 'contentType'],
        [{ contentType: 'text/plain\r\nx-evil: 1' }, 'contentType'],
        [{ ownerType: 'Chat Message' }, 'ownerType'],
      ]
      for (const [override, field] of cases) {
        const res = await s.presign(bytes, override)
        expect(res.status, JSON.stringify(override)).toBe(400)
        expect(res.body.error.message, JSON.stringify(override)).toContain(field)
      }
      const big = await s.presign(bytes, { sizeBytes: 5 * 1024 ** 3 + 1 })
      expect(big.status).toBe(400)
      expect(big.body.error.code).toBe('file_too_large')
    })

    test('without credentials: 401; a customer token for another ecosystem id: 403', async () => {
      expect((await s.h.call('GET', '/storage/attachments')).status).toBe(401)
      expect((await s.h.call('GET', '/usage/storage')).status).toBe(401)
      const res = await s.h.call('GET', '/storage/attachments', { ...s.creds, headers: { 'x-ecosystem-id': crypto.randomUUID() } })
      expect(res.status).toBe(403)
    })
  })
}
