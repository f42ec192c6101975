import { createHash } from 'node:crypto'
import { and, eq, gt, inArray, isNull, lt, ne, or, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { queryRows } from '../../platform/db'
import { embedIsolating } from '../../providers/embeddings'
import { memories } from './schema'
import { realArray } from './vectors'

/** How long a write waits for its embedding before leaving it to the backfill. */
export const ON_WRITE_TIMEOUT_MS = 5_000
/** Per request of the backfill (up to 64 texts). */
const BACKFILL_TIMEOUT_MS = 60_000

interface Embeddable {
  id: string
  description: string
  body: string
}

/** What is embedded for a memory. */
const textOf = (m: Embeddable) => `${m.description}\n${m.body}`
const md5 = (text: string) => createHash('md5').update(text).digest('hex')

/**
 * Embeds `rows` (no transaction is open while the service answers) and stores each vector only
 * if the row still holds the text that was embedded: an edit made meanwhile wins. Rows that
 * failed are marked, so the backfill tries rows that never failed first.
 */
export async function embedAndStore(
  deps: Pick<Deps, 'db' | 'embeddings' | 'logger' | 'now'>,
  rows: Embeddable[],
  timeoutMs: number,
): Promise<{ stored: Set<string>; failed: number }> {
  const provider = deps.embeddings
  const { vectors, unavailable } = await embedIsolating(provider, rows.map(textOf), { timeoutMs })
  if (unavailable) deps.logger.warn('embedding service unavailable', { model: provider.model, error: unavailable.message })
  const done = rows.flatMap((row, i) => (vectors[i] ? [sql`(${row.id}::uuid, ${md5(textOf(row))}, ${realArray(vectors[i])})`] : []))
  const failedIds = rows.filter((_, i) => !vectors[i]).map((row) => row.id)
  const stored = done.length
    ? await queryRows<{ id: string }>(
        deps.db,
        sql`update ${memories} as m set embedding = v.e, embedding_model = ${provider.model}, embedding_failed_at = null
            from (values ${sql.join(done, sql`, `)}) as v(id, h, e)
            where m.id = v.id and m.deleted_at is null and md5(m.description || ${'\n'} || m.body) = v.h
            returning m.id`,
      )
    : []
  if (failedIds.length) await deps.db.update(memories).set({ embeddingFailedAt: deps.now() }).where(inArray(memories.id, failedIds))
  return { stored: new Set(stored.map((r) => r.id)), failed: failedIds.length }
}

/**
 * The backfill: embeds up to `limit` memories with no embedding or one made by another model
 * (superseded ones are never recalled and are skipped), in the ecosystem `ownerId` or in all.
 * `more` is true when the batch was full.
 */
export async function embedPending(deps: Pick<Deps, 'db' | 'embeddings' | 'logger' | 'now'>, options: { ownerId?: string; limit: number }) {
  const model = deps.embeddings.model
  const rows = await deps.db
    .select({ id: memories.id, description: memories.description, body: memories.body })
    .from(memories)
    .where(
      and(
        options.ownerId ? eq(memories.ownerId, options.ownerId) : undefined,
        isNull(memories.deletedAt),
        ne(memories.status, 'superseded'),
        // Written as two ranges (not <>) so the embedding_model index answers it.
        or(isNull(memories.embeddingModel), lt(memories.embeddingModel, model), gt(memories.embeddingModel, model)),
      ),
    )
    .orderBy(sql`${memories.embeddingFailedAt} asc nulls first`, memories.createdAt)
    .limit(options.limit)
  if (rows.length === 0) return { embedded: 0, failed: 0, more: false }
  const { stored, failed } = await embedAndStore(deps, rows, BACKFILL_TIMEOUT_MS)
  return { embedded: stored.size, failed, more: rows.length === options.limit }
}
