import { t } from 'elysia'
import { LABEL_PATTERN, RDID_PATTERN } from './rdid'

const Label = (description: string) => t.String({ pattern: LABEL_PATTERN, maxLength: 63, description })
export const Rdid = t.String({ pattern: RDID_PATTERN, maxLength: 253, description: 'Reverse-domain identifier: two or more dot-separated labels of [a-z0-9-]' })

export const RegistryIdentifier = t.Object({
  rdid: t.String(),
  entityType: t.String({ description: 'e.g. namespace, ecosystem, organization' }),
  entityId: t.String({ description: 'The UUID the rdid resolves to' }),
  createdBy: t.Nullable(t.String({ description: 'The minter; null for system mappings' })),
}, { title: 'RegistryIdentifier' })

export const RegistryNamespace = t.Object({
  id: t.String(),
  ownerKind: t.Union([t.Literal('customer'), t.Literal('organization')]),
  ownerId: t.String(),
  slug: t.Nullable(t.String()),
  name: t.Nullable(t.String()),
  rdid: t.Nullable(t.String({ description: 'The namespace reverse-domain prefix' })),
}, { title: 'RegistryNamespace' })

export const RegistryNamespaceUpdate = t.Object({ id: t.String(), slug: t.Nullable(t.String()), name: t.Nullable(t.String()) }, { title: 'RegistryNamespaceUpdate' })
export const RegistryOrganization = t.Object(
  { id: t.String(), slug: t.String(), name: t.String(), requireMfa: t.Boolean({ description: 'Members must verify a second factor (aal2) to act in its ecosystems' }) },
  { title: 'RegistryOrganization' },
)
export const RegistryEcosystem = t.Object({
  id: t.String(),
  slug: t.String(),
  rdid: t.String({ description: 'Defaults to the namespace prefix, a dot, then the slug' }),
  name: t.Nullable(t.String()),
  organizationId: t.String(),
}, { title: 'RegistryEcosystem' })
export const RegistryProvisionedOrganization = t.Object({
  organization: RegistryOrganization,
  namespace: RegistryNamespace,
  teamId: t.String({ description: 'The provisioned admin team id' }),
  ecosystem: RegistryEcosystem,
}, { title: 'RegistryProvisionedOrganization' })

export const ProvisionBody = t.Object({
  slug: Label('Organization slug, unique; also its identifier organization.<slug>'),
  name: t.String({ minLength: 1, maxLength: 255 }),
  namespaceSlug: t.Optional(Label('Namespace slug (defaults to the organization slug); the prefix is org.<namespaceSlug>')),
  ecosystemSlug: t.Optional(Label('Slug of the first ecosystem (default `main`)')),
}, { title: 'RegistryProvision' })
export const NamespacePatch = t.Object(
  { slug: t.Optional(Label('Namespace slug')), name: t.Optional(t.String({ minLength: 1, maxLength: 255 })) },
  { title: 'RegistryNamespacePatch', minProperties: 1 },
)
export const EcosystemCreate = t.Object({
  organizationId: t.String({ format: 'uuid' }),
  slug: Label('Unique within the organization'),
  name: t.Optional(t.String({ minLength: 1, maxLength: 255 })),
  rdid: t.Optional(t.String({ pattern: RDID_PATTERN, maxLength: 253, description: 'Defaults to <namespace prefix>.<slug>; must lie under the prefix' })),
}, { title: 'RegistryEcosystemCreate' })
export const EcosystemPatch = t.Object(
  { slug: t.Optional(Label('New slug; an rdid in its default form follows it')), name: t.Optional(t.String({ minLength: 1, maxLength: 255 })) },
  { title: 'RegistryEcosystemPatch', minProperties: 1 },
)
export const IdentifierCreate = t.Object({
  rdid: Rdid,
  entityType: t.String({ pattern: '^[a-z][a-z0-9_]{0,49}$' }),
  entityId: t.String({ format: 'uuid' }),
}, { title: 'RegistryIdentifierCreate' })
