import { Elysia, t } from 'elysia'
import type { Guards } from '../../platform/guards'
import { errors } from './errors'
import { PageQuery, pageParams, paged } from '../../platform/paging'
import { EmbedBody, MemoryCreate, MemoryListQuery, MemoryPatch, PersonaMemory, PersonaMemoryEmbedResult, PersonaMemoryRecallResult, RecallBody } from './model'
import type { PersonaMemoryService } from './service'
import { IdParam } from '../../platform/params'

const WHO =
  'With a customer token, or an account credential and X-Ecosystem-Id (a team member acts as its own customer). ' +
  "A caller sees its own `user` memories and the persona's global (`persona`) ones; only ecosystem admins (admin or owner) change global ones (403 otherwise)."
const TRANSITIONS =
  'Status transitions: `active` → `superseded` when a memory is created with `supersedesId` naming it (final: never changes again, cannot be edited); ' +
  '`active` → `archived` by POST /persona_memory/memories/{id}/archive; `archived` → `active` by /restore. Anything else is 409.'
const UNKNOWN_PERSONA =
  'A `personaId` that names no persona of the ecosystem (unknown, deleted, or of another ecosystem) matches no memory: 200 with nothing in it, not 404, ' +
  'so reads answer the same whether or not the id exists elsewhere.'

export function personaMemoryRoutes(service: PersonaMemoryService, guards: Guards) {
  return new Elysia({ name: 'persona_memory', prefix: '/persona_memory', detail: { tags: ['persona_memory'] } })
    .use(guards.tenancy)
    .get('/memories', ({ tenant, query }) => service.list(tenant, query, pageParams(query)), {
      tenant: 'customer',
      query: t.Composite([PageQuery, MemoryListQuery]),
      response: { 200: paged(PersonaMemory, 'PersonaMemoryPage') },
      detail: {
        operationId: 'personaMemoryList',
        summary: 'Memories the caller sees, newest first',
        description: `Deleted memories are never listed. ${UNKNOWN_PERSONA} ${WHO}`,
      },
    })
    .post('/memories', async ({ tenant, body, status }) => status(201, await service.create(tenant, body)), {
      tenant: 'customer',
      body: MemoryCreate,
      response: {
        201: PersonaMemory,
        ...errors({ 400: ['validation_failed', 'supersedes_mismatch'], 404: ['not_found', 'persona_not_found'], 409: ['not_active', 'slug_taken'] }),
      },
      detail: {
        operationId: 'personaMemoryCreate',
        summary: 'Remember something',
        description:
          '404 `persona_not_found` when `personaId` names no persona of the ecosystem (nothing is written); deleting a persona deletes its memories for good. ' +
          'Embedded right away when the embedding service answers within 5 s (`embeddingModel` set), otherwise by the embed backfill. ' +
          'With `supersedesId`: 404 when it names no memory you see, 400 `supersedes_mismatch` for another persona or scope, 409 `not_active` unless it is active. ' +
          `409 \`slug_taken\` when an active memory of the same owner has the slug. ${TRANSITIONS} ${WHO}`,
      },
    })
    .get('/memories/:id', ({ tenant, params }) => service.get(tenant, params.id), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: PersonaMemory },
      detail: { operationId: 'personaMemoryGet', summary: 'One memory', description: WHO },
    })
    .patch('/memories/:id', ({ tenant, params, body }) => service.update(tenant, params.id, body), {
      tenant: 'customer',
      params: IdParam,
      body: MemoryPatch,
      response: { 200: PersonaMemory, ...errors({ 409: ['superseded', 'slug_taken'] }) },
      detail: {
        operationId: 'personaMemoryUpdate',
        summary: 'Edit a memory',
        description: `A new description or body is embedded again. 409 \`superseded\` for a superseded memory, 409 \`slug_taken\`. Status changes only by the transitions: ${TRANSITIONS} ${WHO}`,
      },
    })
    .delete(
      '/memories/:id',
      async ({ tenant, params, status }) => {
        await service.remove(tenant, params.id)
        return status(204, undefined)
      },
      {
        tenant: 'customer',
        params: IdParam,
        response: { 204: t.Void({ description: 'Deleted' }) },
        detail: {
          operationId: 'personaMemoryDelete',
          summary: 'Delete a memory (soft delete)',
          description: `It sets \`deletedAt\`; the memory is then gone from every read and recall. ${WHO}`,
        },
      },
    )
    .post('/memories/:id/archive', ({ tenant, params }) => service.archive(tenant, params.id), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: PersonaMemory, ...errors({ 409: ['not_active'] }) },
      detail: {
        operationId: 'personaMemoryArchive',
        summary: 'Archive a memory (no longer recalled)',
        description: `\`active\` → \`archived\`; 409 \`not_active\` otherwise. ${TRANSITIONS} ${WHO}`,
      },
    })
    .post('/memories/:id/restore', ({ tenant, params }) => service.restore(tenant, params.id), {
      tenant: 'customer',
      params: IdParam,
      response: { 200: PersonaMemory, ...errors({ 409: ['not_archived', 'slug_taken'] }) },
      detail: {
        operationId: 'personaMemoryRestore',
        summary: 'Restore an archived memory',
        description: `\`archived\` → \`active\`; 409 \`not_archived\` otherwise, 409 \`slug_taken\` when another active memory took its slug meanwhile. ${TRANSITIONS} ${WHO}`,
      },
    })
    .post('/recall', ({ tenant, body }) => service.recall(tenant, body), {
      tenant: 'customer',
      body: RecallBody,
      response: { 200: PersonaMemoryRecallResult, ...errors({ 400: ['validation_failed', 'query_rejected'], 503: ['embedding_unavailable'] }) },
      detail: {
        operationId: 'personaMemoryRecall',
        summary: 'The memories most similar to a query',
        description:
          'Active, embedded memories of the persona that the caller sees and that are valid now (validFrom ≤ now < validTo), ranked by cosine similarity ' +
          '(negatives clamped to 0); `tags` keeps memories with at least one of them. Each returned memory gets recallCount + 1 and lastRecalledAt. ' +
          `503 \`embedding_unavailable\` when the query cannot be embedded. ${UNKNOWN_PERSONA} ${WHO}`,
      },
    })
    .post('/embed', ({ tenant, body }) => service.embedPending(tenant, body.limit ?? 100), {
      tenant: 'admin',
      body: EmbedBody,
      response: { 200: PersonaMemoryEmbedResult },
      detail: {
        operationId: 'personaMemoryEmbed',
        summary: 'Embed memories waiting for an embedding',
        description:
          'Embeds up to `limit` memories of the ecosystem that have no embedding or one made by another model than the current one (superseded ones are skipped), ' +
          'oldest first and those that failed before last. `failed` rows are retried on the next call; `more` is true when the batch was full. ' +
          'A scheduled job does the same every minute for every ecosystem. Needs an account credential with the admin or owner role in the ecosystem (X-Ecosystem-Id).',
      },
    })
}
