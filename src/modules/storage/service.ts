import type { Deps } from '../../deps'
import type { EntitlementGate } from '../../platform/entitlements'
import type { EventBus } from '../../platform/events'
import type { AuditService } from '../audit/service'
import { Attachments } from './attachments'
import { CustomerFiles } from './customer-files'
import { StorageQuotas, type CustomerLookup } from './quota'

export { storageReadings } from './quota'

/** The storage area: attachments (presigned uploads and downloads), admins' access to customers' files, and per-customer quotas. */
export class StorageService {
  readonly quotas: StorageQuotas
  readonly attachments: Attachments
  /** Ecosystem admins' view of a customer's files. */
  readonly customerFiles: CustomerFiles

  constructor(
    deps: Pick<Deps, 'config' | 'db' | 'logger' | 'now' | 'storage'>,
    customers: CustomerLookup,
    events: Pick<EventBus, 'emit'>,
    gate: EntitlementGate,
    audit: AuditService,
  ) {
    this.quotas = new StorageQuotas(deps, customers, audit)
    this.attachments = new Attachments(deps, this.quotas, events, gate)
    this.customerFiles = new CustomerFiles(this.attachments, customers, audit)
  }
}
