import type { Db } from '../../platform/db'
import type { EventBus } from '../../platform/events'
import type { CustomerService } from '../customer/service'
import { webhookDisabled } from '../integrations/events'
import { siteDown, siteUp } from '../monitored_sites/events'
import type { FeedWriter } from '../site/service'
import type { NotificationService } from './service'

interface AdminAlert {
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
 * each, through their own customer records, in the transaction of the event.
 */
export class AdminAlerts {
  constructor(
    private readonly customers: Pick<CustomerService, 'adminRecords'>,
    private readonly feed: FeedWriter,
    private readonly notifications: Pick<NotificationService, 'notify'>,
  ) {}

  /** Turns the events admins are told about into alerts. */
  subscribe(bus: Pick<EventBus, 'on'>): void {
    bus.on(siteDown, (tx, { ecosystemId, payload: site }) =>
      this.siteAlert(tx, ecosystemId, site, 'down', `${site.name} is down: ${site.error}`, `${site.url} failed two checks in a row. Last error: ${site.error}.`),
    )
    bus.on(siteUp, (tx, { ecosystemId, payload: site }) => this.siteAlert(tx, ecosystemId, site, 'up', `${site.name} is up again`, `${site.url} answered ${site.statusCode} as expected.`))
    bus.on(webhookDisabled, (tx, { ecosystemId, payload: hook }) =>
      this.send(tx, {
        ecosystemId,
        source: 'integrations',
        entityType: 'webhook',
        entityId: hook.webhookId,
        action: 'disabled',
        summary: `Webhook to ${new URL(hook.url).host} turned off: every delivery failed for 3 days`,
        body: `Every delivery to ${hook.url} has failed since ${hook.failingSince}, so the endpoint is now disabled. Fix the receiver, then set enabled to true; failed deliveries can be sent again from their list.`,
      }),
    )
  }

  private siteAlert(tx: Db, ecosystemId: string, site: { siteId: string; url: string; statusCode: number | null }, action: 'down' | 'up', summary: string, body: string) {
    return this.send(tx, { ecosystemId, source: 'monitored_sites', entityType: 'site', entityId: site.siteId, action, summary, body, metadata: { url: site.url, statusCode: site.statusCode } })
  }

  private async send(tx: Db, alert: AdminAlert): Promise<void> {
    for (const customerId of await this.customers.adminRecords(tx, alert.ecosystemId)) {
      const { ecosystemId, source, entityType, entityId, action, summary, metadata } = alert
      await this.feed.record(tx, { ecosystemId, customerId, source, entityType, entityId, action, summary, metadata })
      await this.notifications.notify(tx, { ecosystemId, customerId, type: 'account', subject: summary, body: alert.body })
    }
  }
}
