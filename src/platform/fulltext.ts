import { type SQL, sql } from 'drizzle-orm'
import { customType } from 'drizzle-orm/pg-core'

/**
 * Full-text search on PostgreSQL's own text search (works the same on PGlite and PostgreSQL).
 *
 * One configuration for every language: `simple` lowercases words and keeps them as they are (no
 * stemming, no stop words), and every query word matches as a prefix, so "recipe" finds
 * "recipes" and "Straße" finds "straße". Areas store a generated `tsvector` column (see
 * `searchVector`) with a GIN index, and query it with `lexemesOf` / `prefixQuery` / `matches` / `rank` / `snippet`.
 */
export const SEARCH_CONFIG = 'simple'

/** Text beyond this many characters is not indexed (a tsvector holds at most 1 MB). */
export const INDEXED_CHARS = 100_000

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' })

/**
 * The generated-column expression indexing `columns` (names of the same table), joined by a space.
 * `||` with coalesce rather than concat_ws, which PostgreSQL does not count as immutable.
 */
export const searchVector = (...columns: [string, ...string[]]): SQL => {
  const text = columns.length === 1 ? `"${columns[0]}"` : columns.map((c) => `coalesce("${c}", '')`).join(` || ' ' || `)
  return sql.raw(`to_tsvector('${SEARCH_CONFIG}', left(${text}, ${INDEXED_CHARS}))`)
}

// A literal: a constant when PostgreSQL plans the statement.
const CONFIG = sql.raw(`'${SEARCH_CONFIG}'::regconfig`)

/**
 * Selects the words of `text` as PostgreSQL's own parser splits them when indexing (so "e-mail"
 * and "bob@example.com" split alike), one `lexeme` a row: pass them to `prefixQuery`.
 */
export const lexemesOf = (text: string): SQL => sql`select unnest(tsvector_to_array(to_tsvector(${CONFIG}, ${text}))) as lexeme`

/** A query's words as tsqueries (see `prefixQuery`). */
export interface PrefixQuery {
  /** Every word. */
  all: SQL
  /** The longest word alone: the one `matches` looks up in the GIN index. */
  longest: SQL
}

/**
 * The caller's words (`lexemesOf`) as a tsquery: each lexeme quoted and matched as a prefix, AND-ed,
 * so operators in the input are plain text, never syntax; no lexeme → null, which matches nothing.
 * It is a constant when the statement is planned (a bound parameter through immutable functions;
 * built in a subquery it would not be), so PostgreSQL's statistics tell common words from rare
 * ones: the GIN index for a rare word, the caller's own rows for a common one.
 */
export function prefixQuery(lexemes: string[]): PrefixQuery | null {
  if (lexemes.length === 0) return null
  const term = (lexeme: string) => `'${lexeme.replaceAll('\\', '\\\\').replaceAll("'", "''")}':*`
  const longest = lexemes.reduce((a, b) => (b.length > a.length ? b : a))
  return { all: sql`to_tsquery(${CONFIG}, ${lexemes.map(term).join(' & ')})`, longest: sql`to_tsquery(${CONFIG}, ${term(longest)})` }
}

/**
 * Whether `vector` (a tsvector column) matches every word of `query`. `indexed`: the longest word is
 * an index condition and the others are checked on the rows it finds; otherwise no word is, for
 * rows a narrower index finds (`ts_match_vq` is `@@` as a plain function, which the planner does
 * not match to an index). A GIN scan reads the row numbers of every lexeme a prefix matches in the
 * whole table: for a short or common word that is a large share of it, a cost the planner, which
 * would combine all `@@` conditions into one scan, underestimates.
 */
export const matches = (vector: SQL | unknown, query: PrefixQuery, indexed: boolean): SQL =>
  indexed ? sql`${vector} @@ ${query.longest} and ts_match_vq(${vector}, ${query.all})` : sql`ts_match_vq(${vector}, ${query.all})`

/** Relevance of a match: cover density (words close together rank higher), normalised by length. */
export const rank = (vector: SQL | unknown, query: PrefixQuery): SQL<number> => sql<number>`ts_rank_cd(${vector}, ${query.all}, 1)`

/** A plain-text excerpt around the matched words: no markup, at most about 30 words. */
export const snippet = (text: SQL | unknown, query: PrefixQuery): SQL<string> =>
  sql<string>`ts_headline(${CONFIG}, left(${text}, ${INDEXED_CHARS}), ${query.all}, 'StartSel="",StopSel="",MaxFragments=1,MaxWords=30,MinWords=12,ShortWord=2')`
