import { sql } from 'drizzle-orm'
import { boolean, index, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import type { LlmModelInfo } from '../../providers/llm'
import { users } from '../auth/schema'
import { ecosystems } from '../registry/schema'

export const personaSchema = pgSchema('persona')

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

/** An LLM provider an ecosystem's personas can use (any OpenAI-compatible base URL). */
export const services = personaSchema.table(
  'services',
  {
    id: uuid('id')
      .primaryKey()
      .defaultRandom()
      .$defaultFn(() => Bun.randomUUIDv7()),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    templateId: text('template_id'),
    providerKind: text('provider_kind').notNull(),
    name: text('name').notNull(),
    baseUrl: text('base_url').notNull(),
    /** AES-256-GCM under the server key (platform/crypto sealSecret); never returned. */
    apiKeySealed: text('api_key_sealed'),
    connectStatus: text('connect_status').$type<'never' | 'connected' | 'failed'>().notNull().default('never'),
    connectError: text('connect_error'),
    lastConnectedAt: timestamp('last_connected_at', { withTimezone: true, mode: 'date' }),
    models: jsonb('models').$type<(string | LlmModelInfo)[]>().notNull().default([]),
    modelsFetchedAt: timestamp('models_fetched_at', { withTimezone: true, mode: 'date' }),
    documentationUrl: text('documentation_url'),
    statusUrl: text('status_url'),
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('services_ecosystem_idx').on(t.ecosystemId, t.createdAt)],
)

export type Visibility = 'private' | 'unlisted' | 'public'

/** A character the chat talks as: prompt, voice and examples, optionally on its own service and model. */
export const personas = personaSchema.table(
  'personas',
  {
    /** UUIDv7: time-ordered, so that "newest first" is stable within one millisecond (PGlite's clock resolution). */
    id: uuid('id')
      .primaryKey()
      .defaultRandom()
      .$defaultFn(() => Bun.randomUUIDv7()),
    ecosystemId: uuid('ecosystem_id')
      .notNull()
      .references(() => ecosystems.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description'),
    modelPrompt: text('model_prompt').notNull().default(''),
    voice: text('voice'),
    character: text('character'),
    examples: text('examples'),
    visibility: text('visibility').$type<Visibility>().notNull().default('private'),
    /** Chat's `search` tool may also search the ecosystem's community threads. */
    searchCommunity: boolean('search_community').notNull().default(false),
    /** Deleting the service leaves the persona on the default service. */
    serviceId: uuid('service_id').references(() => services.id, { onDelete: 'set null' }),
    model: text('model'),
    /** The account user who created it: the public owner. */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('personas_ecosystem_slug_uq').on(t.ecosystemId, t.slug),
    index('personas_public_idx').on(t.createdAt).where(sql`${t.visibility} = 'public'`),
    index('personas_creator_idx').on(t.createdBy),
    index('personas_slug_idx').on(t.slug),
  ],
)
