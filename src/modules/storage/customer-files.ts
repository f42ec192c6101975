import type { PageParams } from '../../platform/paging'
import type { Tenant } from '../../platform/tenancy'
import type { AuditService } from '../audit/service'
import type { Attachments } from './attachments'
import type { CustomerLookup } from './quota'

type ListFilter = Parameters<Attachments['list']>[1]

/**
 * An ecosystem admin's hands on one customer's files: the customer's own list, download and delete
 * (the same quota accounting), once the customer is found in the admin's ecosystem (404 otherwise)
 * and is not a record the service keeps for itself (403).
 */
export class CustomerFiles {
  constructor(
    private readonly attachments: Attachments,
    private readonly customers: CustomerLookup,
    private readonly audit: AuditService,
  ) {}

  async list(tenant: Tenant, customerId: string, filter: ListFilter, page: PageParams) {
    return this.attachments.list(await this.scope(tenant, customerId), filter, page)
  }

  async download(tenant: Tenant, customerId: string, id: string, origin: string | null) {
    return this.attachments.download(await this.scope(tenant, customerId), id, origin)
  }

  /** The customer's own delete (usage drops at once), recorded in the audit log in its transaction. */
  async remove(tenant: Tenant, customerId: string, id: string): Promise<void> {
    await this.attachments.remove(await this.scope(tenant, customerId), id, (tx, deleted) =>
      this.audit.record(tx, tenant, {
        action: 'storage.attachment.deleted',
        target: { type: 'attachment', id },
        metadata: { customerId, filename: deleted.filename, contentType: deleted.contentType, sizeBytes: deleted.sizeBytes, status: deleted.status },
      }),
    )
  }

  /** A team member's own record is refused (403) as for tokens and support sessions: an admin never reads a fellow member's files. */
  private async scope(tenant: Tenant, customerId: string) {
    await this.customers.actable(tenant, customerId, 'have its files browsed')
    return { ecosystemId: tenant.ecosystemId, customerId }
  }
}
