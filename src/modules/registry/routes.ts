import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors } from './errors'
import { PageQuery, pageParams, paged } from '../../platform/paging'
import type { IdentifierService } from './identifiers'
import {
  EcosystemCreate,
  EcosystemPatch,
  IdentifierCreate,
  NamespacePatch,
  ProvisionBody,
  RegistryEcosystem,
  RegistryIdentifier,
  RegistryNamespace,
  RegistryNamespaceUpdate,
  RegistryOrganization,
  RegistryProvisionedOrganization,
} from './model'
import type { RegistryService } from './service'
import { IdParam } from '../../platform/params'

export function registryRoutes(registry: RegistryService, ids: IdentifierService, guards: Guards) {
  return new Elysia({ name: 'registry', prefix: '/registry', detail: { tags: ['registry'] } })
    .use(guards.auth)
    .post('/organizations', async ({ principal, body, status }) => status(201, await registry.provision(principal, body)), {
      auth: true,
      body: ProvisionBody,
      response: { 201: RegistryProvisionedOrganization, ...errors(400, 401, { 409: ['slug_taken'] }) },
      detail: {
        operationId: 'registryProvisionOrganization',
        summary: 'Create an organization with its namespace, admin team and first ecosystem',
        description:
          'One transaction: the organization, its namespace (prefix `org.<namespaceSlug>`), an admin team with the caller as owner, and a first ecosystem (`<prefix>.<ecosystemSlug>`, slug `main` by default). Identifiers are registered for each. A taken slug answers 409 `slug_taken` and creates nothing.',
      },
    })
    .get('/organizations', ({ principal, query }) => registry.listOrganizations(principal.userId, pageParams(query)), {
      auth: true,
      query: PageQuery,
      response: { 200: paged(RegistryOrganization, 'RegistryOrganizationPage'), ...errors(400, 401) },
      detail: {
        operationId: 'registryListOrganizations',
        summary: 'Organizations the caller is a member of',
        description:
          'Every organization whose team the signed-in account belongs to, in any role (owner, admin, member). Create one with POST /registry/organizations.',
      },
    })
    .patch('/organizations/:id/policy', ({ principal, params, body }) => registry.setPolicy(principal, params.id, body), {
      auth: true,
      params: IdParam,
      body: t.Object({ requireMfa: t.Boolean() }, { title: 'RegistryOrganizationPolicy', examples: [{ requireMfa: true }] }),
      response: { 200: RegistryOrganization, ...errors(400, 401, 403, 404, { 409: ['conflict'] }) },
      detail: {
        operationId: 'registrySetOrganizationPolicy',
        summary: 'Require a second factor of every member',
        description:
          'Owners only (403), from a session that verified its own second factor (409 `conflict` without one, 403 `mfa_required` at aal1). With `requireMfa`, a member gets 403 `mfa_required` in the organization’s ecosystems, saying what to do, while their account has no verified second factor (sessions and API tokens alike) or their session has not verified it (aal1). GET /team/members shows who has one (`mfa`).',
      },
    })
    .get('/organizations/:id', ({ principal, params }) => registry.getOrganization(principal.userId, params.id), {
      auth: true,
      params: IdParam,
      response: { 200: RegistryOrganization, ...errors(400, 401, 404) },
      detail: {
        operationId: 'registryGetOrganization',
        summary: 'One organization (members only; 404 otherwise)',
        description: 'Its slug, name and `requireMfa` policy. To a non-member it does not exist (404), so organization ids cannot be probed.',
      },
    })
    .get('/namespaces', ({ principal, query }) => registry.namespaces.list(principal.userId, pageParams(query)), {
      auth: true,
      query: PageQuery,
      response: { 200: paged(RegistryNamespace, 'RegistryNamespacePage'), ...errors(400, 401) },
      detail: {
        operationId: 'registryListNamespaces',
        summary: "The caller's namespaces",
        description: 'Its personal namespace (ownerKind `customer`, prefix `user.<id>`, created on first use) and those of its organizations.',
      },
    })
    .patch('/namespaces/:id', ({ principal, params, body }) => registry.namespaces.update(principal.userId, params.id, body), {
      auth: true,
      params: IdParam,
      body: NamespacePatch,
      response: { 200: RegistryNamespaceUpdate, ...errors(400, 401, 403, 404, { 409: ['slug_taken'] }) },
      detail: {
        operationId: 'registryUpdateNamespace',
        summary: 'Rename a namespace (its rdid prefix never changes)',
        description: 'Own namespace, or an organization namespace as admin/owner. 409 `slug_taken`.',
      },
    })
    .post('/ecosystems', async ({ principal, body, status }) => status(201, await registry.createEcosystem(principal, body)), {
      auth: true,
      body: EcosystemCreate,
      response: { 201: RegistryEcosystem, ...errors(400, 401, 403, 404, { 409: ['slug_taken'] }) },
      detail: {
        operationId: 'registryCreateEcosystem',
        summary: 'Add an ecosystem to an organization (admin or owner)',
        description:
          'Its rdid defaults to `<namespace prefix>.<slug>` and must lie under the organization’s prefix (403 otherwise); the identifier is registered with it, in one transaction. Members without the admin role: 403; non-members: 404. A slug or rdid already taken: 409 `slug_taken`.',
      },
    })
    .get('/ecosystems', ({ principal, query }) => registry.listEcosystems(principal.userId, pageParams(query)), {
      auth: true,
      query: PageQuery,
      response: { 200: paged(RegistryEcosystem, 'RegistryEcosystemPage'), ...errors(400, 401) },
      detail: {
        operationId: 'registryListEcosystems',
        summary: 'Ecosystems the caller can reach',
        description:
          'Every ecosystem of every organization the signed-in account is a member of, by rdid. Send one’s id (or rdid) as `X-Ecosystem-Id` to work in it.',
      },
    })
    .get('/ecosystems/:id', ({ principal, params }) => registry.getEcosystem(principal.userId, params.id), {
      auth: true,
      params: IdParam,
      response: { 200: RegistryEcosystem, ...errors(400, 401, 404) },
      detail: {
        operationId: 'registryGetEcosystem',
        summary: 'One ecosystem (members of its organization only)',
        description: 'To anyone outside its organization it does not exist (404).',
      },
    })
    .patch('/ecosystems/:id', ({ principal, params, body }) => registry.updateEcosystem(principal, params.id, body), {
      auth: true,
      params: IdParam,
      body: EcosystemPatch,
      response: { 200: RegistryEcosystem, ...errors(400, 401, 403, 404, { 409: ['slug_taken'] }) },
      detail: {
        operationId: 'registryUpdateEcosystem',
        summary: 'Rename an ecosystem (admin or owner)',
        description:
          'Changes `name` and/or `slug`; an rdid still in its default form (`<prefix>.<slug>`) follows a new slug, a custom one stays. Every replica forgets the old names at once. Members without the admin role: 403; non-members: 404; a slug taken in the organization: 409 `slug_taken`.',
      },
    })
    .delete(
      '/ecosystems/:id',
      async ({ principal, params, status }) => {
        await registry.deleteEcosystem(principal, params.id)
        return status(204, undefined)
      },
      {
        auth: true,
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }), ...errors(400, 401, 403, 404) },
        detail: {
          operationId: 'registryDeleteEcosystem',
          summary: 'Delete an ecosystem and everything in it (owner only)',
          description:
            'Customers and all customer-scoped data of the ecosystem are deleted with it, and their files from the object store by a job within minutes (once their upload URLs have expired); this cannot be undone.',
        },
      },
    )
    .get('/resolve/:rdid', ({ params }) => ids.resolve(params.rdid), {
      params: t.Object({ rdid: t.String({ maxLength: 253 }) }),
      response: { 200: RegistryIdentifier, ...errors(400, 404) },
      detail: {
        operationId: 'registryResolve',
        summary: 'Resolve a reverse-domain identifier (public)',
        description: 'No credential needed: what an rdid (e.g. `org.acme.main`) names, as `{ rdid, entityType, entityId, createdBy }`. Unknown: 404.',
      },
    })
    .post('/identifiers', async ({ principal, body, status }) => status(201, await ids.mint(principal.userId, body)), {
      auth: true,
      body: IdentifierCreate,
      response: {
        201: RegistryIdentifier,
        ...errors(401, 403, { 400: ['validation_failed', 'unknown_entity_type'], 404: ['not_found', 'entity_not_found'], 409: ['rdid_taken'] }),
      },
      detail: {
        operationId: 'registryMintIdentifier',
        summary: 'Map an rdid to an entity',
        description: `The rdid must lie under a namespace the caller owns (\`user.<id>.…\`) or administers (\`org.<slug>.…\`); 403 otherwise, and for the system types \`namespace\`, \`organization\` and \`ecosystem\`, whose identifiers only the service registers. The entity must exist and belong to the namespace's owner, else 404 \`entity_not_found\`: under an organization's namespace a \`persona\` of one of its ecosystems; under your personal namespace your own account (\`user\`) or an OAuth client you registered (\`oauth_client\`, its id). Other entity types: 400 \`unknown_entity_type\`. 409 \`rdid_taken\`.`,
      },
    })
    .get('/identifiers', ({ query }) => ids.list(query.entityId, pageParams(query)), {
      auth: true,
      query: t.Composite([PageQuery, t.Object({ entityId: t.String({ format: 'uuid' }) })]),
      response: { 200: paged(RegistryIdentifier, 'RegistryIdentifierPage'), ...errors(400, 401) },
      detail: {
        operationId: 'registryListIdentifiers',
        summary: 'Identifiers that resolve to an entity',
        description: 'Every rdid mapped to `entityId`, as public as resolving them one by one (any signed-in account may ask).',
      },
    })
}
