import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { personaError } from './errors'
import { pageOf, type PageParams } from '../../platform/paging'
import type { PublicProfile } from '../auth/service'
import { personas } from './schema'
import { constant } from '../../platform/db'

type PersonaRow = typeof personas.$inferSelect

/** What public reads need from the auth and registry areas (wired in app.ts). */
export interface PublicSources {
  publicProfiles(where: { ids: string[] } | { slug: string }): Promise<PublicProfile[]>
  findEcosystem(idOrRdid: string): Promise<{ id: string } | null>
}

const PROFILE_PERSONAS = 100

const ownerView = (p: PublicProfile | undefined) => (p ? { slug: p.slug, displayName: p.name || null, avatarUrl: p.avatarUrl || null } : null)

const summaryView = (p: PersonaRow, owner: PublicProfile | undefined) => ({
  slug: p.slug,
  name: p.name,
  description: p.description,
  visibility: 'public' as const,
  createdAt: p.createdAt.toISOString(),
  owner: ownerView(owner),
  ecosystemId: p.ecosystemId,
})

/**
 * Reads anyone may make, without credentials. Only `public` personas are listed; `unlisted` ones
 * are readable by slug; `private` ones never appear. Service settings never appear.
 */
export class PublicPersonas {
  constructor(
    private readonly deps: Pick<Deps, 'db'>,
    private readonly sources: PublicSources,
  ) {}

  async list(query: { ecosystem?: string }, page: PageParams) {
    const scope = await this.scope(query.ecosystem)
    const where = and(eq(personas.visibility, constant('public')), scope)
    const [rows, [count]] = await Promise.all([
      this.deps.db.select().from(personas).where(where).orderBy(desc(personas.createdAt), desc(personas.id)).limit(page.pageSize).offset(page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(personas).where(where),
    ])
    const owners = await this.owners(rows)
    return pageOf(
      rows.map((p) => summaryView(p, owners.get(p.createdBy ?? ''))),
      count!.n,
      page,
    )
  }

  /** A slug names one persona per ecosystem; without `ecosystem` it must be unique among readable personas. */
  async get(slug: string, ecosystem?: string) {
    const scope = await this.scope(ecosystem)
    const rows = await this.deps.db
      .select()
      .from(personas)
      .where(and(eq(personas.slug, slug), inArray(personas.visibility, ['public', 'unlisted']), scope))
      .limit(2)
    if (rows.length === 0) throw personaError(404, 'not_found', 'No public persona with this slug')
    if (rows.length > 1) {
      throw personaError(409, 'ambiguous_slug', 'Several ecosystems have a persona with this slug; name one with ?ecosystem=<id or rdid>')
    }
    const p = rows[0]!
    const owners = await this.owners(rows)
    return {
      slug: p.slug,
      name: p.name,
      description: p.description,
      modelPrompt: p.modelPrompt,
      voice: p.voice,
      character: p.character,
      examples: p.examples,
      visibility: p.visibility as 'public' | 'unlisted',
      createdAt: p.createdAt.toISOString(),
      owner: ownerView(owners.get(p.createdBy ?? '')),
      ecosystemId: p.ecosystemId,
    }
  }

  async user(slug: string) {
    const [profile] = await this.sources.publicProfiles({ slug })
    if (!profile) throw personaError(404, 'not_found', 'No user with this slug')
    const rows = await this.deps.db
      .select()
      .from(personas)
      .where(and(eq(personas.createdBy, profile.id), eq(personas.visibility, constant('public'))))
      .orderBy(desc(personas.createdAt), desc(personas.id))
      .limit(PROFILE_PERSONAS)
    return {
      ...ownerView(profile)!,
      createdAt: profile.createdAt.toISOString(),
      personas: rows.map((p) => summaryView(p, profile)),
    }
  }

  private async scope(ecosystem: string | undefined): Promise<SQL | undefined> {
    if (ecosystem === undefined) return undefined
    const found = await this.sources.findEcosystem(ecosystem)
    if (!found) throw personaError(404, 'not_found', 'No such ecosystem')
    return eq(personas.ecosystemId, found.id)
  }

  private async owners(rows: PersonaRow[]): Promise<Map<string, PublicProfile>> {
    const ids = [...new Set(rows.flatMap((p) => (p.createdBy ? [p.createdBy] : [])))]
    const profiles = await this.sources.publicProfiles({ ids })
    return new Map(profiles.map((p) => [p.id, p]))
  }
}
