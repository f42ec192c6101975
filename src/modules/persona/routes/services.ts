import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../errors'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { PersonaService, PersonaServiceCreate, PersonaServicePatch, PersonaServiceTemplate } from '../model'
import type { PersonaArea } from '../service'
import { SERVICE_TEMPLATES } from '../templates'
import { IdParam } from '../../../platform/params'

const ADMIN = 'Needs the admin or owner role in the ecosystem (X-Ecosystem-Id). The API key is stored encrypted and shown only as `hasApiKey`.'
const NOT_ALLOWED =
  '400 `base_url_not_allowed` when the host is, or is a name resolving to, an address the server may not reach for persona services: loopback, private (RFC 1918), carrier-grade NAT, unique-local and other non-public addresses unless the operator set PERSONA_SERVICE_PRIVATE_ADDRESSES=allow; link-local, cloud-metadata, multicast and reserved addresses always. A name that does not resolve yet is accepted; every call resolves it again and connects to the address checked.'

/** Persona services: the LLM providers an ecosystem's personas use. */
export function serviceRoutes(area: PersonaArea, guards: Guards) {
  const services = area.services
  return new Elysia({ name: 'persona-services', prefix: '/persona', detail: { tags: ['persona'] } })
    .use(guards.tenancy)
    .get('/service-templates', () => [...SERVICE_TEMPLATES], {
      response: { 200: t.Array(PersonaServiceTemplate) },
      detail: {
        operationId: 'personaServiceTemplates',
        summary: 'Built-in persona service templates',
        description: 'OpenAI, Ollama, OpenRouter and any OpenAI-compatible service, with their documentation and status pages. No credentials needed.',
      },
    })
    .get('/services', ({ tenant, query }) => services.list(tenant, pageParams(query)), {
      tenant: 'admin',
      query: PageQuery,
      response: { 200: paged(PersonaService, 'PersonaServicePage'), ...errors(400, 401, 403, 404) },
      detail: { operationId: 'personaServiceList', summary: 'Persona services of the ecosystem, newest first', description: ADMIN },
    })
    .post('/services', async ({ tenant, body, status }) => status(201, await services.create(tenant, body)), {
      tenant: 'admin',
      body: PersonaServiceCreate,
      response: { 201: PersonaService, ...errors(401, 403, 404, { 400: ['validation_failed', 'unknown_template', 'base_url_required', 'invalid_base_url', 'base_url_not_allowed'] }) },
      detail: {
        operationId: 'personaServiceCreate',
        summary: 'Add a persona service',
        description: `From a template (\`templateId\`) or any OpenAI-compatible \`baseUrl\`. 400 \`unknown_template\`, \`base_url_required\`, \`invalid_base_url\` (credentials belong in \`apiKey\`, not in the URL). ${NOT_ALLOWED} ${ADMIN}`,
      },
    })
    .get('/services/:id', ({ tenant, params }) => services.get(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: PersonaService, ...errors(400, 401, 403, 404) },
      detail: { operationId: 'personaServiceGet', summary: 'One persona service', description: ADMIN },
    })
    .patch('/services/:id', ({ tenant, params, body }) => services.update(tenant, params.id, body), {
      tenant: 'admin',
      params: IdParam,
      body: PersonaServicePatch,
      response: { 200: PersonaService, ...errors(401, 403, 404, { 400: ['validation_failed', 'invalid_base_url', 'base_url_not_allowed'] }) },
      detail: {
        operationId: 'personaServiceUpdate',
        summary: 'Rename a persona service, or change its base URL or key',
        description: `\`apiKey: null\` removes the key. A new base URL or key resets \`connectStatus\` to \`never\`. A new base URL is checked as on create (400 \`invalid_base_url\`). ${NOT_ALLOWED} ${ADMIN}`,
      },
    })
    .delete(
      '/services/:id',
      async ({ tenant, params, status }) => {
        await services.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }), ...errors(400, 401, 403, 404) },
        detail: { operationId: 'personaServiceDelete', summary: 'Delete a persona service', description: `Personas that used it fall back to the default service. ${ADMIN}` },
      },
    )
    .post('/services/:id/connect', ({ tenant, params }) => services.connect(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: PersonaService, ...errors(400, 401, 403, 404) },
      detail: {
        operationId: 'personaServiceConnect',
        summary: "Connect: list the provider's models",
        description: `Calls the provider's GET /models (timeout CHAT_TIMEOUT_SECONDS). On success \`connectStatus\` is \`connected\` and \`models\`, \`modelsFetchedAt\` and \`lastConnectedAt\` are set; on failure it is \`failed\` with \`connectError\`, also when the host resolves to an address persona services may not reach or the provider answers with a redirect (redirects are not followed). Either way the answer is 200 with the service. ${ADMIN}`,
      },
    })
}
