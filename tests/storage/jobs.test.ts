import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { eq } from 'drizzle-orm'
import { runJob } from '../../src/jobs'
import { deleteOrphanedObjects, expireUploads, purgeAttachments } from '../../src/modules/storage/jobs'
import { attachments } from '../../src/modules/storage/schema'
import { bytesOf, STORE_KINDS, storageApp, type StorageApp } from '../support/storage'

const HOUR = 3600_000

for (const kind of STORE_KINDS) {
  describe(`storage jobs (${kind} store)`, () => {
    let s: StorageApp
    beforeAll(async () => {
      s = await storageApp(kind, { STORAGE_PENDING_TTL_SECONDS: '7200', STORAGE_PURGE_AFTER_SECONDS: '3600', ACCESS_TOKEN_TTL_SECONDS: '86400' })
    })
    afterAll(() => s.close())

    const row = async (id: string) => (await s.h.db.select().from(attachments).where(eq(attachments.id, id)))[0]

    test('expire-uploads removes pending uploads older than the TTL, and nothing else; their bytes go with the next delete-orphaned-objects', async () => {
      const neverUploaded = (await s.presign(bytesOf(`never uploaded ${kind}`))).body.attachment
      const p = await s.presign(bytesOf(`bytes arrived ${kind}`))
      expect((await s.put(p.body, bytesOf(`bytes arrived ${kind}`))).status).toBe(200)
      const arrived = p.body.attachment
      const ready = await s.upload(bytesOf(`ready long ago ${kind}`))

      expect(await runJob(s.h.deps, expireUploads)).toEqual({ expired: 0 })
      s.h.advanceClock(2 * HOUR + 1000)
      const recent = (await s.presign(bytesOf(`recent ${kind}`))).body.attachment

      expect(await runJob(s.h.deps, expireUploads)).toEqual({ expired: 2 })
      for (const a of [neverUploaded, arrived]) expect(await row(a.id)).toBeUndefined()
      expect(await s.h.deps.storage.head(arrived.objectKey)).toEqual({ sizeBytes: arrived.sizeBytes })
      // Deleting an object that never arrived is harmless: both count as deleted.
      expect(await runJob(s.h.deps, deleteOrphanedObjects)).toEqual({ objectsDeleted: 2, objectsFailed: 0 })
      expect(await s.h.deps.storage.head(arrived.objectKey)).toBeNull()
      expect((await s.complete(arrived.id)).status).toBe(404)
      expect((await row(recent.id))?.status).toBe('pending')
      expect((await row(ready.id))?.status).toBe('ready')
      expect(await s.h.deps.storage.head(ready.objectKey)).toEqual({ sizeBytes: ready.sizeBytes })
      expect(await runJob(s.h.deps, expireUploads)).toEqual({ expired: 0 })
      expect(await runJob(s.h.deps, deleteOrphanedObjects)).toEqual({ objectsDeleted: 0, objectsFailed: 0 })
    })

    test('purge-attachments deletes the rows of attachments deleted longer ago than STORAGE_PURGE_AFTER_SECONDS, then their bytes go once', async () => {
      const old = await s.upload(bytesOf(`deleted long ago ${kind}`))
      const oldPending = (await s.presign(bytesOf(`pending, deleted ${kind}`))).body.attachment
      const kept = await s.upload(bytesOf(`still here ${kind}`))
      await s.h.call('DELETE', `/storage/attachments/${old.id}`, s.creds)
      await s.h.call('DELETE', `/storage/attachments/${oldPending.id}`, s.creds)
      const usage = (await s.h.call('GET', '/usage/storage', s.creds)).body.usageBytes

      expect((await runJob(s.h.deps, purgeAttachments))!.purged).toBe(0)
      s.h.advanceClock(HOUR + 1000)
      const recent = await s.upload(bytesOf(`deleted just now ${kind}`))
      await s.h.call('DELETE', `/storage/attachments/${recent.id}`, s.creds)

      expect(await runJob(s.h.deps, purgeAttachments)).toEqual({ purged: 2 })
      expect(await row(old.id)).toBeUndefined()
      expect(await row(oldPending.id)).toBeUndefined()
      expect(await runJob(s.h.deps, deleteOrphanedObjects)).toEqual({ objectsDeleted: 2, objectsFailed: 0 })
      expect(await s.h.deps.storage.head(old.objectKey)).toBeNull()
      expect(await runJob(s.h.deps, deleteOrphanedObjects)).toEqual({ objectsDeleted: 0, objectsFailed: 0 })
      expect(await row(recent.id)).toBeDefined()
      expect(await s.h.deps.storage.head(recent.objectKey)).toEqual({ sizeBytes: recent.sizeBytes })
      expect(await s.h.deps.storage.head(kept.objectKey)).toEqual({ sizeBytes: kept.sizeBytes })
      expect((await s.h.call('GET', '/usage/storage', s.creds)).body.usageBytes).toBe(usage)
    })

    test('an object the store fails to delete is reported and kept for the next run; the rest of the batch still goes', async () => {
      const a = await s.upload(bytesOf(`one ${kind}`))
      const b = await s.upload(bytesOf(`two ${kind}`))
      await s.h.call('DELETE', `/storage/attachments/${a.id}`, s.creds)
      await s.h.call('DELETE', `/storage/attachments/${b.id}`, s.creds)
      s.h.advanceClock(HOUR + 1000)
      // (The attachment deleted "just now" in the previous test is due as well by now.)
      const purged = (await runJob(s.h.deps, purgeAttachments))!.purged
      expect(purged).toBeGreaterThanOrEqual(2)
      const store = s.h.deps.storage
      const failing = {
        ...s.h.deps,
        storage: Object.assign(Object.create(store), {
          delete: async (key: string) => (key === a.objectKey ? Promise.reject(new Error('store down')) : store.delete(key)),
        }),
      }
      expect(await runJob(failing, deleteOrphanedObjects)).toEqual({ objectsDeleted: purged - 1, objectsFailed: 1 })
      expect(await store.head(b.objectKey)).toBeNull()
      expect(await store.head(a.objectKey)).toEqual({ sizeBytes: a.sizeBytes })
      expect(s.h.logLines.some((l) => l.includes('could not delete object') && l.includes(a.objectKey))).toBe(true)

      expect(await runJob(s.h.deps, deleteOrphanedObjects)).toEqual({ objectsDeleted: 1, objectsFailed: 0 })
      expect(await store.head(a.objectKey)).toBeNull()
    })
  })
}
