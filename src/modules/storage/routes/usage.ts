import { Elysia, t } from 'elysia'
import type { Guards } from '../../../platform/guards'
import { PageQuery, pageParams, paged } from '../../../platform/paging'
import { QuotaBody, UsageStorageQuota, UsageStorageQuotaRow } from '../model'
import type { StorageService } from '../service'

const UserId = t.Object({ userId: t.String({ format: 'uuid', description: 'The customer id' }) })
const ADMIN = 'Needs an account credential with the admin or owner role in the ecosystem (X-Ecosystem-Id).'

export function usageRoutes(storage: StorageService, guards: Guards) {
  const { quotas } = storage
  return new Elysia({ name: 'storage-usage', prefix: '/usage', detail: { tags: ['usage'] } })
    .use(guards.tenancy)
    .get('/storage', ({ tenant }) => quotas.usage(tenant), {
      tenant: 'customer',
      response: { 200: UsageStorageQuota },
      detail: {
        operationId: 'usageStorageGet',
        summary: 'Your storage quota and usage',
        description:
          'Usage counts ready, non-deleted attachments. The quota is the override an admin set for you in this ecosystem, else STORAGE_DEFAULT_QUOTA_BYTES (5 GiB). The caller is as for /storage routes.',
      },
    })
    .get('/storage/customers/:userId', ({ tenant, params }) => quotas.usageOf(tenant, params.userId), {
      tenant: 'admin',
      params: UserId,
      response: { 200: UsageStorageQuota },
      detail: {
        operationId: 'usageStorageCustomerGet',
        summary: "A customer's storage quota and usage",
        description: `As GET /usage/storage shows it to the customer. 404 when the customer is not in the ecosystem. ${ADMIN}`,
      },
    })
    .get('/storage/quotas', ({ tenant, query }) => quotas.list(tenant, pageParams(query)), {
      tenant: 'admin',
      query: PageQuery,
      response: { 200: paged(UsageStorageQuotaRow, 'UsageStorageQuotaPage') },
      detail: { operationId: 'usageStorageQuotaList', summary: 'Quota overrides in the ecosystem, latest first', description: ADMIN },
    })
    .put('/storage/quotas/:userId', ({ tenant, params, body }) => quotas.set(tenant, params.userId, body.quotaBytes), {
      tenant: 'admin',
      params: UserId,
      body: QuotaBody,
      response: { 200: UsageStorageQuotaRow },
      detail: {
        operationId: 'usageStorageQuotaSet',
        summary: "Set a customer's quota in this ecosystem",
        description: `A quota below current usage blocks new uploads and keeps existing files. 404 when the customer is not in the ecosystem. ${ADMIN}`,
      },
    })
    .delete(
      '/storage/quotas/:userId',
      async ({ tenant, params, status }) => {
        await quotas.remove(tenant, params.userId)
        return status(204, undefined)
      },
      {
        tenant: 'admin',
        params: UserId,
        response: { 204: t.Void({ description: 'Back to the default quota' }) },
        detail: { operationId: 'usageStorageQuotaDelete', summary: "Remove a customer's quota override", description: `404 when there is none. ${ADMIN}` },
      },
    )
}
