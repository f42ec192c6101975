import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { JOBS } from '../../src/modules'
import { runJob } from '../../src/jobs'
import { deleteOrphanedObjects, purgeAttachments } from '../../src/modules/storage/jobs'
import { customers } from '../../src/modules/customer/schema'
import { orphanedObjects } from '../../src/modules/storage/schema'
import { bytesOf, STORE_KINDS, storageApp, type Creds, type StorageApp } from '../support/storage'
import { customerOf, provision } from '../support/tenancy'
import { rejection } from '../support/wait'

const HOUR = 3600_000
/** Past STORAGE_URL_TTL_SECONDS (900 by default) and the job's clock-skew margin (5 min). */
const URLS_EXPIRED = 900_000 + 5 * 60_000 + 1000

test('delete-orphaned-objects is scheduled and holds a session lock, not a transaction', () => {
  expect(JOBS).toContain(deleteOrphanedObjects)
  expect(deleteOrphanedObjects.lock).toBe('session')
})

for (const kind of STORE_KINDS) {
  describe(`objects of attachments that are gone (${kind} store)`, () => {
    let s: StorageApp
    beforeAll(async () => {
      s = await storageApp(kind, { STORAGE_PURGE_AFTER_SECONDS: '3600', ACCESS_TOKEN_TTL_SECONDS: '86400' })
    })
    afterAll(() => s.close())

    const stored = (key: string) => s.h.deps.storage.head(key)
    const drain = () => runJob(s.h.deps, deleteOrphanedObjects)
    /** Downloads an attachment through the API and its presigned URL. */
    async function download(id: string, who: Creds) {
      const res = await s.h.call('GET', `/storage/attachments/${id}/download`, who)
      if (res.status !== 200) return { status: res.status, text: null }
      const got = await s.fetchUrl(res.body.url)
      return { status: got.status, text: await got.text() }
    }

    test("deleting a customer deletes its objects, ready and pending, once their upload URLs have expired; another customer's same bytes stay", async () => {
      const victim = await customerOf(s.h, s.org, s.owner)
      const as = { token: victim.token }
      const shared = `same bytes, two customers ${kind}`
      const ready = await s.upload(bytesOf(shared), {}, as)
      const survivor = await s.upload(bytesOf(shared))
      expect(survivor.objectKey).not.toBe(ready.objectKey)
      const arrived = await s.presign(bytesOf(`arrived ${kind}`), {}, as)
      expect((await s.put(arrived.body, bytesOf(`arrived ${kind}`))).status).toBe(200)
      const late = await s.presign(bytesOf(`uploaded after the delete ${kind}`), {}, as)

      expect((await s.h.call('DELETE', `/customer/customers/${victim.customerId}`, s.org.as(s.owner))).status).toBe(204)
      // Its upload URLs still work for a while: nothing is deleted that a PUT could bring back.
      expect(await drain()).toEqual({ objectsDeleted: 0, objectsFailed: 0 })
      expect(await stored(ready.objectKey)).toEqual({ sizeBytes: ready.sizeBytes })
      expect((await s.put(late.body, bytesOf(`uploaded after the delete ${kind}`))).status).toBe(200)

      s.h.advanceClock(URLS_EXPIRED)
      expect(await drain()).toEqual({ objectsDeleted: 3, objectsFailed: 0 })
      for (const key of [ready.objectKey, arrived.body.attachment.objectKey, late.body.attachment.objectKey]) expect(await stored(key)).toBeNull()
      expect(await download(survivor.id, s.creds)).toEqual({ status: 200, text: shared })
      expect(await drain()).toEqual({ objectsDeleted: 0, objectsFailed: 0 })
    })

    test("deleting an ecosystem deletes the objects of all its customers, and no other ecosystem's", async () => {
      const other = await provision(s.h, s.owner)
      const customer = await customerOf(s.h, other, s.owner)
      const theirs = await s.upload(bytesOf(`customer file ${kind}`), {}, { token: customer.token })
      const member = await s.upload(bytesOf(`member file ${kind}`), {}, other.as(s.owner))
      const pending = (await s.presign(bytesOf(`never uploaded ${kind}`), {}, { token: customer.token })).body.attachment
      const kept = await s.upload(bytesOf(`in the ecosystem that stays ${kind}`))

      expect((await s.h.call('DELETE', `/registry/ecosystems/${other.ecosystem.id}`, { token: s.owner.token })).status).toBe(204)
      s.h.advanceClock(URLS_EXPIRED)
      expect(await drain()).toEqual({ objectsDeleted: 3, objectsFailed: 0 })
      for (const key of [theirs.objectKey, member.objectKey, pending.objectKey]) expect(await stored(key)).toBeNull()
      expect(await download(kept.id, s.creds)).toEqual({ status: 200, text: `in the ecosystem that stays ${kind}` })
    })

    test('a customer delete that rolls back leaves its files in place and nothing for the job', async () => {
      const customer = await customerOf(s.h, s.org, s.owner)
      const as = { token: customer.token }
      const file = await s.upload(bytesOf(`survives a rollback ${kind}`), {}, as)
      const undone = s.h.db.transaction(async (tx) => {
        await tx.delete(customers).where(eq(customers.id, customer.customerId))
        throw new Error('changed my mind')
      })
      await rejection(undone, 'changed my mind')

      expect(await s.h.db.select().from(orphanedObjects).where(eq(orphanedObjects.objectKey, file.objectKey))).toEqual([])
      s.h.advanceClock(URLS_EXPIRED)
      expect(await drain()).toEqual({ objectsDeleted: 0, objectsFailed: 0 })
      expect(await download(file.id, as)).toEqual({ status: 200, text: `survives a rollback ${kind}` })
    })

    test('dedupe never shares an object: purging a deleted file keeps the same bytes uploaded again', async () => {
      const bytes = `uploaded, deleted, uploaded again ${kind}`
      const first = await s.upload(bytesOf(bytes))
      expect((await s.h.call('DELETE', `/storage/attachments/${first.id}`, s.creds)).status).toBe(204)
      const again = await s.upload(bytesOf(bytes))
      expect(again.id).not.toBe(first.id)
      expect(again.objectKey).not.toBe(first.objectKey)
      // Deduplicated against the live one: the same attachment, no second object.
      const dup = await s.presign(bytesOf(bytes))
      expect(dup.body).toMatchObject({ deduplicated: true, attachment: { id: again.id, objectKey: again.objectKey } })

      s.h.advanceClock(HOUR + 1000)
      expect(await runJob(s.h.deps, purgeAttachments)).toEqual({ purged: 1 })
      expect(await drain()).toEqual({ objectsDeleted: 1, objectsFailed: 0 })
      expect(await stored(first.objectKey)).toBeNull()
      expect(await download(again.id, s.creds)).toEqual({ status: 200, text: bytes })
    })
  })
}
