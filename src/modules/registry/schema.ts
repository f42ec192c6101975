import { boolean, index, jsonb, pgSchema, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core'
import type { EcosystemLimits } from '../../platform/api-limits'

export const registrySchema = pgSchema('registry')

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow()

/** Reverse-domain identifiers: every namespace, organization and ecosystem, plus minted ones. */
export const identifiers = registrySchema.table(
  'identifiers',
  {
    rdid: text('rdid').primaryKey(),
    entityType: text('entity_type').notNull(),
    entityId: uuid('entity_id').notNull(),
    createdBy: uuid('created_by'),
    createdAt: createdAt(),
  },
  (t) => [index('identifiers_entity_idx').on(t.entityId)],
)

/** A prefix under which identifiers are minted; owned by an organization or by one account. */
export const namespaces = registrySchema.table(
  'namespaces',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerKind: text('owner_kind').$type<'customer' | 'organization'>().notNull(),
    ownerId: uuid('owner_id').notNull(),
    slug: text('slug'),
    name: text('name'),
    rdid: text('rdid'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('namespaces_owner_uq').on(t.ownerKind, t.ownerId),
    uniqueIndex('namespaces_slug_uq').on(t.slug),
    uniqueIndex('namespaces_rdid_uq').on(t.rdid),
  ],
)

export const organizations = registrySchema.table(
  'organizations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    namespaceId: uuid('namespace_id')
      .notNull()
      .references(() => namespaces.id),
    createdBy: uuid('created_by').notNull(),
    /** Members must have verified a second factor in their session (aal2) to act in its ecosystems. */
    requireMfa: boolean('require_mfa').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('organizations_slug_uq').on(t.slug)],
)

/** The tenant. Everything customer-facing is scoped by an ecosystem id (`ownerId`). */
export const ecosystems = registrySchema.table(
  'ecosystems',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name'),
    rdid: text('rdid').notNull(),
    /** Its own API rate limits per principal, raising or lowering the instance's (RATE_LIMIT_*); null: the instance's. */
    rateLimits: jsonb('rate_limits').$type<EcosystemLimits>(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ecosystems_org_slug_uq').on(t.organizationId, t.slug), uniqueIndex('ecosystems_rdid_uq').on(t.rdid)],
)
