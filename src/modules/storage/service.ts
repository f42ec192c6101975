import type { Deps } from '../../deps'
import { Attachments } from './attachments'
import { StorageQuotas, type CustomerLookup } from './quota'

/** The storage area: attachments (presigned uploads and downloads) and per-customer quotas. */
export class StorageService {
  readonly quotas: StorageQuotas
  readonly attachments: Attachments

  constructor(deps: Deps, customers: CustomerLookup) {
    this.quotas = new StorageQuotas(deps, customers)
    this.attachments = new Attachments(deps, this.quotas)
  }
}
