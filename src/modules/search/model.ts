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
