import { t } from 'elysia'
import { Int } from '../../platform/numbers'
import { LABEL_PATTERN, RDID_PATTERN } from './rdid'

const Label = (description: string) => t.String({ pattern: LABEL_PATTERN, maxLength: 63, description })
export const Rdid = t.String({ pattern: RDID_PATTERN, maxLength: 253, description: 'Reverse-domain identifier: two or more dot-separated labels of [a-z0-9-]' })

export const RegistryIdentifier = t.Object(
  {
    rdid: t.String(),
    entityType: t.String({ description: 'e.g. namespace, ecosystem, organization' }),
    entityId: t.String({ description: 'The UUID the rdid resolves to' }),
    createdBy: t.Nullable(t.String({ description: 'The minter; null for system mappings' })),
  },
  {
    title: 'RegistryIdentifier',
    examples: [
      {
        rdid: 'org.acme.main.concierge',
        entityType: 'persona',
        entityId: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b',
        createdBy: '6f1c0a3e-2b7d-4c1a-9e5f-3d2b1a0c9e8f',
      },
    ],
  },
)

export const RegistryNamespace = t.Object(
  {
    id: t.String(),
    ownerKind: t.Union([t.Literal('customer'), t.Literal('organization')]),
    ownerId: t.String(),
    slug: t.Nullable(t.String()),
    name: t.Nullable(t.String()),
    rdid: t.Nullable(t.String({ description: 'The namespace reverse-domain prefix' })),
  },
  {
    title: 'RegistryNamespace',
    examples: [
      {
        id: '3c2b1a09-8f7e-4d6c-b5a4-9382716f5e4d',
        ownerKind: 'organization',
        ownerId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d',
        slug: 'acme',
        name: 'Acme',
        rdid: 'org.acme',
      },
    ],
  },
)

export const RegistryNamespaceUpdate = t.Object(
  { id: t.String(), slug: t.Nullable(t.String()), name: t.Nullable(t.String()) },
  {
    title: 'RegistryNamespaceUpdate',
    examples: [{ id: '3c2b1a09-8f7e-4d6c-b5a4-9382716f5e4d', slug: 'acme', name: 'Acme Corporation' }],
  },
)
export const RegistryOrganization = t.Object(
  {
    id: t.String(),
    slug: t.String(),
    name: t.String(),
    requireMfa: t.Boolean({ description: 'Members must verify a second factor (aal2) to act in its ecosystems' }),
  },
  { title: 'RegistryOrganization', examples: [{ id: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d', slug: 'acme', name: 'Acme', requireMfa: false }] },
)
const Quota = Int({ minimum: 1, maximum: 1_000_000 })
/** An ecosystem's own rate limits, as answered and (a separate schema: request bodies are normalised in place) as set. */
const rateLimits = (title: string, description: string) =>
  t.Object(
    { read: t.Optional(Quota), write: t.Optional(Quota), expensive: t.Optional(Quota) },
    {
      title,
      description: `${description} Requests each principal (account, API token, customer) may make in the ecosystem per RATE_LIMIT_WINDOW_SECONDS, by class of route: \`read\` (GET, HEAD), \`write\` (other methods), \`expensive\` (chat replies, upload presigns); a class left out keeps the instance default (RATE_LIMIT_READ, RATE_LIMIT_WRITE, RATE_LIMIT_EXPENSIVE). See docs/operations/rate-limits.md.`,
      examples: [{ read: 1200, write: 240 }],
    },
  )
const RegistryEcosystemRateLimits = rateLimits('RegistryEcosystemRateLimits', 'The ecosystem’s own API rate limits.')
const RateLimitsUpdate = rateLimits(
  'RegistryEcosystemRateLimitsUpdate',
  'Replaces the ecosystem’s own API rate limits; `{}` goes back to the instance defaults.',
)
export const RegistryEcosystem = t.Object(
  {
    id: t.String(),
    slug: t.String(),
    rdid: t.String({ description: 'Defaults to the namespace prefix, a dot, then the slug' }),
    name: t.Nullable(t.String()),
    organizationId: t.String(),
    rateLimits: t.Nullable(RegistryEcosystemRateLimits, { description: 'Its own API rate limits; null: the instance defaults' }),
  },
  {
    title: 'RegistryEcosystem',
    examples: [
      {
        id: '2e1d0c9b-8a7f-4e6d-9c5b-4a3f2e1d0c9b',
        slug: 'staging',
        rdid: 'org.acme.staging',
        name: 'Staging',
        organizationId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d',
        rateLimits: null,
      },
    ],
  },
)
export const RegistryProvisionedOrganization = t.Object(
  {
    organization: RegistryOrganization,
    namespace: RegistryNamespace,
    teamId: t.String({ description: 'The provisioned admin team id' }),
    ecosystem: RegistryEcosystem,
  },
  {
    title: 'RegistryProvisionedOrganization',
    examples: [
      {
        organization: { id: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d', slug: 'acme', name: 'Acme', requireMfa: false },
        namespace: {
          id: '3c2b1a09-8f7e-4d6c-b5a4-9382716f5e4d',
          ownerKind: 'organization',
          ownerId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d',
          slug: 'acme',
          name: 'Acme',
          rdid: 'org.acme',
        },
        teamId: 'd4c3b2a1-0f9e-4d8c-a7b6-5a4f3e2d1c0b',
        ecosystem: {
          id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
          slug: 'main',
          rdid: 'org.acme.main',
          name: 'Main',
          organizationId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d',
          rateLimits: null,
        },
      },
    ],
  },
)

export const ProvisionBody = t.Object(
  {
    slug: Label('Organization slug, unique; also its identifier organization.<slug>'),
    name: t.String({ minLength: 1, maxLength: 255 }),
    namespaceSlug: t.Optional(Label('Namespace slug (defaults to the organization slug); the prefix is org.<namespaceSlug>')),
    ecosystemSlug: t.Optional(Label('Slug of the first ecosystem (default `main`)')),
  },
  { title: 'RegistryProvision', examples: [{ slug: 'acme', name: 'Acme' }] },
)
export const NamespacePatch = t.Object(
  { slug: t.Optional(Label('Namespace slug')), name: t.Optional(t.String({ minLength: 1, maxLength: 255 })) },
  { title: 'RegistryNamespacePatch', examples: [{ name: 'Acme Corporation' }], minProperties: 1 },
)
export const EcosystemCreate = t.Object(
  {
    organizationId: t.String({ format: 'uuid' }),
    slug: Label('Unique within the organization'),
    name: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
    rdid: t.Optional(t.String({ pattern: RDID_PATTERN, maxLength: 253, description: 'Defaults to <namespace prefix>.<slug>; must lie under the prefix' })),
  },
  { title: 'RegistryEcosystemCreate', examples: [{ organizationId: '0b8e4c2a-5d6f-4a1b-8c3d-2e1f0a9b8c7d', slug: 'staging', name: 'Staging' }] },
)
export const EcosystemPatch = t.Object(
  {
    slug: t.Optional(Label('New slug; an rdid in its default form follows it')),
    name: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
    rateLimits: t.Optional(RateLimitsUpdate),
  },
  { title: 'RegistryEcosystemPatch', examples: [{ name: 'Staging (EU)' }, { rateLimits: { read: 1200, write: 240 } }, { rateLimits: {} }], minProperties: 1 },
)
export const IdentifierCreate = t.Object(
  {
    rdid: Rdid,
    entityType: t.String({ pattern: '^[a-z][a-z0-9_]{0,49}$' }),
    entityId: t.String({ format: 'uuid' }),
  },
  {
    title: 'RegistryIdentifierCreate',
    examples: [{ rdid: 'org.acme.main.concierge', entityType: 'persona', entityId: '1f2e3d4c-5b6a-4798-8a7b-6c5d4e3f2a1b' }],
  },
)
