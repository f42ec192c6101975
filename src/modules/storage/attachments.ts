import { type EntitlementGate, STORAGE_BYTES } from '../../platform/entitlements'
import type { EventBus } from '../../platform/events'
import { attachmentReady } from './events'
import { and, desc, eq, isNull, type SQL } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { constant, type Db } from '../../platform/db'
import { listPage, type PageParams } from '../../platform/paging'
import { storageErrors } from './errors'
import type { StorageQuotas } from './quota'
import { attachments } from './schema'

type Row = typeof attachments.$inferSelect
interface Scope {
  ecosystemId: string
  customerId: string
}

export interface UploadInput {
  filename: string
  contentType: string
  sizeBytes: number
  contentHash: string
  ownerType?: string
  ownerId?: string | null
  metadata?: Record<string, unknown> | null
  width?: number | null
  height?: number | null
  durationMs?: number | null
}
export type AttachmentPatch = Partial<Pick<UploadInput, 'filename' | 'ownerType' | 'ownerId' | 'metadata' | 'width' | 'height' | 'durationMs'>>

export const attachmentView = (a: Row) => ({
  id: a.id,
  ecosystemId: a.ecosystemId,
  customerId: a.customerId,
  ownerType: a.ownerType,
  ownerId: a.ownerId,
  objectKey: a.objectKey,
  storageKind: a.storageKind,
  filename: a.filename,
  contentType: a.contentType,
  sizeBytes: a.sizeBytes,
  contentHash: a.contentHash,
  width: a.width,
  height: a.height,
  durationMs: a.durationMs,
  status: a.status,
  metadata: a.metadata ?? null,
  createdAt: a.createdAt.toISOString(),
  updatedAt: a.updatedAt.toISOString(),
  deletedAt: a.deletedAt?.toISOString() ?? null,
})

/** Rows of this customer in this ecosystem that are not deleted: the only rows any route sees. */
const live = (s: Scope): SQL => and(eq(attachments.ecosystemId, s.ecosystemId), eq(attachments.customerId, s.customerId), isNull(attachments.deletedAt))!

/**
 * Attachments through their states: presign (→ `pending`), complete (`pending` → `ready`, counted
 * toward the quota), soft delete (uncounted at once; bytes purged later by a job).
 */
export class Attachments {
  constructor(
    private readonly deps: Pick<Deps, 'config' | 'db' | 'logger' | 'now' | 'storage'>,
    private readonly quotas: StorageQuotas,
    private readonly events: Pick<EventBus, 'emit'>,
    /** Billing's `storage.bytes`: the tighter of it and the quota wins. */
    private readonly gate: EntitlementGate,
  ) {}

  /** A `pending` attachment and a presigned PUT; or the caller's ready attachment with the same bytes. `origin`: a same-origin caller's address (see ObjectStore). */
  async presign(scope: Scope, input: UploadInput, origin: string | null = null) {
    const { maxUploadBytes, urlTtl } = this.deps.config.storage
    if (input.sizeBytes > maxUploadBytes) throw storageErrors.fileTooLarge(maxUploadBytes)
    const contentHash = input.contentHash.toLowerCase()
    const [same] = await this.deps.db
      .select()
      .from(attachments)
      .where(and(live(scope), eq(attachments.status, constant('ready')), eq(attachments.contentHash, contentHash), eq(attachments.sizeBytes, input.sizeBytes)))
      .orderBy(attachments.createdAt)
      .limit(1)
    if (same) return { deduplicated: true as const, attachment: attachmentView(same) }

    // Checked again under the customer's lock when the upload completes; this early answer
    // spares the caller an upload that could not count.
    const [used, quota] = await Promise.all([this.quotas.used(this.deps.db, scope), this.quotas.quotaOf(this.deps.db, scope)])
    if (used + input.sizeBytes > quota) throw storageErrors.quotaExceeded(used, quota, input.sizeBytes)

    const id = crypto.randomUUID()
    const objectKey = `${scope.ecosystemId}/${scope.customerId}/${id}`
    const values = {
      id,
      ...scope,
      ownerType: input.ownerType ?? 'standalone',
      ownerId: input.ownerId ?? null,
      objectKey,
      storageKind: this.deps.storage.kind,
      filename: input.filename,
      contentType: input.contentType,
      sizeBytes: input.sizeBytes,
      contentHash,
      width: input.width ?? null,
      height: input.height ?? null,
      durationMs: input.durationMs ?? null,
      metadata: input.metadata ?? null,
      createdAt: this.deps.now(),
      updatedAt: this.deps.now(),
    }
    // The plan's storage.bytes is reserved with the pending row (402 past it, counting the bytes of
    // uploads presigned and not yet completed), so uploads started together cannot pass it. Bytes
    // this replica holds ahead (or no limit) need no transaction; else the reserve and the row share one.
    const bytes = { ecosystemId: scope.ecosystemId, customerId: scope.customerId, feature: STORAGE_BYTES, amount: input.sizeBytes }
    const insert = async (db: Db) => (await db.insert(attachments).values(values).returning())[0]!
    const hold = await this.gate.hold(bytes)
    let row: Row
    if (hold) {
      try {
        row = await insert(this.deps.db)
      } catch (err) {
        hold.release()
        throw err
      }
      hold.commit()
    } else {
      row = await this.deps.db.transaction(async (tx) => {
        await this.gate.require({ ...bytes, reserve: true, tx })
        return insert(tx)
      })
    }
    const put = await this.deps.storage.presignPut({
      key: objectKey,
      contentType: input.contentType,
      sizeBytes: input.sizeBytes,
      sha256Hex: contentHash,
      expiresIn: urlTtl,
      origin,
    })
    return {
      deduplicated: false as const,
      attachment: attachmentView(row),
      uploadUrl: put.url,
      uploadMethod: 'PUT' as const,
      uploadHeaders: put.headers,
      expiresAt: put.expiresAt.toISOString(),
    }
  }

  /**
   * `pending` → `ready` once the store holds the declared bytes. The quota and the plan's
   * `storage.bytes` are checked again under the customer's lock, so concurrent completes can never
   * together pass either (an upload whose reservation expired, or a limit lowered since the
   * presign, is refused here); a rejected upload's bytes are deleted (the attachment stays
   * `pending` until it is uploaded again or expires).
   */
  async complete(scope: Scope, id: string) {
    const row = await this.row(scope, id)
    if (row.status === 'ready') return attachmentView(row)
    const stored = await this.deps.storage.head(row.objectKey)
    if (!stored) throw storageErrors.uploadIncomplete('The bytes have not arrived: PUT them to uploadUrl, then complete')
    if (stored.sizeBytes !== row.sizeBytes) {
      throw storageErrors.uploadIncomplete(`The store holds ${stored.sizeBytes} bytes; ${row.sizeBytes} were declared`)
    }
    const outcome = await this.deps.db.transaction(async (tx) => {
      const used = await this.quotas.lock(tx, scope)
      const [current] = await tx
        .select()
        .from(attachments)
        .where(and(live(scope), eq(attachments.id, id)))
        .for('update')
      if (!current) throw storageErrors.notFound()
      if (current.status === 'ready') return { row: current }
      const quota = await this.quotas.quotaOf(tx, scope)
      if (used + current.sizeBytes > quota) return { refused: storageErrors.quotaExceeded(used, quota, current.sizeBytes) }
      try {
        await this.gate.require({ ecosystemId: scope.ecosystemId, customerId: scope.customerId, feature: STORAGE_BYTES, amount: current.sizeBytes, used, tx })
      } catch (err) {
        if ((err as { code?: string }).code === 'entitlement_exceeded') return { refused: err as Error }
        throw err
      }
      await this.quotas.add(tx, scope, current.sizeBytes)
      const [ready] = await tx.update(attachments).set({ status: 'ready', updatedAt: this.deps.now() }).where(eq(attachments.id, id)).returning()
      const { ecosystemId, customerId, filename, contentType, sizeBytes } = ready!
      await this.events.emit(tx, attachmentReady, ecosystemId, { id, customerId, filename, contentType, sizeBytes })
      return { row: ready! }
    })
    if ('refused' in outcome) {
      await this.deps.storage.delete(row.objectKey).catch((err) => {
        this.deps.logger.warn('storage: could not delete bytes over quota', { objectKey: row.objectKey, error: String(err) })
      })
      throw outcome.refused
    }
    return attachmentView(outcome.row)
  }

  async list(scope: Scope, filter: { ownerType?: string; ownerId?: string; status?: 'pending' | 'ready' }, page: PageParams) {
    const where = and(
      live(scope),
      filter.ownerType ? eq(attachments.ownerType, filter.ownerType) : undefined,
      filter.ownerId ? eq(attachments.ownerId, filter.ownerId) : undefined,
      filter.status ? eq(attachments.status, filter.status) : undefined,
    )
    return listPage(this.deps.db, attachments, where, [desc(attachments.createdAt), desc(attachments.id)], page, attachmentView)
  }

  async get(scope: Scope, id: string) {
    return attachmentView(await this.row(scope, id))
  }

  async update(scope: Scope, id: string, patch: AttachmentPatch) {
    const [row] = await this.deps.db
      .update(attachments)
      .set({ ...patch, updatedAt: this.deps.now() })
      .where(and(live(scope), eq(attachments.id, id)))
      .returning()
    if (!row) throw storageErrors.notFound()
    return attachmentView(row)
  }

  /**
   * Soft delete: the attachment disappears and stops counting toward the quota at once. `then`
   * runs in the same transaction with the deleted row (an admin's delete records it in the audit log).
   */
  async remove(scope: Scope, id: string, then?: (tx: Db, deleted: Row) => Promise<void>): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      // Counter first, then the attachment: the same lock order as complete, so the two cannot deadlock.
      await this.quotas.lock(tx, scope)
      const [row] = await tx
        .update(attachments)
        .set({ deletedAt: this.deps.now(), updatedAt: this.deps.now() })
        .where(and(live(scope), eq(attachments.id, id)))
        .returning()
      if (!row) throw storageErrors.notFound()
      if (row.status === 'ready') await this.quotas.add(tx, scope, -row.sizeBytes)
      await then?.(tx, row)
    })
  }

  /** A presigned GET naming the file; 409 while the bytes are still awaited. */
  async download(scope: Scope, id: string, origin: string | null = null) {
    const row = await this.row(scope, id)
    if (row.status !== 'ready') throw storageErrors.pending()
    const get = await this.deps.storage.presignGet({
      key: row.objectKey,
      filename: row.filename,
      contentType: row.contentType,
      expiresIn: this.deps.config.storage.urlTtl,
      origin,
    })
    return { url: get.url, expiresAt: get.expiresAt.toISOString() }
  }

  private async row(scope: Scope, id: string): Promise<Row> {
    const [row] = await this.deps.db
      .select()
      .from(attachments)
      .where(and(live(scope), eq(attachments.id, id)))
    if (!row) throw storageErrors.notFound()
    return row
  }
}
