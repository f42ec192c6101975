import { desc, type SQL, sql } from 'drizzle-orm'
import { QueryBuilder } from 'drizzle-orm/pg-core'
import { type Database, type Db, queryRows } from '../../platform/db'
import { lockInTransaction } from '../../platform/db/locks'
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
 * A denser graph than pgvector's defaults (m 16, ef_construction 64): at 100,000 memories of a
 * persona it keeps recall@10 above 0.95 at ef_search 200, for an index build (and inserts) about
 * 2.5× slower; see bench/README.md (P5).
 */
const HNSW_OPTIONS = ['m=24', 'ef_construction=128']
export const CREATE_HNSW_INDEX = `create index if not exists ${HNSW_INDEX} on persona_memory.memories using hnsw (embedding vector_cosine_ops) with (${HNSW_OPTIONS.join(', ')})`

/**
 * Makes the column fit the database and EMBEDDING_DIMENSIONS; idempotent, run at boot right after
 * the migrations. Vectors of another size are cleared (with their model), so the backfill
 * re-embeds them.
 */
export async function prepareMemoryVectors(database: Database, dimensions: number): Promise<void> {
  const size = Math.trunc(dimensions)
  const wanted = `vector(${size})`
  const indexCurrent = (options: string[] | null) => String(options) === String(HNSW_OPTIONS)
  // Nearly every start finds both as they should be: one read, no transaction, no lock.
  if (database.vector) {
    const found = await vectorState(database.db)
    if (found.type === wanted && indexCurrent(found.options)) return
  }
  await database.db.transaction(async (tx) => {
    await lockInTransaction(tx, LOCK)
    if (!database.vector) {
      await tx.execute(sql`update ${memories} set embedding = null, embedding_model = null where cardinality(embedding) <> ${size}`)
      return
    }
    const found = await vectorState(tx)
    if (found.type !== wanted) {
      const keep = found.type === 'real[]' ? `case when cardinality(embedding) = ${size} then embedding::${wanted} end` : 'null'
      await tx.execute(sql.raw(`alter table persona_memory.memories alter column embedding type ${wanted} using ${keep}`))
      await tx.execute(sql`update ${memories} set embedding_model = null where embedding is null and embedding_model is not null`)
    }
    // An index built with other graph options (before they were set) is built again with these.
    if (!indexCurrent(found.options)) await tx.execute(sql.raw(`drop index if exists persona_memory.${HNSW_INDEX}`))
    await tx.execute(sql.raw(CREATE_HNSW_INDEX))
  })
}

/** The embedding column's type, and the HNSW index's options (null: no index, or one built without options). */
async function vectorState(db: Db): Promise<{ type: string | undefined; options: string[] | null }> {
  const [found] = await queryRows<{ type: string; options: string[] | null }>(
    db,
    sql`select format_type(a.atttypid, a.atttypmod) as type,
          (select reloptions from pg_class where relname = ${HNSW_INDEX} and relnamespace = 'persona_memory'::regnamespace) as options
        from pg_attribute a where a.attrelid = 'persona_memory.memories'::regclass and a.attname = 'embedding'`,
  )
  return { type: found?.type, options: found?.options ?? null }
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
