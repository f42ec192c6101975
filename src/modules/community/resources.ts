import { createInsertSchema, createSelectSchema } from 'drizzle-typebox'
import type { TObject } from '@sinclair/typebox'
import { t } from 'elysia'
import { NullableTimestamp, Timestamp } from '../../platform/crud/model'
import type { ResourceHooks, ResourceSpec } from '../../platform/crud/resource'
import { Int } from '../../platform/numbers'
import { errors } from './errors'
import { categories, replies, threads } from './schema'

const times = { createdAt: Timestamp, updatedAt: Timestamp }

export const CommunityCategory = t.Object(createSelectSchema(categories, times).properties, {
  title: 'CommunityCategory',
  examples: [
    {
      id: '2a1b0c9d-8e7f-4a6b-9c5d-4e3f2a1b0c9d',
      ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
      name: 'Travel tips',
      slug: 'travel-tips',
      description: 'Where to go and what to skip',
      position: 1,
    },
  ],
})
const CategoryWrite = t.Pick(
  createInsertSchema(categories, {
    name: () => t.String({ minLength: 1, maxLength: 100 }),
    slug: () => t.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$' }),
    description: () => t.String({ maxLength: 2000 }),
    position: () => Int({ minimum: 0, maximum: 1_000_000 }),
  }),
  ['name', 'slug', 'description', 'position'],
)

export const CommunityThread = t.Omit(createSelectSchema(threads, { ...times, deletedAt: NullableTimestamp }), ['search'], {
  title: 'CommunityThread',
  examples: [
    {
      id: '8d7c6b5a-4938-4271-8f6e-5d4c3b2a1908',
      ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
      categoryId: '2a1b0c9d-8e7f-4a6b-9c5d-4e3f2a1b0c9d',
      title: 'Best cafés near the river?',
      body: 'Looking for quiet places to work from.',
      locked: false,
      pinned: false,
      deletedAt: null,
    },
  ],
})
const ThreadWrite = t.Pick(
  createInsertSchema(threads, {
    title: () => t.String({ minLength: 1, maxLength: 300 }),
    body: () => t.String({ maxLength: 50_000 }),
    categoryId: () => t.String({ format: 'uuid', description: 'Default: the `general` category' }),
    locked: () => t.Boolean({ description: 'Admins only: no new replies' }),
    pinned: () => t.Boolean({ description: 'Admins only: listed first' }),
  }),
  ['title', 'body', 'categoryId', 'locked', 'pinned'],
)

export const CommunityReply = t.Omit(createSelectSchema(replies, { ...times, deletedAt: NullableTimestamp }), ['search'], {
  title: 'CommunityReply',
  examples: [
    {
      id: '3e2d1c0b-9a8f-4e7d-a6c5-b4a392817065',
      ownerId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      customerId: '5e4d3c2b-1a09-4f8e-b7d6-c5b4a3928170',
      createdAt: '2026-11-26T09:00:00.000Z',
      updatedAt: '2026-11-26T09:00:00.000Z',
      threadId: '8d7c6b5a-4938-4271-8f6e-5d4c3b2a1908',
      body: 'Try the one by the old tram stop.',
      deletedAt: null,
    },
  ],
})
const ReplyWrite = t.Pick(
  createInsertSchema(replies, { threadId: () => t.String({ format: 'uuid' }), body: () => t.String({ minLength: 1, maxLength: 50_000 }) }),
  ['threadId', 'body'],
)

const MENTIONS =
  'A `@name` in the text (the customer’s external id, or its name with every run of other characters than letters and digits as one `-`, case-insensitive: `@ada-lovelace`) notifies that customer (`community_mention`).'

/** The three community resources, with the area's rules attached as hooks (see CommunityService). */
export function communityResources(hooks: { categories: ResourceHooks; threads: ResourceHooks; replies: ResourceHooks }) {
  const categoriesResource = {
    schema: 'community',
    resource: 'categories',
    table: categories,
    row: CommunityCategory,
    create: t.Object(CategoryWrite.properties, {
      title: 'CommunityCategoryCreate',
      examples: [{ name: 'Travel tips', slug: 'travel-tips', description: 'Where to go and what to skip', position: 1 }],
    }),
    patch: t.Partial(t.Object(CategoryWrite.properties), {
      title: 'CommunityCategoryPatch',
      examples: [{ name: 'Travel tips and tricks', position: 2 }],
      minProperties: 1,
    }),
    access: 'shared-admin',
    filterable: { slug: 'text', name: 'text' },
    sortable: ['position', 'name', 'createdAt'],
    defaultSort: [
      { column: 'position', descending: false },
      { column: 'name', descending: false },
    ],
    softDelete: false,
    hooks: hooks.categories,
    errors: {
      create: errors({ 409: ['conflict'] }),
      update: errors({ 409: ['conflict'] }),
      delete: errors({ 409: ['default_category', 'category_not_empty'] }),
    },
    example: () => ({ name: 'Probe', slug: `probe-${crypto.randomUUID().slice(0, 8)}` }),
    description:
      'Thread categories. Every ecosystem has `general` (the default of new threads), which cannot be deleted; a category with threads cannot be deleted (409 `category_not_empty`).',
  } as const satisfies ResourceSpec<'community', 'categories', typeof CommunityCategory, TObject, TObject>

  const threadsResource = {
    schema: 'community',
    resource: 'threads',
    table: threads,
    row: CommunityThread,
    create: t.Object(
      { ...ThreadWrite.properties, categoryId: t.Optional(ThreadWrite.properties.categoryId) },
      {
        title: 'CommunityThreadCreate',
        examples: [{ title: 'Best cafés near the river?', body: 'Looking for quiet places to work from.', categoryId: '2a1b0c9d-8e7f-4a6b-9c5d-4e3f2a1b0c9d' }],
      },
    ),
    patch: t.Partial(t.Object(ThreadWrite.properties), {
      title: 'CommunityThreadPatch',
      examples: [{ title: 'Best cafés near the river (2026)?', pinned: true }],
      minProperties: 1,
    }),
    access: 'shared',
    filterable: { categoryId: 'uuid', customerId: 'uuid', pinned: 'boolean', locked: 'boolean', createdAt: 'timestamp', title: 'text' },
    sortable: ['pinned', 'createdAt', 'updatedAt', 'title'],
    defaultSort: [{ column: 'createdAt', descending: true }],
    leadingSort: {
      param: 'pinnedFirst',
      key: { column: 'pinned', descending: true },
      description: 'Pinned threads come first under any sort (default); `false` sorts them like the others',
    },
    softDelete: true,
    hooks: hooks.threads,
    errors: { create: errors({ 404: ['not_found', 'category_not_found'] }), update: errors({ 404: ['not_found', 'category_not_found'] }) },
    example: () => ({ title: 'Probe thread', body: 'probe' }),
    description: `Discussion threads; \`customerId\` is the author. \`title\` is required. \`locked\` and \`pinned\` are set by admins only (403 otherwise). Deleting a thread hides its replies. ${MENTIONS}`,
  } as const satisfies ResourceSpec<'community', 'threads', typeof CommunityThread, TObject, TObject>

  const repliesResource = {
    schema: 'community',
    resource: 'replies',
    table: replies,
    row: CommunityReply,
    create: t.Object(ReplyWrite.properties, {
      title: 'CommunityReplyCreate',
      examples: [{ threadId: '8d7c6b5a-4938-4271-8f6e-5d4c3b2a1908', body: 'Try the one by the old tram stop, @grace.' }],
    }),
    patch: t.Object({ body: ReplyWrite.properties.body }, { title: 'CommunityReplyPatch', examples: [{ body: 'Try the one by the old tram stop.' }] }),
    access: 'shared',
    filterable: { threadId: 'uuid', customerId: 'uuid', createdAt: 'timestamp' },
    sortable: ['createdAt'],
    defaultSort: [{ column: 'createdAt', descending: false }],
    keyedBy: 'threadId',
    softDelete: true,
    hooks: hooks.replies,
    errors: { create: errors({ 404: ['not_found', 'thread_not_found'], 409: ['thread_locked'] }) },
    example: (ids) => ({ threadId: ids.threads, body: 'probe reply' }),
    description: `Replies to a thread (\`threadId\`: a live thread of the ecosystem, 404 \`thread_not_found\`; a locked one is 409 \`thread_locked\`); \`customerId\` is the author. The thread's author gets a \`community_reply\` notification (not for their own replies). ${MENTIONS}`,
  } as const satisfies ResourceSpec<'community', 'replies', typeof CommunityReply, TObject, TObject>

  return [categoriesResource, threadsResource, repliesResource] as const
}
