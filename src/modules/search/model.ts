import { t } from 'elysia'
import { PageQuery } from '../../platform/paging'

export const SearchQuery = t.Composite([
  t.Object({
    q: t.String({
      minLength: 1,
      maxLength: 200,
      description: 'Words to find. Each word matches as a prefix ("recipe" finds "recipes"); all words must occur. Punctuation and operators are plain text.',
    }),
  }),
  PageQuery,
])

export const SearchChatMessageResult = t.Object(
  {
    messageId: t.String({ format: 'uuid' }),
    conversationId: t.String({ format: 'uuid' }),
    conversationTitle: t.String(),
    role: t.Union([t.Literal('user'), t.Literal('assistant')]),
    snippet: t.String({ description: 'Plain-text excerpt around the matched words, with no markup' }),
    createdAt: t.String({ description: 'ISO 8601 UTC' }),
    rank: t.Number({ description: 'Full-text relevance score; higher is better' }),
  },
  {
    title: 'SearchChatMessageResult',
    examples: [
      {
        messageId: '6b5a4938-2716-4f05-8e4d-3c2b1a0f9e8d',
        conversationId: '7c6b5a49-3827-4165-9f4e-3d2c1b0a9f8e',
        conversationTitle: 'Trip planning',
        role: 'user',
        snippet: 'Plan three days in Lisbon for two.',
        createdAt: '2026-11-26T09:00:00.000Z',
        rank: 0.0607927,
      },
    ],
  },
)

export const SearchBoxQuery = t.Composite([
  t.Object({
    q: t.String({
      minLength: 1,
      maxLength: 200,
      description:
        'As typed into a search box: words (all must occur), "quoted phrases", `OR`, `-excluded`; the last word also matches as a prefix. Syntax never fails: what cannot be read is taken as plain words.',
    }),
    language: t.Optional(
      t.Union([t.Literal('english'), t.Literal('simple')], {
        description:
          '`english`: words as written in any language, and English stems too (`running` finds `run`); `simple`: only as written (language-neutral). Absent: the ecosystem’s default (`GET /search/settings`), `english` unless its admins chose `simple`',
      }),
    ),
  }),
  PageQuery,
])

const rank = t.Number({ description: 'Full-text relevance score; higher is better' })
export const SearchDiscussionThreadResult = t.Object(
  { id: t.String(), title: t.String(), body: t.String(), authorId: t.String(), categoryId: t.String(), createdAt: t.String(), rank },
  {
    title: 'SearchDiscussionThreadResult',
    examples: [
      {
        id: '8d7c6b5a-4938-4271-8f6e-5d4c3b2a1908',
        title: 'Best cafés near the river?',
        body: 'Looking for quiet places to work from.',
        authorId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        categoryId: '2a1b0c9d-8e7f-4a6b-9c5d-4e3f2a1b0c9d',
        createdAt: '2026-11-26T09:00:00.000Z',
        rank: 0.2,
      },
    ],
  },
)
export const SearchDiscussionReplyResult = t.Object(
  { id: t.String(), threadId: t.String(), body: t.String(), authorId: t.String(), createdAt: t.String(), rank },
  {
    title: 'SearchDiscussionReplyResult',
    examples: [
      {
        id: '3e2d1c0b-9a8f-4e7d-a6c5-b4a392817065',
        threadId: '8d7c6b5a-4938-4271-8f6e-5d4c3b2a1908',
        body: 'Try the one by the old tram stop.',
        authorId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        createdAt: '2026-11-26T09:00:00.000Z',
        rank: 0.1,
      },
    ],
  },
)
export const SearchDocumentResult = t.Object(
  {
    blockId: t.String(),
    documentId: t.String(),
    blockType: t.String(),
    position: t.String(),
    snippet: t.String({ description: 'Plain-text excerpt around the match, no markup' }),
    rank,
  },
  {
    title: 'SearchDocumentResult',
    examples: [
      {
        blockId: '0f9e8d7c-6b5a-4493-8827-160f5e4d3c2b',
        documentId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e',
        blockType: 'heading',
        position: 'a0',
        snippet: 'Day one: Alfama',
        rank: 0.1,
      },
    ],
  },
)
export const SearchNoteResult = t.Object(
  {
    id: t.String(),
    customerId: t.String(),
    ownerId: t.String(),
    title: t.String(),
    body: t.String(),
    occurredAt: t.String(),
    createdAt: t.String(),
    updatedAt: t.String(),
    deletedAt: t.Optional(t.Union([t.String(), t.Null()])),
    subjectTable: t.Optional(t.Union([t.String(), t.Null()])),
    subjectId: t.Optional(t.Union([t.String(), t.Null()])),
    rank,
  },
  {
    title: 'SearchNoteResult',
    examples: [
      {
        id: '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        title: 'Called Grace',
        body: 'She wants the May dates moved by a week.',
        occurredAt: '2026-11-26T09:00:00.000Z',
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
        deletedAt: null,
        subjectTable: 'data.documents',
        subjectId: '4b3a2918-0f7e-4d6c-8b5a-493827160f5e',
        rank: 0.2,
      },
    ],
  },
)

export const SearchSettings = t.Object(
  {
    language: t.Union([t.Literal('english'), t.Literal('simple')], {
      description:
        'The default `language` of the ecosystem’s searches of threads, replies, documents and notes: `english` (stems too) or `simple` (words only as written, for content in other languages)',
    }),
  },
  { title: 'SearchSettings', examples: [{ language: 'english' }] },
)
