import { desc, type SQL, sql } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/pg-core'
import { queryRows, type Database } from '../../platform/db'
import { memories } from './schema'

/**
 * How embeddings are stored and compared. drizzle-kit migrations are the same SQL for every
 * database, so they create `embedding real[]`. Where pgvector exists (PGlite; PostgreSQL with the
 * extension) prepareMemoryVectors turns the column into `vector(N)` with an HNSW cosine index;
 * elsewhere recall scans the persona's rows exactly. Vectors are written as `real[]` either way
 * (pgvector casts on assignment), are unit length, and rank the same on both.
 */

const LOCK = 'persona_memory:vectors'
export const HNSW_INDEX = 'memories_embedding_hnsw'

/**
 * Makes the column fit the database and EMBEDDING_DIMENSIONS; idempotent, run at boot right after
 * the migrations. Vectors of another size are cleared (with their model), so the backfill
 * re-embeds them.
 */
export async function prepareMemoryVectors(database: Database, dimensions: number): Promise<void> {
  const size = Math.trunc(dimensions)
  await database.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${LOCK}))`)
    if (!database.vector) {
      await tx.execute(sql`update ${memories} set embedding = null, embedding_model = null where cardinality(embedding) <> ${size}`)
      return
    }
    const [column] = await queryRows<{ type: string }>(
      tx,
      sql`select format_type(atttypid, atttypmod) as type from pg_attribute where attrelid = 'persona_memory.memories'::regclass and attname = 'embedding'`,
    )
    const wanted = `vector(${size})`
    if (column?.type !== wanted) {
      const keep = column?.type === 'real[]' ? `case when cardinality(embedding) = ${size} then embedding::${wanted} end` : 'null'
      await tx.execute(sql.raw(`alter table persona_memory.memories alter column embedding type ${wanted} using ${keep}`))
      await tx.execute(sql`update ${memories} set embedding_model = null where embedding is null and embedding_model is not null`)
    }
    await tx.execute(sql.raw(`create index if not exists ${HNSW_INDEX} on persona_memory.memories using hnsw (embedding vector_cosine_ops)`))
  })
}

/** A vector as a `real[]` value. */
export function realArray(v: number[]): SQL {
  return sql`${`{${v.join(',')}}`}::real[]`
}

/**
 * Cosine similarity to `query` (unit vectors) and the ORDER BY that ranks by it, best first:
 * pgvector's distance operator (which its HNSW index answers), or a dot product over `real[]`
 * computed in a LATERAL subquery (about twice as fast as a scalar subquery per row).
 */
export function similarityTo(vector: boolean, query: number[]) {
  const q = realArray(query)
  if (vector) {
    const distance = sql`${memories.embedding} <=> ${q}::vector`
    return { similarity: sql<number>`1 - (${distance})`, order: [distance], lateral: null }
  }
  const lateral = new QueryBuilder()
    .select({ similarity: sql<number>`sum(a * b)`.as('similarity') })
    .from(sql`unnest(${memories.embedding}, ${q}) as v(a, b)`)
    .as('dot')
  return { similarity: lateral.similarity, order: [desc(lateral.similarity), desc(memories.createdAt)], lateral }
}
