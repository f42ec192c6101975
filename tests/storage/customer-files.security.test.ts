import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { addMember, customerOf, provision } from '../support/tenancy'
import { bytesOf, STORE_KINDS, storageApp, type StorageApp } from '../support/storage'

// An ecosystem admin's storage browser (GET/DELETE /storage/customers/{customerId}/attachments…):
// admins and owners only, only for customers of their own ecosystem, and a delete that frees the
// customer's quota exactly as the customer's own does, recorded in the audit log.

for (const kind of STORE_KINDS) {
  describe(`a customer's files as an ecosystem admin sees them (${kind} store)`, () => {
    let s: StorageApp
    beforeAll(async () => {
      s = await storageApp(kind)
    })
    afterAll(() => s.close())

    const admin = () => s.org.as(s.owner)
    const filesOf = (customerId: string, who = admin(), query = '') => s.h.call('GET', `/storage/customers/${customerId}/attachments${query}`, who)
    const usageOf = (customerId: string) => s.h.call('GET', `/usage/storage/customers/${customerId}`, admin())

    test("an admin lists a customer's files (ready and pending, filterable), newest first, and downloads their bytes", async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const who = { token: c.token }
      const text = await s.upload(bytesOf('first file, text'), { filename: 'notes.txt' }, who)
      const image = await s.upload(bytesOf('not really a png'), { filename: 'photo.png', contentType: 'image/png' }, who)
      const pending = (await s.presign(bytesOf('still on its way'), { filename: 'later.txt' }, who)).body.attachment
      await s.upload(bytesOf('somebody else'), {}, s.creds)

      const all = await filesOf(c.customerId)
      expect(all.status).toBe(200)
      expect(all.body).toMatchObject({ total: 3, page: 1, pageSize: 20 })
      expect(all.body.items.map((a: { id: string }) => a.id)).toEqual([pending.id, image.id, text.id])
      expect(all.body).toEqual((await s.h.call('GET', '/storage/attachments', who)).body)
      const ready = await filesOf(c.customerId, admin(), '?status=ready&pageSize=1')
      expect(ready.body).toMatchObject({
        total: 2,
        pageSize: 1,
        items: [{ id: image.id, customerId: c.customerId, contentType: 'image/png', status: 'ready' }],
      })

      const d = await s.h.call('GET', `/storage/customers/${c.customerId}/attachments/${image.id}/download`, admin())
      expect(d.status).toBe(200)
      const res = await s.fetchUrl(d.body.url)
      expect(res.status).toBe(200)
      expect(await res.text()).toBe('not really a png')
      const early = await s.h.call('GET', `/storage/customers/${c.customerId}/attachments/${pending.id}/download`, admin())
      expect(early.status).toBe(409)
      expect(early.body.error.code).toBe('attachment_pending')
    })

    test('an admin’s delete frees the customer’s usage at once, as the customer’s own does, and is in the audit log', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const kept = await s.upload(bytesOf('kept: 10b'), {}, { token: c.token })
      const gone = await s.upload(bytesOf('deleted: 14 b'), { filename: 'gone.txt' }, { token: c.token })
      expect((await usageOf(c.customerId)).body.usageBytes).toBe(kept.sizeBytes + gone.sizeBytes)

      const del = await s.h.call('DELETE', `/storage/customers/${c.customerId}/attachments/${gone.id}`, admin())
      expect(del.status).toBe(204)
      expect((await usageOf(c.customerId)).body.usageBytes).toBe(kept.sizeBytes)
      expect((await s.h.call('GET', '/usage/storage', { token: c.token })).body.usageBytes).toBe(kept.sizeBytes)
      expect((await s.h.call('GET', `/storage/attachments/${gone.id}`, { token: c.token })).status).toBe(404)
      expect((await filesOf(c.customerId)).body.items.map((a: { id: string }) => a.id)).toEqual([kept.id])
      const again = await s.h.call('DELETE', `/storage/customers/${c.customerId}/attachments/${gone.id}`, admin())
      expect(again.status).toBe(404)
      expect(again.body.error.code).toBe('not_found')
      expect((await usageOf(c.customerId)).body.usageBytes).toBe(kept.sizeBytes)

      const log = await s.h.call('GET', '/audit/events?action=storage.attachment.deleted', admin())
      expect(log.body.items.filter((e: { target: { id: string } }) => e.target.id === gone.id)).toEqual([
        expect.objectContaining({
          actor: expect.objectContaining({ type: 'user', id: s.owner.user.id }),
          action: 'storage.attachment.deleted',
          target: { type: 'attachment', id: gone.id },
          ecosystemId: s.org.ecosystem.id,
          metadata: { customerId: c.customerId, filename: 'gone.txt', contentType: 'text/plain', sizeBytes: gone.sizeBytes, status: 'ready' },
        }),
      ])
    })

    test('a pending upload deleted by an admin never counted, and still goes', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const pending = (await s.presign(bytesOf('never completed'), {}, { token: c.token })).body.attachment
      expect((await s.h.call('DELETE', `/storage/customers/${c.customerId}/attachments/${pending.id}`, admin())).status).toBe(204)
      expect((await usageOf(c.customerId)).body.usageBytes).toBe(0)
      expect((await filesOf(c.customerId)).body.total).toBe(0)
    })

    test('an admin role is needed: a member gets 403, a customer’s own token too, anonymous 401', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const a = await s.upload(bytesOf('guarded bytes'), {}, { token: c.token })
      const member = await s.h.register()
      await addMember(s.h, s.org, s.owner, member, 'member')
      const admin2 = await s.h.register()
      await addMember(s.h, s.org, s.owner, admin2, 'admin')
      const routes = [
        ['GET', `/storage/customers/${c.customerId}/attachments`],
        ['GET', `/storage/customers/${c.customerId}/attachments/${a.id}/download`],
        ['DELETE', `/storage/customers/${c.customerId}/attachments/${a.id}`],
      ] as const
      for (const [method, path] of routes) {
        for (const who of [s.org.as(member), { token: c.token }]) {
          const res = await s.h.call(method, path, who)
          expect(res.status).toBe(403)
          expect(res.body.error.code).toBe('forbidden')
        }
        expect((await s.h.call(method, path, {})).status).toBe(401)
      }
      expect((await s.h.call('GET', `/storage/customers/${c.customerId}/attachments`, s.org.as(admin2))).body.total).toBe(1)
      expect((await usageOf(c.customerId)).body.usageBytes).toBe(a.sizeBytes)
    })

    test('a fellow team member’s own files are not an admin’s to browse: 403 on every route, the file left alone', async () => {
      const member = await s.h.register()
      await addMember(s.h, s.org, s.owner, member, 'member')
      const own = (await s.h.call('GET', '/customer/me', s.org.as(member))).body
      expect(own.externalId).toBe(`user:${member.user.id}`)
      const a = await s.upload(bytesOf('a member’s own upload'), {}, s.org.as(member))
      for (const [method, path] of [
        ['GET', `/storage/customers/${own.id}/attachments`],
        ['GET', `/storage/customers/${own.id}/attachments/${a.id}/download`],
        ['DELETE', `/storage/customers/${own.id}/attachments/${a.id}`],
      ] as const) {
        const res = await s.h.call(method, path, admin())
        expect(res.status).toBe(403)
        expect(res.body.error.code).toBe('forbidden')
      }
      expect((await s.h.call('GET', `/storage/attachments/${a.id}`, s.org.as(member))).status).toBe(200)
    })

    test('another ecosystem’s customer, or an attachment of another customer, is 404 and left alone', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const mine = await s.upload(bytesOf('mine, not theirs'), {}, { token: c.token })
      const otherOwner = await s.h.register()
      const other = await provision(s.h, otherOwner)
      const stranger = await customerOf(s.h, other, otherOwner)
      const theirs = await s.upload(bytesOf('a stranger’s file'), {}, { token: stranger.token })

      for (const [method, path] of [
        ['GET', `/storage/customers/${stranger.customerId}/attachments`],
        ['GET', `/storage/customers/${stranger.customerId}/attachments/${theirs.id}/download`],
        ['DELETE', `/storage/customers/${stranger.customerId}/attachments/${theirs.id}`],
        ['GET', `/storage/customers/${c.customerId}/attachments/${theirs.id}/download`],
        ['DELETE', `/storage/customers/${c.customerId}/attachments/${theirs.id}`],
        ['DELETE', `/storage/customers/${s.customer.customerId}/attachments/${mine.id}`],
        ['GET', `/storage/customers/${crypto.randomUUID()}/attachments`],
      ] as const) {
        const res = await s.h.call(method, path, admin())
        expect(res.status).toBe(404)
        expect(res.body.error.code).toBe('not_found')
      }
      expect((await s.h.call('GET', '/usage/storage', { token: stranger.token })).body.usageBytes).toBe(theirs.sizeBytes)
      expect((await s.h.call('GET', `/storage/attachments/${theirs.id}`, { token: stranger.token })).status).toBe(200)
      expect((await s.h.call('GET', `/storage/attachments/${mine.id}`, { token: c.token })).status).toBe(200)
      expect((await s.h.call('GET', `/storage/customers/not-a-uuid/attachments`, admin())).status).toBe(400)
    })
  })
}
