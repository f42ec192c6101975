import { and, eq, isNull, sql } from 'drizzle-orm'
import type { SearchSource } from '../../platform/fulltext'
import { notes } from './schema'

const iso = (value: unknown) => new Date(value as string).toISOString()

/** The caller's own notes that are not deleted, as the notes list shows them. */
export const noteSearch: SearchSource = {
  name: 'notes',
  shape: (tenant) => ({
    from: sql`${notes}`,
    where: and(eq(notes.ownerId, tenant.ecosystemId), eq(notes.customerId, tenant.customerId), isNull(notes.deletedAt))!,
    vector: sql`${notes.search}`,
    select: sql`${notes.id} as id, ${notes.customerId} as customer_id, ${notes.ownerId} as owner_id, ${notes.title} as title, ${notes.body} as body, ${notes.occurredAt} as occurred_at, ${notes.createdAt} as created_at, ${notes.updatedAt} as updated_at, ${notes.deletedAt} as deleted_at, ${notes.subjectTable} as subject_table, ${notes.subjectId} as subject_id`,
    created: sql`${notes.occurredAt}`,
    view: (r) => ({
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
  }),
}
