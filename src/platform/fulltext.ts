import { type SQL, sql } from 'drizzle-orm'
import { customType } from 'drizzle-orm/pg-core'

/**
 * Full-text search on PostgreSQL's own text search (works the same on PGlite and PostgreSQL).
 *
 * One configuration for every language: `simple` lowercases words and keeps them as they are (no
 * stemming, no stop words), and every query word matches as a prefix, so "recipe" finds
 * "recipes" and "Straße" finds "straße". Areas store a generated `tsvector` column (see
 * `searchVector`) with a GIN index, and query it with `matches` / `rank` / `snippet`.
 */
export const SEARCH_CONFIG = 'simple'

/** Text beyond this many characters is not indexed (a tsvector holds at most 1 MB). */
export const INDEXED_CHARS = 100_000

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/** The generated-column expression indexing `column` (a column name of the same table). */
export const searchVector = (column: string): SQL => sql.raw(`to_tsvector('${SEARCH_CONFIG}', left("${column}", ${INDEXED_CHARS}))`)

/**
 * The caller's words as a tsquery: PostgreSQL's own parser splits them (so "e-mail" and
 * "bob@example.com" split as they do when indexed), and each lexeme is quoted and matched as a
 * prefix, AND-ed. Operators in the input are plain text, never syntax. No searchable word → NULL,
 * which matches nothing.
 */
export const prefixQuery = (text: string): SQL => sql`(
  select to_tsquery(${SEARCH_CONFIG}::regconfig, string_agg('''' || replace(replace(lexeme, '\\', '\\\\'), '''', '''''') || ''':*', ' & '))
  from unnest(tsvector_to_array(to_tsvector(${SEARCH_CONFIG}::regconfig, ${text}))) as lexeme
)`

/** Whether `vector` (a tsvector column) matches `query` (a `prefixQuery`). */
export const matches = (vector: SQL | unknown, query: SQL): SQL => sql`${vector} @@ ${query}`

/** Relevance of a match: cover density (words close together rank higher), normalised by length. */
export const rank = (vector: SQL | unknown, query: SQL): SQL<number> => sql<number>`ts_rank_cd(${vector}, ${query}, 1)`

/** A plain-text excerpt around the matched words: no markup, at most about 30 words. */
export const snippet = (text: SQL | unknown, query: SQL): SQL<string> =>
  sql<string>`ts_headline(${SEARCH_CONFIG}::regconfig, left(${text}, ${INDEXED_CHARS}), ${query}, 'StartSel="",StopSel="",MaxFragments=1,MaxWords=30,MinWords=12,ShortWord=2')`
