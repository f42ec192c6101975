import { and, arrayOverlaps, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Tenant } from '../../platform/tenancy'
import { EmbeddingError } from '../../providers/embeddings'
import { memoryErrors } from './errors'
import { type MEMORY_TYPES, memories } from './schema'
import { visibleTo } from './view'
import { similarityTo } from './vectors'

export interface RecallInput {
  personaId: string
  query: string
  limit?: number
  minSimilarity?: number
  memoryTypes?: (typeof MEMORY_TYPES)[number][]
  tags?: string[]
}

const QUERY_TIMEOUT_MS = 10_000
/**
 * HNSW candidates per search (pgvector's default is 40). With the index's graph options
 * (vectors.ts) 200 keeps recall@10 at 0.96 on 100k memories of the data we measured, within P5's
 * latency once the index fits the buffers; see bench/README.md (P5).
 */
const EF_SEARCH = 200

/** Rounding can put a cosine a hair outside [0, 1]; negatives mean "unrelated" and count as 0. */
const clamp = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0)

/**
 * The persona's active memories that `tenant` sees and that are valid now, most similar to the
 * query first. Every returned memory has its recallCount and lastRecalledAt updated.
 */
export async function recall(deps: Pick<Deps, 'database' | 'db' | 'embeddings' | 'logger' | 'now'>, tenant: Tenant, input: RecallInput) {
  const query = await embedQuery(deps, input.query)
  // A text with nothing to embed is similar to nothing.
  if (query.every((x) => x === 0)) return { memories: [] }
  const now = deps.now()
  const { similarity, order, lateral } = similarityTo(deps.database.vector, query)
  const where = and(
    visibleTo(tenant),
    eq(memories.personaId, input.personaId),
    eq(memories.status, 'active'),
    isNotNull(memories.embedding),
    or(isNull(memories.validFrom), lte(memories.validFrom, now)),
    or(isNull(memories.validTo), gt(memories.validTo, now)),
    input.memoryTypes ? inArray(memories.memoryType, input.memoryTypes) : undefined,
    input.tags ? arrayOverlaps(memories.tags, input.tags) : undefined,
  )
  return deps.db.transaction(async (tx) => {
    if (deps.database.vector) {
      // Keep walking the index until enough rows pass the filters, in exact distance order.
      await tx.execute(sql.raw(`set local hnsw.ef_search = ${EF_SEARCH}`))
      await tx.execute(sql.raw(`set local hnsw.iterative_scan = strict_order`))
    }
    const select = tx
      .select({
        id: memories.id,
        personaId: memories.personaId,
        scope: memories.scope,
        slug: memories.slug,
        memoryType: memories.memoryType,
        description: memories.description,
        body: memories.body,
        confidence: memories.confidence,
        tags: memories.tags,
        similarity,
      })
      .from(memories)
      .$dynamic()
    const rows = await (lateral ? select.crossJoinLateral(lateral) : select)
      .where(where)
      .orderBy(...order)
      .limit(input.limit ?? 8)
    // Ranked best first, so cutting at minSimilarity after the limit equals cutting before it.
    const matches = rows.map((r) => ({ ...r, similarity: clamp(Number(r.similarity)) })).filter((m) => m.similarity >= (input.minSimilarity ?? 0))
    if (matches.length) {
      await tx
        .update(memories)
        .set({ recallCount: sql`${memories.recallCount} + 1`, lastRecalledAt: now })
        .where(
          inArray(
            memories.id,
            matches.map((m) => m.id),
          ),
        )
    }
    return { memories: matches }
  })
}

async function embedQuery(deps: Pick<Deps, 'database' | 'db' | 'embeddings' | 'logger' | 'now'>, text: string): Promise<number[]> {
  try {
    const [vector] = await deps.embeddings.embed([text], { signal: AbortSignal.timeout(QUERY_TIMEOUT_MS) })
    return vector!
  } catch (err) {
    const error = err instanceof EmbeddingError ? err : new EmbeddingError('unavailable', String(err))
    if (error.kind === 'input') throw memoryErrors.queryRejected(error.message)
    deps.logger.warn('embedding service unavailable', { model: deps.embeddings.model, error: error.message })
    throw memoryErrors.embeddingUnavailable(error.message)
  }
}
