import type { EventBus } from '../../platform/events'
import { personaDeleted } from './events'
import { and, desc, eq } from 'drizzle-orm'
import type { Deps } from '../../deps'
import { type Db, isUniqueViolation } from '../../platform/db'
import { personaError } from './errors'
import { listPage, type PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import type { ModelServices } from './model-services'
import { personas, type Visibility } from './schema'

type PersonaRow = typeof personas.$inferSelect

export interface PersonaInput {
  slug: string
  name: string
  description: string | null
  modelPrompt: string
  voice: string | null
  character: string | null
  examples: string | null
  visibility: Visibility
  serviceId: string | null
  model: string | null
  searchCommunity: boolean
}

/** What a chat turn needs of a persona. */
export interface ChatPersona {
  id: string
  systemPrompt: string
  serviceId: string | null
  model: string | null
}

const notFound = () => personaError(404, 'not_found', 'No such persona in this ecosystem')

export const personaView = (p: PersonaRow) => ({
  id: p.id,
  slug: p.slug,
  name: p.name,
  description: p.description,
  modelPrompt: p.modelPrompt,
  voice: p.voice,
  character: p.character,
  examples: p.examples,
  visibility: p.visibility,
  serviceId: p.serviceId,
  model: p.model,
  searchCommunity: p.searchCommunity,
  createdBy: p.createdBy,
  createdAt: p.createdAt.toISOString(),
  updatedAt: p.updatedAt.toISOString(),
})

/** The system prompt: the persona's prompt, then its character, voice and examples when set. */
export function systemPrompt(p: Pick<PersonaRow, 'modelPrompt' | 'character' | 'voice' | 'examples'>): string {
  const parts = [p.modelPrompt.trim()]
  if (p.character) parts.push(`Character: ${p.character}`)
  if (p.voice) parts.push(`Voice: ${p.voice}`)
  if (p.examples) parts.push(`Examples:\n${p.examples}`)
  return parts.filter(Boolean).join('\n\n')
}

/** Personas of an ecosystem: managed by its admins, read by its members, used by chat and persona memory. */
export class Personas {
  constructor(
    private readonly deps: Pick<Deps, 'db' | 'now'>,
    private readonly services: ModelServices,
    private readonly events: Pick<EventBus, 'emit'>,
  ) {}

  async list(tenant: Tenant, page: PageParams) {
    const where = eq(personas.ecosystemId, tenant.ecosystemId)
    return listPage(this.deps.db, personas, where, [desc(personas.createdAt), desc(personas.id)], page, personaView)
  }

  async get(tenant: Tenant, id: string) {
    const [row] = await this.deps.db
      .select()
      .from(personas)
      .where(and(eq(personas.id, id), eq(personas.ecosystemId, tenant.ecosystemId)))
    if (!row) throw notFound()
    return personaView(row)
  }

  async create(tenant: Tenant, input: Pick<PersonaInput, 'slug' | 'name'> & Partial<PersonaInput>) {
    await this.checkService(tenant, input.serviceId)
    return this.write(async () => {
      const [row] = await this.deps.db
        .insert(personas)
        .values({ ...input, ecosystemId: tenant.ecosystemId, createdBy: tenant.actor.kind === 'user' ? tenant.actor.userId : null })
        .returning()
      return row!
    })
  }

  async update(tenant: Tenant, id: string, patch: Partial<PersonaInput>) {
    await this.checkService(tenant, patch.serviceId)
    return this.write(async () => {
      const [row] = await this.deps.db
        .update(personas)
        .set({ ...patch, updatedAt: this.deps.now() })
        .where(and(eq(personas.id, id), eq(personas.ecosystemId, tenant.ecosystemId)))
        .returning()
      if (!row) throw notFound()
      return row
    })
  }

  /** Deletes the persona and, in the same transaction, what subscribers of `persona.persona.deleted` attach to it. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const deleted = await tx
        .delete(personas)
        .where(and(eq(personas.id, id), eq(personas.ecosystemId, tenant.ecosystemId)))
        .returning({ id: personas.id })
      if (!deleted[0]) throw notFound()
      await this.events.emit(tx, personaDeleted, tenant.ecosystemId, { id })
    })
  }

  /**
   * Whether `id` names a persona of the ecosystem. Inside a transaction (`db`) a found persona also
   * stays undeletable until that transaction ends (FOR KEY SHARE): a delete waits for it, then its
   * `persona.persona.deleted` subscribers see what the transaction wrote for the persona.
   */
  async exists(ecosystemId: string, id: string, db: Db = this.deps.db): Promise<boolean> {
    const [row] = await db
      .select({ id: personas.id })
      .from(personas)
      .where(and(eq(personas.id, id), eq(personas.ecosystemId, ecosystemId)))
      .for('key share')
    return Boolean(row)
  }

  /** The ecosystem a persona belongs to, whatever its visibility; null when there is no such persona. */
  async ecosystemOf(id: string): Promise<string | null> {
    const [row] = await this.deps.db.select({ ecosystemId: personas.ecosystemId }).from(personas).where(eq(personas.id, id))
    return row?.ecosystemId ?? null
  }

  /** Whether chat's `search` tool may search the community threads when talking as this persona. */
  async searchesCommunity(ecosystemId: string, id: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ allowed: personas.searchCommunity })
      .from(personas)
      .where(and(eq(personas.ecosystemId, ecosystemId), eq(personas.id, id)))
    return row?.allowed ?? false
  }

  /** The persona a conversation names, whatever its visibility (chat happens inside the ecosystem). */
  async forChat(ecosystemId: string, slug: string, db: Db = this.deps.db): Promise<ChatPersona | null> {
    const [row] = await db
      .select()
      .from(personas)
      .where(and(eq(personas.ecosystemId, ecosystemId), eq(personas.slug, slug)))
    return row ? { id: row.id, systemPrompt: systemPrompt(row), serviceId: row.serviceId, model: row.model } : null
  }

  private async checkService(tenant: Tenant, serviceId: string | null | undefined): Promise<void> {
    if (serviceId && !(await this.services.exists(tenant.ecosystemId, serviceId))) {
      throw personaError(404, 'service_not_found', 'serviceId names no persona service of this ecosystem')
    }
  }

  private async write(fn: () => Promise<PersonaRow>) {
    try {
      return personaView(await fn())
    } catch (err) {
      if (isUniqueViolation(err)) throw personaError(409, 'slug_taken', 'Another persona of this ecosystem has this slug')
      throw err
    }
  }
}
