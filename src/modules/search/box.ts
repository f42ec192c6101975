import { and, eq, isNull, type SQL, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { isAdmin } from '../../platform/crud/resource'
import { queryRows } from '../../platform/db'
import { INDEXED_CHARS, type SearchLanguage, searchBoxQuery } from '../../platform/fulltext'
import { pageOf, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import { replies, threads } from '../community/schema'
import { documentBlocks, documents } from '../data/schema'
import { notes } from '../userdata/schema'
import { searchSettings } from './schema'

/**
 * At most this many matches, the newest, are ranked and counted (`total` is then this number): past
 * it, add words to narrow the search (25 pages of 20). Finding them costs in proportion: a query the
 * index cannot answer alone (a phrase, an exclusion, a short prefix) checks rows newest first until
 * it has this many; 500 keeps those within 20 ms p95 at 1M rows (bench/README.md, P6b).
 */
export const SEARCH_BOX_CANDIDATES = 500

/** A plain-text excerpt around the matches: no markup (tags in the text become spaces), about 30 words. */
const excerpt = (text: SQL, query: SQL) =>
  sql<string>`btrim(regexp_replace(ts_headline('english', left(${text}, ${INDEXED_CHARS}), ${query}, 'StartSel="",StopSel="",MaxFragments=1,MaxWords=30,MinWords=12,ShortWord=2'), '[[:space:]]+', ' ', 'g'))`
const iso = (value: unknown) => new Date(value as string).toISOString()

/**
 * Search-box search (`searchBoxQuery`) of community threads and replies (the ecosystem's), document
 * blocks and notes (the caller's own; ecosystem admins: the ecosystem's), best match first, then
 * newest. One statement per page: the matching rows with their rank and the count.
 */
export class SearchBox {
  constructor(private readonly deps: Pick<Deps, 'db' | 'now'>) {}

  /** The language a search uses: the one asked for, else the ecosystem's default, else `english`. */
  async language(tenant: Pick<Tenant, 'ecosystemId'>, asked?: SearchLanguage): Promise<SearchLanguage> {
    if (asked) return asked
    return (await this.settings(tenant)).language
  }

  async settings(tenant: Pick<Tenant, 'ecosystemId'>): Promise<{ language: SearchLanguage }> {
    const [row] = await this.deps.db.select({ language: searchSettings.language }).from(searchSettings).where(eq(searchSettings.ecosystemId, tenant.ecosystemId))
    return { language: row?.language ?? 'english' }
  }

  async saveSettings(tenant: Tenant, settings: { language: SearchLanguage }): Promise<{ language: SearchLanguage }> {
    const values = { ecosystemId: tenant.ecosystemId, language: settings.language, updatedAt: this.deps.now() }
    await this.deps.db.insert(searchSettings).values(values).onConflictDoUpdate({ target: searchSettings.ecosystemId, set: values })
    return { language: settings.language }
  }

  async threads(tenant: Pick<Tenant, 'ecosystemId'>, q: string, language: SearchLanguage, page: PageParams) {
    return this.run(q, language, page, (query) => ({
      from: sql`${threads}`,
      where: and(eq(threads.ownerId, tenant.ecosystemId), isNull(threads.deletedAt))!,
      vector: sql`${threads.search}`,
      select: sql`${threads.id} as id, ${threads.title} as title, ${threads.body} as body, ${threads.customerId} as author_id, ${threads.categoryId} as category_id, ${threads.createdAt} as created_at`,
      created: sql`${threads.createdAt}`,
      view: (r: Record<string, unknown>) => ({ id: r.id as string, title: r.title as string, body: r.body as string, authorId: r.author_id as string, categoryId: r.category_id as string, createdAt: iso(r.created_at) }),
      query,
    }))
  }

  async replies(tenant: Tenant, q: string, language: SearchLanguage, page: PageParams) {
    return this.run(q, language, page, (query) => ({
      from: sql`${replies} join ${threads} on ${threads.id} = ${replies.threadId}`,
      where: and(eq(replies.ownerId, tenant.ecosystemId), isNull(replies.deletedAt), isNull(threads.deletedAt))!,
      vector: sql`${replies.search}`,
      select: sql`${replies.id} as id, ${replies.threadId} as thread_id, ${replies.body} as body, ${replies.customerId} as author_id, ${replies.createdAt} as created_at`,
      created: sql`${replies.createdAt}`,
      view: (r: Record<string, unknown>) => ({ id: r.id as string, threadId: r.thread_id as string, body: r.body as string, authorId: r.author_id as string, createdAt: iso(r.created_at) }),
      query,
    }))
  }

  async documents(tenant: Tenant, q: string, language: SearchLanguage, page: PageParams) {
    const own = isAdmin(tenant) ? undefined : eq(documents.customerId, tenant.customerId)
    return this.run(q, language, page, (query) => ({
      from: sql`${documentBlocks} join ${documents} on ${documents.id} = ${documentBlocks.documentId}`,
      where: and(eq(documentBlocks.ownerId, tenant.ecosystemId), eq(documents.ownerId, tenant.ecosystemId), isNull(documents.deletedAt), own)!,
      vector: sql`${documentBlocks.search}`,
      select: sql`${documentBlocks.id} as block_id, ${documentBlocks.documentId} as document_id, ${documentBlocks.blockType} as block_type, ${documentBlocks.position} as position, ${documentBlocks.content} as content`,
      late: sql`, ${excerpt(sql`hits.content`, query)} as snippet`,
      created: sql`${documentBlocks.createdAt}`,
      view: (r: Record<string, unknown>) => ({ blockId: r.block_id as string, documentId: r.document_id as string, blockType: r.block_type as string, position: r.position as string, snippet: r.snippet as string }),
      query,
    }))
  }

  async notes(tenant: Tenant, q: string, language: SearchLanguage, page: PageParams) {
    return this.run(q, language, page, (query) => ({
      from: sql`${notes}`,
      where: and(eq(notes.ownerId, tenant.ecosystemId), eq(notes.customerId, tenant.customerId), isNull(notes.deletedAt))!,
      vector: sql`${notes.search}`,
      select: sql`${notes.id} as id, ${notes.customerId} as customer_id, ${notes.ownerId} as owner_id, ${notes.title} as title, ${notes.body} as body, ${notes.occurredAt} as occurred_at, ${notes.createdAt} as created_at, ${notes.updatedAt} as updated_at, ${notes.deletedAt} as deleted_at, ${notes.subjectTable} as subject_table, ${notes.subjectId} as subject_id`,
      created: sql`${notes.occurredAt}`,
      view: (r: Record<string, unknown>) => ({
        id: r.id as string,
        customerId: r.customer_id as string,
        ownerId: r.owner_id as string,
        title: r.title as string,
        body: r.body as string,
        occurredAt: iso(r.occurred_at),
        createdAt: iso(r.created_at),
        updatedAt: iso(r.updated_at),
        deletedAt: null,
        subjectTable: (r.subject_table as string | null) ?? null,
        subjectId: (r.subject_id as string | null) ?? null,
      }),
      query,
    }))
  }

  private async run<T>(
    q: string,
    language: SearchLanguage,
    page: PageParams,
    shape: (query: SQL) => { from: SQL; where: SQL; vector: SQL; select: SQL; late?: SQL; created: SQL; view: (r: Record<string, unknown>) => T; query: SQL },
  ) {
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
    const total = rows[0] ? Number(rows[0].total) : page.offset === 0 ? 0 : (await queryRows<{ n: number }>(this.deps.db, sql`${hits} select count(*)::int as n from hits`))[0]!.n
    return pageOf(rows.map((r) => ({ ...s.view(r), rank: Number(r.rank) })), total, page)
  }

}
