import { type SQL, sql } from 'drizzle-orm'
import { customType } from 'drizzle-orm/pg-core'
import type { Tenant } from './tenancy'

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

/**
 * The generated-column expression for search-box search (`searchBoxQuery`): the text indexed twice,
 * as written (`simple`: every language, prefixes) and stemmed for English (`running` → `run`).
 */
export const searchBoxVector = (...columns: [string, ...string[]]): SQL => {
  const text = columns.length === 1 ? `"${columns[0]}"` : columns.map((c) => `coalesce("${c}", '')`).join(` || ' ' || `)
  return sql.raw(`to_tsvector('simple', left(${text}, ${INDEXED_CHARS})) || to_tsvector('english', left(${text}, ${INDEXED_CHARS}))`)
}

export type SearchLanguage = 'english' | 'simple'

/**
 * What people type into a search box, as a tsquery for a `searchBoxVector` column: words (all must
 * occur), "quoted phrases", `OR`, `-excluded`; the last plain word also matches as a prefix, so
 * results appear while typing. PostgreSQL's websearch_to_tsquery reads the syntax and never fails:
 * bad syntax degrades to plain words. `english` also matches English stems; `simple` only the
 * words as written. Null when nothing searchable is left.
 */
export function searchBoxQuery(text: string, language: SearchLanguage): SQL | null {
  // An unclosed quote is taken as plain words, not as a phrase running to the end.
  const quotes = text.split('"').length - 1
  const trimmed = (quotes % 2 ? text.slice(0, text.lastIndexOf('"')) + text.slice(text.lastIndexOf('"') + 1) : text).trim()
  if (!trimmed) return null
  const last = /(^|\s)([^\s"()-][^\s"()]*)$/.exec(trimmed)
  const quotesBefore = last ? (trimmed.slice(0, last.index).match(/"/g)?.length ?? 0) : 1
  const beforeLast = last ? trimmed.slice(0, last.index).trim() : ''
  const prefixable = last && quotesBefore % 2 === 0 && last[2] !== 'OR' && !/(^|\s)OR$/.test(beforeLast)
  const rest = prefixable ? beforeLast : trimmed
  const stems = prefixable
    ? last[2]!
        .toLowerCase()
        .split(/[^\p{L}\p{N}]+/u)
        .filter(Boolean)
    : []
  const one = (config: SearchLanguage) => {
    const config_ = sql.raw(`'${config}'::regconfig`)
    const prefix = stems.length ? sql` && to_tsquery(${config_}, ${stems.map((s) => `'${s}':*`).join(' & ')})` : sql``
    return sql`(websearch_to_tsquery(${config_}, ${rest})${prefix})`
  }
  if (!rest && stems.length === 0) return null
  if (language === 'simple') return one('simple')
  // Both readings, or one when stemming changes nothing (most words): a query twice as long costs
  // twice as much per row checked. All immutable, so PostgreSQL folds it to one constant when planning.
  const [simple, english] = [one('simple'), one('english')]
  return sql`(case when ${simple} = ${english} then ${simple} else ${simple} || ${english} end)`
}

/**
 * One resource the search box searches, as the module that owns its table describes it: the rows
 * the tenant may find (`from` / `where`), their `searchBoxVector` column, the columns to select,
 * the time that orders candidates, and the view of a found row. `late` is selected after ranking,
 * on the page's rows only (an excerpt, say).
 */
export interface SearchShape<View> {
  from: SQL
  where: SQL
  vector: SQL
  select: SQL
  late?: SQL
  created: SQL
  view: (row: Record<string, unknown>) => View
}

/** What a module contributes to search (its manifest's `search`): a named resource and how to search it. */
export interface SearchSource<View = unknown> {
  name: string
  shape(tenant: Tenant, query: SQL): SearchShape<View>
}

/** A plain-text excerpt around the matches: no markup (tags in the text become spaces), about 30 words. */
export const searchExcerpt = (text: SQL, query: SQL) =>
  sql<string>`btrim(regexp_replace(ts_headline('english', left(${text}, ${INDEXED_CHARS}), ${query}, 'StartSel="",StopSel="",MaxFragments=1,MaxWords=30,MinWords=12,ShortWord=2'), '[[:space:]]+', ' ', 'g'))`
