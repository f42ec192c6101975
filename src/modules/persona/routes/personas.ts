import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { errors } from '../errors'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { Persona, PersonaCreate, PersonaPatch } from '../model'
import type { PersonaService } from '../service'
import { IdParam } from '../../../platform/params'

const ADMIN = 'Needs the admin or owner role in the ecosystem (X-Ecosystem-Id).'
const MEMBER = 'Any team member of the ecosystem (X-Ecosystem-Id) may read personas, whatever their visibility.'

/** Personas of an ecosystem: admins manage them, members read them. */
export function personaRoutes(area: PersonaService, guards: Guards) {
  const personas = area.personas
  return new Elysia({ name: 'persona-personas', prefix: '/persona/personas', detail: { tags: ['persona'] } })
    .use(guards.tenancy)
    .get('', ({ tenant, query }) => personas.list(tenant, pageParams(query)), {
      tenant: 'member',
      query: PageQuery,
      response: { 200: paged(Persona, 'PersonaPage') },
      detail: { operationId: 'personaList', summary: 'Personas of the ecosystem, newest first', description: MEMBER },
    })
    .post('', async ({ tenant, body, status }) => status(201, await personas.create(tenant, body)), {
      tenant: 'admin',
      body: PersonaCreate,
      response: { 201: Persona, ...errors({ 404: ['not_found', 'service_not_found'], 409: ['slug_taken'] }) },
      detail: {
        operationId: 'personaCreate',
        summary: 'Create a persona',
        description: `Visibility defaults to \`private\`. Without \`serviceId\` and \`model\` the persona uses the default service. 409 \`slug_taken\`; 404 \`service_not_found\`. The creating account is the persona's public owner. ${ADMIN}`,
      },
    })
    .get('/:id', ({ tenant, params }) => personas.get(tenant, params.id), {
      tenant: 'member',
      params: IdParam,
      response: { 200: Persona },
      detail: { operationId: 'personaGet', summary: 'One persona', description: MEMBER },
    })
    .patch('/:id', ({ tenant, params, body }) => personas.update(tenant, params.id, body), {
      tenant: 'admin',
      params: IdParam,
      body: PersonaPatch,
      response: { 200: Persona, ...errors({ 404: ['not_found', 'service_not_found'], 409: ['slug_taken'] }) },
      detail: { operationId: 'personaUpdate', summary: 'Change a persona', description: `409 \`slug_taken\`; 404 \`service_not_found\`. ${ADMIN}` },
    })
    .delete(
      '/:id',
      async ({ tenant, params, status }) => {
        await personas.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }) },
        detail: {
          operationId: 'personaDelete',
          summary: 'Delete a persona',
          description: `Its persona memories are deleted with it, in the same transaction. Conversations that name it can no longer send (409 \`persona_unavailable\`) until a persona with the slug exists again. ${ADMIN}`,
        },
      },
    )
}
