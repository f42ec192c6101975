import { and, eq, isNull, sql } from 'drizzle-orm'
import { createInsertSchema, createSelectSchema } from 'drizzle-typebox'
import type { TObject } from '@sinclair/typebox'
import { t } from 'elysia'
import { NullableTimestamp, Timestamp } from '../../platform/crud/model'
import { AUDIENCE, type ResourceSpec, topicOf } from '../../platform/crud/resource'
import { isAdmin } from '../../platform/tenancy'
import { dataError, errors } from './errors'
import { documentBlocks, documents } from './schema'

const times = { createdAt: Timestamp, updatedAt: Timestamp }

export const DataDocument = t.Omit(createSelectSchema(documents, { ...times, deletedAt: NullableTimestamp }), ['search'], {
  title: 'DataDocument',
  examples: [
    {
      id: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e',
      ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
      title: 'Lisbon itinerary',
      deletedAt: null,
    },
  ],
})
const DocumentWrite = t.Pick(createInsertSchema(documents, { title: () => t.String({ minLength: 1, maxLength: 500 }) }), ['title'])

export const documentsResource = {
  schema: 'data',
  resource: 'documents',
  table: documents,
  row: DataDocument,
  create: t.Object(DocumentWrite.properties, { title: 'DataDocumentCreate', examples: [{ title: 'Lisbon itinerary' }] }),
  patch: t.Partial(t.Object(DocumentWrite.properties), { title: 'DataDocumentPatch', examples: [{ title: 'Lisbon itinerary' }], minProperties: 1 }),
  access: 'own',
  filterable: { title: 'text', createdAt: 'timestamp', updatedAt: 'timestamp' },
  sortable: ['createdAt', 'updatedAt', 'title'],
  defaultSort: [{ column: 'createdAt', descending: true }],
  softDelete: true,
  hooks: {
    // The document is soft-deleted; its blocks go for good, in the same transaction.
    afterDelete: async (tx, tenant, id, changes) => {
      const gone = await tx
        .delete(documentBlocks)
        .where(eq(documentBlocks.documentId, id))
        .returning({ id: documentBlocks.id, customerId: documentBlocks.customerId })
      await changes(
        tx,
        tenant.ecosystemId,
        topicOf(documentBlocksResource),
        gone.map((b) => ({ op: 'delete', id: b.id, customerId: b.customerId, audience: AUDIENCE[documentBlocksResource.access] })),
      )
    },
  },
  example: () => ({ title: 'Probe document' }),
  description: "A customer's documents, made of blocks (`/data/document_blocks`); deleting one deletes its blocks.",
} as const satisfies ResourceSpec<'data', 'documents', typeof DataDocument, TObject, TObject>

const Position = t.String({
  pattern: '^[0-9A-Za-z]{1,64}$',
  description: 'Sorts byte-wise (0-9 < A-Z < a-z): to insert between two blocks, pick a string between their positions (fractional indexing), no renumbering',
})
export const DataDocumentBlock = t.Omit(createSelectSchema(documentBlocks, times), ['search'], {
  title: 'DataDocumentBlock',
  examples: [
    {
      id: '0f9e8d7c-6b5a-4493-8827-160f5e4d3c2b',
      ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
      documentId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e',
      blockType: 'heading',
      position: 'a0',
      content: 'Day one: Alfama',
    },
  ],
})
const BlockWrite = t.Pick(
  createInsertSchema(documentBlocks, {
    blockType: () => t.Union([t.Literal('paragraph'), t.Literal('heading'), t.Literal('list_item'), t.Literal('code'), t.Literal('quote')]),
    position: () => Position,
    content: () => t.String({ maxLength: 100_000 }),
  }),
  ['documentId', 'blockType', 'position', 'content'],
)

export const documentBlocksResource = {
  schema: 'data',
  resource: 'document_blocks',
  table: documentBlocks,
  row: DataDocumentBlock,
  create: t.Object(BlockWrite.properties, {
    title: 'DataDocumentBlockCreate',
    examples: [{ documentId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e', blockType: 'heading', position: 'a0', content: 'Day one: Alfama' }],
  }),
  patch: t.Partial(t.Omit(t.Object(BlockWrite.properties), ['documentId']), {
    title: 'DataDocumentBlockPatch',
    examples: [{ content: 'Day two: Sintra by train.' }],
    minProperties: 1,
  }),
  access: 'own',
  filterable: { documentId: 'uuid', blockType: 'text', createdAt: 'timestamp' },
  sortable: ['position', 'createdAt'],
  defaultSort: [{ column: 'position', descending: false }],
  sortExpressions: { position: sql`${documentBlocks.position} collate "C"` },
  softDelete: false,
  errors: { create: errors({ 404: ['not_found', 'document_not_found'] }) },
  hooks: {
    // A block belongs to a live document the caller may write (its own, or any of the ecosystem for
    // admins), and to that document's customer: an admin's block in a customer's document is the
    // customer's, seen in their lists like the rest of the document.
    beforeWrite: async (tx, tenant, values) => {
      if (typeof values.documentId !== 'string') return undefined
      const scope = [eq(documents.id, values.documentId), eq(documents.ownerId, tenant.ecosystemId), isNull(documents.deletedAt)]
      if (!isAdmin(tenant)) scope.push(eq(documents.customerId, tenant.customerId))
      const [doc] = await tx
        .select({ customerId: documents.customerId })
        .from(documents)
        .where(and(...scope))
        .for('key share')
      if (!doc) throw dataError(404, 'document_not_found', 'documentId names no document of yours')
      return { customerId: doc.customerId }
    },
  },
  example: (ids) => ({ documentId: ids.documents, blockType: 'paragraph', position: 'a0', content: 'probe' }),
  description:
    "Blocks of a document, listed in `position` order (byte-wise). `documentId` must name a document of yours (404 `document_not_found`); ecosystem admins may write blocks in any document of the ecosystem, and a block always belongs to its document's customer (`customerId`), whoever writes it.",
} as const satisfies ResourceSpec<'data', 'document_blocks', typeof DataDocumentBlock, TObject, TObject>

/** Derived resources of the `data` schema, in the order their examples depend on each other. */
export const DATA_RESOURCES = [documentsResource, documentBlocksResource] as const
