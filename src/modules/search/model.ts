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
  { title: 'SearchChatMessageResult' },
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
  { title: 'SearchDiscussionThreadResult' },
)
export const SearchDiscussionReplyResult = t.Object(
  { id: t.String(), threadId: t.String(), body: t.String(), authorId: t.String(), createdAt: t.String(), rank },
  { title: 'SearchDiscussionReplyResult' },
)
export const SearchDocumentResult = t.Object(
  { blockId: t.String(), documentId: t.String(), blockType: t.String(), position: t.String(), snippet: t.String({ description: 'Plain-text excerpt around the match, no markup' }), rank },
  { title: 'SearchDocumentResult' },
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
  { title: 'SearchNoteResult' },
)

export const SearchSettings = t.Object(
  {
    language: t.Union([t.Literal('english'), t.Literal('simple')], {
      description: 'The default `language` of the ecosystem’s searches of threads, replies, documents and notes: `english` (stems too) or `simple` (words only as written, for content in other languages)',
    }),
  },
  { title: 'SearchSettings', examples: [{ language: 'english' }] },
)
