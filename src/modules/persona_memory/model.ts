import type { TLiteral, TUnion } from '@sinclair/typebox'
import { t } from 'elysia'
import { Int } from '../../platform/numbers'
import { MEMORY_SCOPES, MEMORY_SOURCES, MEMORY_STATUSES, MEMORY_TYPES } from './schema'

/** One of `values` (t.UnionEnum would give optional fields its first value as a default). */
const oneOf = <const V extends readonly [string, ...string[]]>(values: V, description: string) =>
  t.Union(
    values.map((v) => t.Literal(v)),
    { description },
  ) as unknown as TUnion<{ -readonly [K in keyof V]: TLiteral<V[K]> }>

const Scope = oneOf(
  MEMORY_SCOPES,
  '`user`: about the calling customer, seen only by it; `persona`: global to the persona, seen by every customer, written only by ecosystem admins',
)
const MemoryType = oneOf(MEMORY_TYPES, 'What the memory is about')
const Status = oneOf(
  MEMORY_STATUSES,
  '`active` → `superseded` when a memory is created with `supersedesId` naming it (final); `active` → `archived` by /archive; `archived` → `active` by /restore',
)
const Source = oneOf(MEMORY_SOURCES, 'How the memory was learnt')
const Confidence = Int({ minimum: 0, maximum: 100, description: 'Integer 0 to 100' })
const Uuid = t.String({ format: 'uuid' })
const Slug = t.String({
  pattern: '^[a-z0-9][a-z0-9._-]{0,127}$',
  description: 'Short key, unique among the active memories of one owner (the customer, or the persona for global ones)',
})
const Description = t.String({ minLength: 1, maxLength: 1000, description: 'One line saying what this memory is; embedded with the body' })
const Body = t.String({ minLength: 1, maxLength: 10000 })
const Tags = t.Array(t.String({ minLength: 1, maxLength: 64 }), { maxItems: 32, description: 'Up to 32 tags (duplicates are dropped)' })
const Instant = (description: string) => t.Nullable(t.String({ format: 'date-time', description }))
const SubjectTable = t.Nullable(t.String({ minLength: 1, maxLength: 128, description: 'Table of a record this memory is about' }))
const SubjectId = t.Nullable(t.String({ minLength: 1, maxLength: 255, description: 'Id of that record' }))

/** What a recall match shows of a memory (PersonaMemoryMatch), all of which PersonaMemory has too. */
const Recallable = {
  id: t.String(),
  personaId: t.String(),
  scope: Scope,
  slug: t.String(),
  memoryType: MemoryType,
  description: t.String(),
  body: t.String(),
  confidence: Confidence,
  tags: t.Array(t.String()),
}

export const PersonaMemory = t.Object(
  {
    ...Recallable,
    ownerId: t.String({ description: 'Ecosystem id' }),
    customerId: t.String({ description: 'Owning customer; empty for a global (`persona`) memory' }),
    deletedAt: t.Optional(t.Nullable(t.String())),
    subjectTable: t.Optional(t.Nullable(t.String())),
    subjectId: t.Optional(t.Nullable(t.String())),
    status: Status,
    supersedesId: t.Optional(t.Nullable(t.String({ description: 'The memory this one replaced' }))),
    source: Source,
    validFrom: t.Optional(t.Nullable(t.String({ description: 'Recalled only from this instant on' }))),
    validTo: t.Optional(t.Nullable(t.String({ description: 'Recalled only before this instant' }))),
    recallCount: Int({ description: 'How many recalls returned it' }),
    lastRecalledAt: t.Optional(t.Nullable(t.String())),
    embeddingModel: t.Optional(t.Nullable(t.String({ description: 'Model of its embedding; null while waiting for the embed backfill' }))),
    createdAt: t.String(),
    updatedAt: t.String(),
  },
  {
    title: 'PersonaMemory',
    examples: [
      {
        id: '2b1a0f9e-8d7c-4b6a-9f5e-4d3c2b1a0f9e',
        ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
        customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
        deletedAt: null,
        personaId: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
        scope: 'user',
        slug: 'food.vegetarian',
        memoryType: 'user',
        description: 'Eats vegetarian',
        body: 'Grace is vegetarian and likes small places over chains.',
        subjectTable: null,
        subjectId: null,
        status: 'active',
        supersedesId: null,
        source: 'user_stated',
        confidence: 100,
        tags: ['food'],
        validFrom: null,
        validTo: null,
        recallCount: 0,
        lastRecalledAt: null,
        embeddingModel: 'text-embedding-3-small',
        createdAt: '2026-11-26T09:00:00.000Z',
        updatedAt: '2026-11-26T09:00:00.000Z',
      },
    ],
  },
)

const MATCH_EXAMPLE = {
  id: '2b1a0f9e-8d7c-4b6a-9f5e-4d3c2b1a0f9e',
  personaId: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
  scope: 'user',
  slug: 'food.vegetarian',
  memoryType: 'user',
  description: 'Eats vegetarian',
  body: 'Grace is vegetarian and likes small places over chains.',
  confidence: 100,
  tags: ['food'],
  similarity: 0.82,
}

export const PersonaMemoryMatch = t.Object(
  {
    ...Recallable,
    similarity: t.Number({ minimum: 0, maximum: 1, description: 'Cosine similarity with the query, negatives clamped to 0' }),
  },
  { title: 'PersonaMemoryMatch', examples: [MATCH_EXAMPLE] },
)
export const PersonaMemoryRecallResult = t.Object(
  { memories: t.Array(PersonaMemoryMatch) },
  { title: 'PersonaMemoryRecallResult', examples: [{ memories: [MATCH_EXAMPLE] }] },
)
export const PersonaMemoryEmbedResult = t.Object(
  {
    embedded: Int({ description: 'Rows embedded by this call' }),
    failed: Int({ description: 'Rows that failed; they are retried on the next call' }),
    more: t.Boolean({ description: 'The batch filled `limit`: call again' }),
  },
  { title: 'PersonaMemoryEmbedResult', examples: [{ embedded: 42, failed: 0, more: false }] },
)

const Editable = {
  slug: Slug,
  memoryType: MemoryType,
  description: Description,
  body: Body,
  subjectTable: t.Optional(SubjectTable),
  subjectId: t.Optional(SubjectId),
  source: t.Optional(Source),
  confidence: t.Optional(Confidence),
  tags: t.Optional(Tags),
  validFrom: t.Optional(Instant('Recalled only from this instant on (inclusive)')),
  validTo: t.Optional(Instant('Recalled only before this instant (exclusive); after validFrom')),
}

export const MemoryCreate = t.Object(
  {
    personaId: Uuid,
    scope: Scope,
    ...Editable,
    source: t.Optional(oneOf(MEMORY_SOURCES, 'How the memory was learnt (default `user_stated`)')),
    confidence: t.Optional(Int({ minimum: 0, maximum: 100, description: 'Integer 0 to 100 (default 100)' })),
    supersedesId: t.Optional(
      t.String({
        format: 'uuid',
        description: 'An active memory of the same persona and scope that this one replaces; it becomes `superseded` in the same transaction',
      }),
    ),
  },
  {
    title: 'PersonaMemoryCreate',
    examples: [
      {
        personaId: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
        scope: 'user',
        slug: 'food.vegetarian',
        memoryType: 'user',
        description: 'Eats vegetarian',
        body: 'Grace is vegetarian and likes small places over chains.',
      },
    ],
  },
)

export const MemoryPatch = t.Partial(t.Object(Editable), {
  title: 'PersonaMemoryPatch',
  examples: [{ body: 'Grace is vegetarian; no mushrooms.' }],
  minProperties: 1,
})

export const MemoryListQuery = t.Object({
  personaId: t.Optional(Uuid),
  scope: t.Optional(Scope),
  status: t.Optional(Status),
  memoryType: t.Optional(MemoryType),
  tag: t.Optional(t.String({ minLength: 1, maxLength: 64, description: 'Memories carrying this tag' })),
  subjectTable: t.Optional(t.String({ minLength: 1, maxLength: 128 })),
  subjectId: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
})

export const RecallBody = t.Object(
  {
    personaId: Uuid,
    query: t.String({ minLength: 1, maxLength: 10000 }),
    limit: t.Optional(Int({ minimum: 1, maximum: 50, default: 8, description: 'At most this many memories (default 8, max 50)' })),
    minSimilarity: t.Optional(t.Number({ minimum: 0, maximum: 1, description: 'Leave out memories less similar than this' })),
    memoryTypes: t.Optional(t.Array(MemoryType, { minItems: 1, maxItems: 4, description: 'Only these memory types' })),
    tags: t.Optional(
      t.Array(t.String({ minLength: 1, maxLength: 64 }), { minItems: 1, maxItems: 32, description: 'Only memories carrying at least one of these tags' }),
    ),
  },
  { title: 'PersonaMemoryRecall', examples: [{ personaId: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b', query: 'what does she like to eat', limit: 5 }] },
)

export const EmbedBody = t.Object(
  {
    limit: t.Optional(Int({ minimum: 1, maximum: 500, default: 100, description: 'Rows to handle in this call (default 100, max 500)' })),
  },
  { title: 'PersonaMemoryEmbed', examples: [{ limit: 500 }] },
)
