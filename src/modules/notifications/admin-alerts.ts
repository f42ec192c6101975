import type { Db } from '../../platform/db'
import type { CustomerService } from '../customer/service'
import type { NotificationService } from './service'
import type { FeedWriter } from '../site/feed'

export interface AdminAlert {
  ecosystemId: string
  source: string
  entityType: string
  entityId: string
  action: string
  /** One line: the feed item's summary and the notification's subject. */
  summary: string
  /** The notification's text. */
  body: string
  metadata?: Record<string, unknown>
}

/**
 * What the service itself tells an ecosystem's admins and owners (a webhook endpoint turned off, a
 * monitored site down or up): a feed item and an `account` notification (e-mailed by default) for
 * each, through their own customer records, in the caller's transaction.
 */
export class AdminAlerts {
  constructor(
    private readonly customers: Pick<CustomerService, 'adminRecords'>,
    private readonly feed: FeedWriter,
    private readonly notifications: Pick<NotificationService, 'notify'>,
  ) {}

  async send(tx: Db, alert: AdminAlert): Promise<void> {
    for (const customerId of await this.customers.adminRecords(tx, alert.ecosystemId)) {
      const { ecosystemId, source, entityType, entityId, action, summary, metadata } = alert
      await this.feed.record(tx, { ecosystemId, customerId, source, entityType, entityId, action, summary, metadata })
      await this.notifications.notify(tx, { ecosystemId, customerId, type: 'account', subject: summary, body: alert.body })
    }
  }
}
