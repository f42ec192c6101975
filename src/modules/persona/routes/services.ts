import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../errors'
import { paged } from '../../../platform/paging'
import { PersonaService as PersonaServiceModel, PersonaServiceCreate, PersonaServicePatch, PersonaServiceTemplate } from '../model'
import type { PersonaService } from '../service'
import { SERVICE_TEMPLATES } from '../templates'
import { IdParam } from '../../../platform/params'
import { adminResource } from '../../../platform/crud/admin'

const KEY = 'The API key is stored encrypted and shown only as `hasApiKey`.'
const NOT_ALLOWED =
  '400 `base_url_not_allowed` when the host is, or is a name resolving to, an address the server may not reach for persona services: loopback, private (RFC 1918), carrier-grade NAT, unique-local and other non-public addresses unless the operator set PERSONA_SERVICE_PRIVATE_ADDRESSES=allow; link-local, cloud-metadata, multicast and reserved addresses always. A name that does not resolve yet is accepted; every call resolves it again and connects to the address checked.'

/** Persona services: the LLM providers an ecosystem's personas use. */
export function serviceRoutes(area: PersonaService, guards: Guards) {
  const services = area.services
  return new Elysia({ name: 'persona-services', prefix: '/persona', detail: { tags: ['persona'] } })
    .use(guards.tenancy)
    .get('/service-templates', () => [...SERVICE_TEMPLATES], {
      response: { 200: t.Array(PersonaServiceTemplate, { examples: [[...SERVICE_TEMPLATES]] }) },
      detail: {
        operationId: 'personaServiceTemplates',
        summary: 'Built-in persona service templates',
        description: 'OpenAI, Ollama, OpenRouter and any OpenAI-compatible service, with their documentation and status pages. No credentials needed.',
      },
    })
    .use(
      adminResource(guards, {
        path: '/services',
        schemas: {
          page: paged(PersonaServiceModel, 'PersonaServicePage'),
          create: PersonaServiceCreate,
          item: PersonaServiceModel,
          detail: PersonaServiceModel,
          patch: PersonaServicePatch,
        },
        service: services,
        operations: {
          list: { operationId: 'personaServiceList', summary: 'Persona services of the ecosystem, newest first', description: KEY },
          create: {
            operationId: 'personaServiceCreate',
            summary: 'Add a persona service',
            description: `From a template (\`templateId\`) or any OpenAI-compatible \`baseUrl\`. 400 \`unknown_template\`, \`base_url_required\`, \`invalid_base_url\` (credentials belong in \`apiKey\`, not in the URL). ${NOT_ALLOWED} ${KEY}`,
            errors: errors({ 400: ['validation_failed', 'unknown_template', 'base_url_required', 'invalid_base_url', 'base_url_not_allowed'] }),
          },
          get: { operationId: 'personaServiceGet', summary: 'One persona service', description: KEY },
          update: {
            operationId: 'personaServiceUpdate',
            summary: 'Rename a persona service, or change its base URL or key',
            description: `\`apiKey: null\` removes the key. A new base URL or key resets \`connectStatus\` to \`never\`. A new base URL is checked as on create (400 \`invalid_base_url\`). ${NOT_ALLOWED} ${KEY}`,
            errors: errors({ 400: ['validation_failed', 'invalid_base_url', 'base_url_not_allowed'] }),
          },
          remove: {
            operationId: 'personaServiceDelete',
            summary: 'Delete a persona service',
            description: 'Personas that used it fall back to the default service.',
            deleted: 'Deleted',
          },
        },
      }),
    )
    .post('/services/:id/connect', ({ tenant, params }) => services.connect(tenant, params.id), {
      tenant: 'admin',
      params: IdParam,
      response: { 200: PersonaServiceModel },
      detail: {
        operationId: 'personaServiceConnect',
        summary: "Connect: list the provider's models",
        description: `Calls the provider's GET /models (timeout CHAT_TIMEOUT_SECONDS). On success \`connectStatus\` is \`connected\` and \`models\`, \`modelsFetchedAt\` and \`lastConnectedAt\` are set; on failure it is \`failed\` with \`connectError\`, also when the host resolves to an address persona services may not reach or the provider answers with a redirect (redirects are not followed). Either way the answer is 200 with the service. ${KEY}`,
      },
    })
}
