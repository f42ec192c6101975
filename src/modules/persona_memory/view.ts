import { and, eq, getTableColumns, isNull, or } from 'drizzle-orm'
import type { Tenant } from '../../platform/tenancy'
import { memories } from './schema'

// Every column but the vector, which is never read back.
const { embedding: _vector, ...memoryColumns } = getTableColumns(memories)
export { memoryColumns }
export type MemoryRow = Omit<typeof memories.$inferSelect, 'embedding'>

const iso = (d: Date | null) => (d ? d.toISOString() : null)

export const memoryView = (m: MemoryRow) => ({
  id: m.id,
  ownerId: m.ownerId,
  customerId: m.customerId ?? '',
  deletedAt: iso(m.deletedAt),
  personaId: m.personaId,
  scope: m.scope,
  slug: m.slug,
  memoryType: m.memoryType,
  description: m.description,
  body: m.body,
  subjectTable: m.subjectTable,
  subjectId: m.subjectId,
  status: m.status,
  supersedesId: m.supersedesId,
  source: m.source,
  confidence: m.confidence,
  tags: m.tags,
  validFrom: iso(m.validFrom),
  validTo: iso(m.validTo),
  recallCount: m.recallCount,
  lastRecalledAt: iso(m.lastRecalledAt),
  embeddingModel: m.embeddingModel,
  createdAt: m.createdAt.toISOString(),
  updatedAt: m.updatedAt.toISOString(),
})
export type MemoryView = ReturnType<typeof memoryView>

/** What `tenant` sees: its ecosystem's live memories that are its own or global to the persona. */
export const visibleTo = (tenant: Tenant) =>
  and(eq(memories.ownerId, tenant.ecosystemId), or(eq(memories.customerId, tenant.customerId), isNull(memories.customerId)), isNull(memories.deletedAt))
