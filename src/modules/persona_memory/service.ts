import type { EventBus } from '../../platform/events'
import { memoryCreated } from './events'
import { and, arrayContains, desc, eq, sql } from 'drizzle-orm'
import type { Deps } from '../../deps'
import type { Db } from '../../platform/db'
import { pageOf, type PageParams } from '../../platform/paging'
import { isAdmin, type Tenant } from '../../platform/tenancy'
import type { PersonaService } from '../persona/service'
import type { MemoryTools } from '../chat/service'
import { memoryToolsFor } from './chat-tools'
import type { AuditService } from '../audit/service'
import { embedAndStore, embedPending, ON_WRITE_TIMEOUT_MS } from './embedding'
import { memoryErrors, rethrowSlugTaken } from './errors'
import { recall, type RecallInput } from './recall'
import { type MEMORY_SCOPES, type MEMORY_SOURCES, type MEMORY_STATUSES, type MEMORY_TYPES, memories } from './schema'
import { memoryColumns, type MemoryRow, memoryView, type MemoryView, visibleTo } from './view'

export interface MemoryFields {
  slug: string
  memoryType: (typeof MEMORY_TYPES)[number]
  description: string
  body: string
  subjectTable?: string | null
  subjectId?: string | null
  source?: (typeof MEMORY_SOURCES)[number]
  confidence?: number
  tags?: string[]
  validFrom?: string | null
  validTo?: string | null
}
export interface MemoryCreateInput extends MemoryFields {
  personaId: string
  scope: (typeof MEMORY_SCOPES)[number]
  supersedesId?: string
}
export interface MemoryFilter {
  personaId?: string
  scope?: (typeof MEMORY_SCOPES)[number]
  status?: (typeof MEMORY_STATUSES)[number]
  memoryType?: (typeof MEMORY_TYPES)[number]
  tag?: string
  subjectTable?: string
  subjectId?: string
}

const instant = (value: string | null | undefined) => (value ? new Date(value) : null)
const distinct = (tags: string[]) => [...new Set(tags)]

function checkValidity(from: Date | null, to: Date | null) {
  if (from && to && to <= from) throw memoryErrors.invalidValidity()
}

/**
 * Persona memories of an ecosystem. Customers (and team members acting as their own customer)
 * see and write their own `user` memories and see the persona's global ones; ecosystem admins also
 * write the global ones. Chat calls `recall` and `create` as tools.
 *
 * A memory's `personaId` names a persona of its ecosystem: create checks it (404
 * `persona_not_found`) and the persona's delete takes its memories with it (`forgetPersona`).
 * Reads filter by ecosystem, so a persona id of another ecosystem only ever matches nothing.
 */
export class PersonaMemoryService {
  /** Memory as chat's `memory_recall` / `memory_save` tools. */
  readonly chatTools: MemoryTools

  constructor(
    private readonly deps: Pick<Deps, 'database' | 'db' | 'embeddings' | 'logger' | 'now'>,
    private readonly personas: Pick<PersonaService['personas'], 'exists'>,
    private readonly events: Pick<EventBus, 'emit'>,
    private readonly audit: AuditService,
  ) {
    this.chatTools = memoryToolsFor(this)
  }

  async list(tenant: Tenant, filter: MemoryFilter, page: PageParams) {
    const where = and(
      visibleTo(tenant),
      filter.personaId ? eq(memories.personaId, filter.personaId) : undefined,
      filter.scope ? eq(memories.scope, filter.scope) : undefined,
      filter.status ? eq(memories.status, filter.status) : undefined,
      filter.memoryType ? eq(memories.memoryType, filter.memoryType) : undefined,
      filter.tag ? arrayContains(memories.tags, [filter.tag]) : undefined,
      filter.subjectTable ? eq(memories.subjectTable, filter.subjectTable) : undefined,
      filter.subjectId ? eq(memories.subjectId, filter.subjectId) : undefined,
    )
    const [rows, [count]] = await Promise.all([
      this.deps.db
        .select(memoryColumns)
        .from(memories)
        .where(where)
        .orderBy(desc(memories.createdAt), desc(memories.id))
        .limit(page.pageSize)
        .offset(page.offset),
      this.deps.db.select({ n: sql<number>`count(*)::int` }).from(memories).where(where),
    ])
    return pageOf(rows.map(memoryView), count!.n, page)
  }

  async get(tenant: Tenant, id: string): Promise<MemoryView> {
    const [row] = await this.deps.db
      .select(memoryColumns)
      .from(memories)
      .where(and(eq(memories.id, id), visibleTo(tenant)))
    if (!row) throw memoryErrors.notFound()
    return memoryView(row)
  }

  /** Creates a memory; with `supersedesId`, the memory it names becomes `superseded` in the same transaction. */
  async create(tenant: Tenant, input: MemoryCreateInput): Promise<MemoryView> {
    const global = input.scope === 'persona'
    if (global && !isAdmin(tenant)) throw memoryErrors.adminOnly()
    const now = this.deps.now()
    const values = {
      ownerId: tenant.ecosystemId,
      customerId: global ? null : tenant.customerId,
      personaId: input.personaId,
      scope: input.scope,
      slug: input.slug,
      memoryType: input.memoryType,
      description: input.description,
      body: input.body,
      subjectTable: input.subjectTable ?? null,
      subjectId: input.subjectId ?? null,
      source: input.source ?? 'user_stated',
      confidence: input.confidence ?? 100,
      tags: distinct(input.tags ?? []),
      validFrom: instant(input.validFrom),
      validTo: instant(input.validTo),
      supersedesId: input.supersedesId ?? null,
      createdAt: now,
      updatedAt: now,
    }
    checkValidity(values.validFrom, values.validTo)
    const row = await this.deps.db
      .transaction(async (tx) => {
        // The persona stays locked until commit: a delete of it waits, then takes this memory with it.
        if (!(await this.personas.exists(tenant.ecosystemId, input.personaId, tx))) throw memoryErrors.personaNotFound()
        if (input.supersedesId) {
          const old = await this.lockWritable(tx, tenant, input.supersedesId)
          if (old.personaId !== values.personaId || old.customerId !== values.customerId) throw memoryErrors.supersedesMismatch()
          if (old.status !== 'active') throw memoryErrors.notActive()
          await tx.update(memories).set({ status: 'superseded', updatedAt: now }).where(eq(memories.id, old.id))
        }
        const [inserted] = await tx.insert(memories).values(values).returning(memoryColumns)
        const { id, personaId, customerId, source, description } = inserted!
        await this.events.emit(tx, memoryCreated, tenant.ecosystemId, { id, personaId, customerId, source, description })
        return inserted!
      })
      .catch(rethrowSlugTaken)
    return this.withEmbedding(row)
  }

  /** Edits an active or archived memory; a new description or body is embedded again. */
  async update(tenant: Tenant, id: string, patch: Partial<MemoryFields>): Promise<MemoryView> {
    const { row, textChanged } = await this.deps.db
      .transaction(async (tx) => {
        const current = await this.lockWritable(tx, tenant, id)
        if (current.status === 'superseded') throw memoryErrors.superseded()
        const validFrom = patch.validFrom === undefined ? current.validFrom : instant(patch.validFrom)
        const validTo = patch.validTo === undefined ? current.validTo : instant(patch.validTo)
        checkValidity(validFrom, validTo)
        const textChanged = (patch.description ?? current.description) !== current.description || (patch.body ?? current.body) !== current.body
        const [updated] = await tx
          .update(memories)
          .set({
            slug: patch.slug,
            memoryType: patch.memoryType,
            description: patch.description,
            body: patch.body,
            subjectTable: patch.subjectTable,
            subjectId: patch.subjectId,
            source: patch.source,
            confidence: patch.confidence,
            tags: patch.tags && distinct(patch.tags),
            validFrom,
            validTo,
            updatedAt: this.deps.now(),
            ...(textChanged ? { embedding: null, embeddingModel: null, embeddingFailedAt: null } : {}),
          })
          .where(eq(memories.id, id))
          .returning(memoryColumns)
        return { row: updated!, textChanged }
      })
      .catch(rethrowSlugTaken)
    return textChanged ? this.withEmbedding(row) : memoryView(row)
  }

  /** Soft delete: the memory disappears from every read and recall. */
  async remove(tenant: Tenant, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const row = await this.lockWritable(tx, tenant, id)
      const now = this.deps.now()
      await tx.update(memories).set({ deletedAt: now, updatedAt: now }).where(eq(memories.id, id))
      // A persona's global memories are content only admins delete: recorded (a customer's own are not).
      if (row.customerId === null) {
        await this.audit.record(tx, tenant, {
          action: 'persona_memory.memory.deleted',
          target: { type: 'memory', id },
          metadata: { personaId: row.personaId, slug: row.slug },
        })
      }
    })
  }

  /** `active` → `archived`: kept, but no longer recalled. */
  archive(tenant: Tenant, id: string): Promise<MemoryView> {
    return this.transition(tenant, id, 'active', 'archived')
  }

  /** `archived` → `active`. */
  restore(tenant: Tenant, id: string): Promise<MemoryView> {
    return this.transition(tenant, id, 'archived', 'active')
  }

  /** Deletes every memory of a persona for good; runs in the transaction that deletes the persona. */
  async forgetPersona(tx: Db, ecosystemId: string, personaId: string): Promise<void> {
    await tx.delete(memories).where(and(eq(memories.ownerId, ecosystemId), eq(memories.personaId, personaId)))
  }

  recall(tenant: Tenant, input: RecallInput) {
    return recall(this.deps, tenant, input)
  }

  /** The embed backfill for the tenant's ecosystem (the scheduled job covers every ecosystem). */
  embedPending(tenant: Tenant, limit: number) {
    return embedPending(this.deps, { ownerId: tenant.ecosystemId, limit })
  }

  private async transition(tenant: Tenant, id: string, from: 'active' | 'archived', to: 'active' | 'archived'): Promise<MemoryView> {
    const row = await this.deps.db
      .transaction(async (tx) => {
        const current = await this.lockWritable(tx, tenant, id)
        if (current.status !== from) throw from === 'active' ? memoryErrors.notActive() : memoryErrors.notArchived()
        const [updated] = await tx.update(memories).set({ status: to, updatedAt: this.deps.now() }).where(eq(memories.id, id)).returning(memoryColumns)
        return updated!
      })
      .catch(rethrowSlugTaken)
    return memoryView(row)
  }

  /** The memory, locked for this transaction: 404 when the tenant cannot see it, 403 when it may not change it. */
  private async lockWritable(tx: Db, tenant: Tenant, id: string): Promise<MemoryRow> {
    const [row] = await tx
      .select(memoryColumns)
      .from(memories)
      .where(and(eq(memories.id, id), visibleTo(tenant)))
      .for('update')
    if (!row) throw memoryErrors.notFound()
    if (row.customerId === null && !isAdmin(tenant)) throw memoryErrors.adminOnly()
    return row
  }

  /** Embeds a memory just written (after its transaction) when the service answers in time; otherwise the backfill will. */
  private async withEmbedding(row: MemoryRow): Promise<MemoryView> {
    const { stored } = await embedAndStore(this.deps, [row], ON_WRITE_TIMEOUT_MS)
    return memoryView(stored.has(row.id) ? { ...row, embeddingModel: this.deps.embeddings.model } : row)
  }
}
