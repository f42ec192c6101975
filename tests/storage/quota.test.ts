import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { sql } from 'drizzle-orm'
import { queryRows } from '../../src/platform/db'
import { addMember, customerOf, provision } from '../support/tenancy'
import { bytesOf, STORE_KINDS, storageApp, type StorageApp } from '../support/storage'

const DEFAULT_QUOTA = 5368709120

/** The usage counter must always equal the live sum the spec defines it as. */
async function liveSum(s: StorageApp, customerId: string) {
  const [row] = await queryRows<{ live: string | number | null; counter: string | number | null }>(
    s.h.db,
    sql`select
          (select coalesce(sum(size_bytes), 0) from storage.attachments
            where ecosystem_id = ${s.org.ecosystem.id} and customer_id = ${customerId} and status = 'ready' and deleted_at is null) as live,
          (select used_bytes from storage.usage where ecosystem_id = ${s.org.ecosystem.id} and customer_id = ${customerId}) as counter`,
  )
  return { live: Number(row!.live), counter: Number(row!.counter ?? 0) }
}

function expectQuotaExceeded(res: { status: number; body: any }, figures: { used: number; quota: number; requested: number }) {
  expect(res.status).toBe(413)
  expect(res.body).toEqual({ error: { code: 'quota_exceeded', message: expect.any(String) }, ...figures })
}

for (const kind of STORE_KINDS) {
  describe(`quotas (${kind} store)`, () => {
    let s: StorageApp
    beforeAll(async () => {
      s = await storageApp(kind)
    })
    afterAll(() => s.close())

    const admin = () => s.org.as(s.owner)
    const setQuota = (customerId: string, quotaBytes: number) => s.h.call('PUT', `/usage/storage/quotas/${customerId}`, { ...admin(), body: { quotaBytes } })
    const usage = (token: string) => s.h.call('GET', '/usage/storage', { token })

    test('the default quota is 5 GiB; usage counts ready, live attachments only', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      expect((await usage(c.token)).body).toEqual({ quotaBytes: DEFAULT_QUOTA, usageBytes: 0, availableBytes: DEFAULT_QUOTA })
      await s.presign(bytesOf('pending bytes'), {}, { token: c.token })
      const a = await s.upload(bytesOf('ready bytes!'), {}, { token: c.token })
      expect((await usage(c.token)).body).toEqual({ quotaBytes: DEFAULT_QUOTA, usageBytes: 12, availableBytes: DEFAULT_QUOTA - 12 })
      await s.h.call('DELETE', `/storage/attachments/${a.id}`, { token: c.token })
      expect((await usage(c.token)).body.usageBytes).toBe(0)
    })

    test('a quota beyond 2^53 − 1 bytes (1e308, 1e20, 2^63) is a 400, never a database error', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      for (const quotaBytes of [1e308, 1e20, 2 ** 63, Number.MAX_SAFE_INTEGER + 1]) {
        const res = await setQuota(c.customerId, quotaBytes)
        expect(res.status).toBe(400)
        expect(res.body.error.code).toBe('validation_failed')
      }
      expect((await setQuota(c.customerId, Number.MAX_SAFE_INTEGER)).body.quotaBytes).toBe(Number.MAX_SAFE_INTEGER)
    })

    test('an admin override: PUT sets it, GET lists it, DELETE returns to the default', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const put = await setQuota(c.customerId, 100)
      expect(put.status).toBe(200)
      expect(put.body).toEqual({ userId: c.customerId, ownerId: s.org.ecosystem.id, quotaBytes: 100, updatedAt: expect.any(String) })
      expect((await usage(c.token)).body).toEqual({ quotaBytes: 100, usageBytes: 0, availableBytes: 100 })
      expect((await setQuota(c.customerId, 200)).body.quotaBytes).toBe(200)

      const list = await s.h.call('GET', '/usage/storage/quotas', admin())
      expect(list.status).toBe(200)
      expect(list.body.items).toContainEqual({ userId: c.customerId, ownerId: s.org.ecosystem.id, quotaBytes: 200, updatedAt: expect.any(String) })
      expect(list.body).toMatchObject({ page: 1, pageSize: 20 })

      expect((await s.h.call('DELETE', `/usage/storage/quotas/${c.customerId}`, admin())).status).toBe(204)
      expect((await usage(c.token)).body.quotaBytes).toBe(DEFAULT_QUOTA)
      const again = await s.h.call('DELETE', `/usage/storage/quotas/${c.customerId}`, admin())
      expect(again.status).toBe(404)
    })

    test("an admin reads a customer's usage as the customer sees it; not another ecosystem's customer, and not as a customer", async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      await s.upload(bytesOf('seventeen bytes!!'), {}, { token: c.token })
      await setQuota(c.customerId, 1000)
      const seen = await s.h.call('GET', `/usage/storage/customers/${c.customerId}`, admin())
      expect(seen.status).toBe(200)
      expect(seen.body).toEqual((await usage(c.token)).body)
      expect(seen.body).toEqual({ quotaBytes: 1000, usageBytes: 17, availableBytes: 983 })
      const otherOwner = await s.h.register()
      const stranger = await customerOf(s.h, await provision(s.h, otherOwner), otherOwner)
      expect((await s.h.call('GET', `/usage/storage/customers/${stranger.customerId}`, admin())).status).toBe(404)
      expect((await s.h.call('GET', `/usage/storage/customers/${c.customerId}`, { token: c.token })).status).toBe(403)
    })

    test('overrides are per ecosystem and only for its customers; only admins set them', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const otherOwner = await s.h.register()
      const other = await provision(s.h, otherOwner)
      const stranger = await customerOf(s.h, other, otherOwner)
      expect((await setQuota(stranger.customerId, 1)).status).toBe(404)
      expect((await s.h.call('PUT', `/usage/storage/quotas/${crypto.randomUUID()}`, { ...admin(), body: { quotaBytes: 1 } })).status).toBe(404)

      const member = await s.h.register()
      await addMember(s.h, s.org, s.owner, member, 'member')
      expect((await s.h.call('PUT', `/usage/storage/quotas/${c.customerId}`, { ...s.org.as(member), body: { quotaBytes: 1 } })).status).toBe(403)
      expect((await s.h.call('GET', '/usage/storage/quotas', s.org.as(member))).status).toBe(403)
      expect((await s.h.call('PUT', `/usage/storage/quotas/${c.customerId}`, { token: c.token, body: { quotaBytes: 1 } })).status).toBe(403)
      expect((await s.h.call('PUT', `/usage/storage/quotas/${c.customerId}`, { ...admin(), body: { quotaBytes: -1 } })).status).toBe(400)
      expect((await usage(c.token)).body.quotaBytes).toBe(DEFAULT_QUOTA)
    })

    test('presign refuses an upload that would pass the quota: 413 StorageQuotaExceeded', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      await setQuota(c.customerId, 20)
      await s.upload(bytesOf('0123456789'), {}, { token: c.token })
      expectQuotaExceeded(await s.presign(bytesOf('0123456789X'), {}, { token: c.token }), { used: 10, quota: 20, requested: 11 })
      expect((await s.presign(bytesOf('abcdefghij'), {}, { token: c.token })).status).toBe(201)
    })

    test('complete re-checks the quota: the loser gets 413, its bytes are deleted, it stays pending', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const who = { token: c.token }
      await setQuota(c.customerId, 15)
      const one = bytesOf('first ten!')
      const two = bytesOf('second ten')
      const p1 = (await s.presign(one, {}, who)).body
      const p2 = (await s.presign(two, {}, who)).body
      expect((await s.put(p1, one)).status).toBe(200)
      expect((await s.put(p2, two)).status).toBe(200)
      expect((await s.complete(p1.attachment.id, who)).status).toBe(200)
      expectQuotaExceeded(await s.complete(p2.attachment.id, who), { used: 10, quota: 15, requested: 10 })
      expect(await s.h.deps.storage.head(p2.attachment.objectKey)).toBeNull()
      expect((await s.h.call('GET', `/storage/attachments/${p2.attachment.id}`, who)).body.attachment.status).toBe('pending')
      expect((await usage(c.token)).body).toEqual({ quotaBytes: 15, usageBytes: 10, availableBytes: 5 })
    })

    test('a quota lowered below usage: nothing is lost, availableBytes is 0, uploads are refused', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      await s.upload(bytesOf('twenty bytes of data'), {}, { token: c.token })
      await setQuota(c.customerId, 5)
      expect((await usage(c.token)).body).toEqual({ quotaBytes: 5, usageBytes: 20, availableBytes: 0 })
      expectQuotaExceeded(await s.presign(bytesOf('x'), {}, { token: c.token }), { used: 20, quota: 5, requested: 1 })
      expect((await s.h.call('GET', '/storage/attachments', { token: c.token })).body.total).toBe(1)
    })

    test('race: 20 concurrent completes that together exceed the quota leave usage ≤ quota', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const who = { token: c.token }
      const size = 100
      const quota = 1000
      await setQuota(c.customerId, quota)
      const uploads = await Promise.all(
        Array.from({ length: 20 }, async (_, i) => {
          const bytes = bytesOf(`${String(i).padStart(3, '0')}:`.padEnd(size, '.'))
          const p = (await s.presign(bytes, {}, who)).body
          expect((await s.put(p, bytes)).status).toBe(200)
          return p.attachment as { id: string; objectKey: string }
        }),
      )
      const results = await Promise.all(uploads.map((u) => s.complete(u.id, who)))

      const won = results.filter((r) => r.status === 200)
      const lost = results.filter((r) => r.status !== 200)
      expect(won.length).toBe(quota / size)
      for (const r of lost) {
        expect(r.status).toBe(413)
        expect(r.body).toEqual({ error: { code: 'quota_exceeded', message: expect.any(String) }, used: expect.any(Number), quota, requested: size })
        expect(r.body.used + size).toBeGreaterThan(quota)
      }
      const after = (await usage(c.token)).body
      expect(after.usageBytes).toBeLessThanOrEqual(quota)
      expect(after.usageBytes).toBe(won.length * size)
      expect(await liveSum(s, c.customerId)).toEqual({ live: after.usageBytes, counter: after.usageBytes })
      for (const [i, r] of results.entries()) {
        expect(await s.h.deps.storage.head(uploads[i]!.objectKey)).toEqual(r.status === 200 ? { sizeBytes: size } : null)
      }
    })

    test('race: concurrent completes and deletes never let the counter drift from the live sum', async () => {
      const c = await customerOf(s.h, s.org, s.owner)
      const who = { token: c.token }
      const ready = await Promise.all(Array.from({ length: 6 }, (_, i) => s.upload(bytesOf(`ready ${i} `.repeat(i + 1)), {}, who)))
      const pending = await Promise.all(
        Array.from({ length: 6 }, async (_, i) => {
          const bytes = bytesOf(`pending ${i} `.repeat(i + 2))
          const p = (await s.presign(bytes, {}, who)).body
          await s.put(p, bytes)
          return p.attachment.id as string
        }),
      )
      await Promise.all([
        ...ready.map((a) => s.h.call('DELETE', `/storage/attachments/${a.id}`, who)),
        ...pending.map((id) => s.complete(id, who)),
        // Deleting a pending attachment while it completes: one of the two wins, cleanly.
        ...pending.slice(0, 3).map((id) => s.h.call('DELETE', `/storage/attachments/${id}`, who)),
      ])
      const { live, counter } = await liveSum(s, c.customerId)
      expect(counter).toBe(live)
      expect((await usage(c.token)).body.usageBytes).toBe(live)
    })

    test('STORAGE_DEFAULT_QUOTA_BYTES changes the default', async () => {
      const small = await storageApp(kind, { STORAGE_DEFAULT_QUOTA_BYTES: '8' })
      try {
        expect((await small.h.call('GET', '/usage/storage', small.creds)).body).toEqual({ quotaBytes: 8, usageBytes: 0, availableBytes: 8 })
        expectQuotaExceeded(await small.presign(bytesOf('nine bytes')), { used: 0, quota: 8, requested: 10 })
      } finally {
        await small.close()
      }
    })
  })
}
