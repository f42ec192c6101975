import { and, eq, isNull, sql } from 'drizzle-orm'
import { searchExcerpt, type SearchSource } from '../../platform/fulltext'
import { isAdmin } from '../../platform/tenancy'
import { documentBlocks, documents } from './schema'

/** Blocks of the caller's own documents (ecosystem admins: of every document of the ecosystem), with an excerpt. */
export const documentSearch: SearchSource = {
  name: 'documents',
  shape: (tenant, query) => ({
    from: sql`${documentBlocks} join ${documents} on ${documents.id} = ${documentBlocks.documentId}`,
    where: and(
      eq(documentBlocks.ownerId, tenant.ecosystemId),
      eq(documents.ownerId, tenant.ecosystemId),
      isNull(documents.deletedAt),
      isAdmin(tenant) ? undefined : eq(documents.customerId, tenant.customerId),
    )!,
    vector: sql`${documentBlocks.search}`,
    select: sql`${documentBlocks.id} as block_id, ${documentBlocks.documentId} as document_id, ${documentBlocks.blockType} as block_type, ${documentBlocks.position} as position, ${documentBlocks.content} as content`,
    late: sql`, ${searchExcerpt(sql`hits.content`, query)} as snippet`,
    created: sql`${documentBlocks.createdAt}`,
    view: (r) => ({
      blockId: r.block_id as string,
      documentId: r.document_id as string,
      blockType: r.block_type as string,
      position: r.position as string,
      snippet: r.snippet as string,
    }),
  }),
}
