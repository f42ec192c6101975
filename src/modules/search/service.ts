import { eq, type SQL, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { queryRows } from '../../platform/db'
import { type SearchLanguage, type SearchShape, type SearchSource, searchBoxQuery } from '../../platform/fulltext'
import { pageOf, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import { ChatMessageSearch, type ConversationSearch } from '../chat/service'
import type { PersonaService } from '../persona/service'
import { conversationSearchFor } from './chat-tools'
import { searchSettings } from './schema'

/**
 * At most this many matches, the newest, are ranked and counted (`total` is then this number): past
 * it, add words to narrow the search (25 pages of 20). Finding them costs in proportion: a query the
 * index cannot answer alone (a phrase, an exclusion, a short prefix) checks rows newest first until
 * it has this many; 500 keeps those within 20 ms p95 at 1M rows (bench/README.md, P6b).
 */
export const SEARCH_BOX_CANDIDATES = 500

/** The search area: chat messages, the search box, and both as chat's tools. */
export class SearchService {
  /** Chat messages, the caller's own. */
  readonly messages: ChatMessageSearch
  /** The search box over every module's declared sources. */
  readonly box: SearchBox
  /** Search as chat's tools. */
  readonly chatTools: ConversationSearch

  constructor(deps: Pick<Deps, 'db' | 'now'>, sources: readonly SearchSource[], personas: Pick<PersonaService['personas'], 'searchesCommunity'>) {
    this.messages = new ChatMessageSearch(deps)
    this.box = new SearchBox(deps, sources)
    this.chatTools = conversationSearchFor(this.messages, this.box, personas)
  }
}

/**
 * Search-box search (`searchBoxQuery`) of the resources modules contribute through their manifests'
 * `search` (community threads and replies, document blocks, notes; each source says which rows a
 * tenant may find), best match first, then newest. One statement per page: the matching rows with
 * their rank and the count.
 */
export class SearchBox {
  private readonly sources: Map<string, SearchSource>

  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    sources: readonly SearchSource[],
  ) {
    this.sources = new Map(sources.map((source) => [source.name, source]))
  }

  /** The language a search uses: the one asked for, else the ecosystem's default, else `english`. */
  async language(tenant: Pick<Tenant, 'ecosystemId'>, asked?: SearchLanguage): Promise<SearchLanguage> {
    if (asked) return asked
    return (await this.settings(tenant)).language
  }

  async settings(tenant: Pick<Tenant, 'ecosystemId'>): Promise<{ language: SearchLanguage }> {
    const [row] = await this.deps.db
      .select({ language: searchSettings.language })
      .from(searchSettings)
      .where(eq(searchSettings.ecosystemId, tenant.ecosystemId))
    return { language: row?.language ?? 'english' }
  }

  async saveSettings(tenant: Tenant, settings: { language: SearchLanguage }): Promise<{ language: SearchLanguage }> {
    const values = { ecosystemId: tenant.ecosystemId, language: settings.language, updatedAt: this.deps.now() }
    await this.deps.db.insert(searchSettings).values(values).onConflictDoUpdate({ target: searchSettings.ecosystemId, set: values })
    return { language: settings.language }
  }

  /** Searches the resource a module contributed under `name` (threads, replies, documents, notes, …). */
  async find<View>(name: string, tenant: Tenant, q: string, language: SearchLanguage, page: PageParams) {
    const source = this.sources.get(name)
    if (!source) throw new Error(`no module contributes the search source ${name}`)
    return this.run(q, language, page, (query) => source.shape(tenant, query) as SearchShape<View>)
  }

  private async run<T>(q: string, language: SearchLanguage, page: PageParams, shape: (query: SQL) => SearchShape<T>) {
    const tsquery = searchBoxQuery(q, language)
    if (!tsquery) return pageOf([] as (T & { rank: number })[], 0, page)
    const s = shape(tsquery)
    // The newest matches, ranked (see SEARCH_BOX_CANDIDATES). The query is written out, not taken
    // from a CTE, so PostgreSQL plans it as the constant it is and its statistics tell a rare word
    // (read the GIN index) from a common one (walk the newest rows and stop at the limit).
    const hits = sql`with hits as materialized (
            select ${s.select}, ${s.vector} as vector, ${s.created} as matched_at from ${s.from}
            where ${s.where} and ${s.vector} @@ ${tsquery}
            order by ${s.created} desc limit ${SEARCH_BOX_CANDIDATES})`
    const rows = await queryRows<Record<string, unknown>>(
      this.deps.db,
      sql`${hits}
          select hits.*, ts_rank_cd(hits.vector, ${tsquery}, 1) as rank, count(*) over () as total ${s.late ?? sql``}
          from hits
          order by rank desc, hits.matched_at desc
          limit ${page.pageSize} offset ${page.offset}`,
    )
    const total = rows[0]
      ? Number(rows[0].total)
      : page.offset === 0
        ? 0
        : (await queryRows<{ n: number }>(this.deps.db, sql`${hits} select count(*)::int as n from hits`))[0]!.n
    return pageOf(
      rows.map((r) => ({ ...s.view(r), rank: Number(r.rank) })),
      total,
      page,
    )
  }
}
