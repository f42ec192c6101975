import type { Db } from '../../platform/db'
import type { subscriptionUnmatched } from '../billing/events'
import type { Static } from '@sinclair/typebox'
import type { CustomerService } from '../customer/service'
import type { webhookDisabled } from '../integrations/events'
import type { siteDown, siteUp } from '../monitored_sites/events'
import type { FeedWriter } from '../site/service'
import type { NotificationsService } from './service'

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
  /** Outside addresses told too (a site's `alertEmails`). */
  contacts?: readonly string[]
}

/**
 * What the service itself tells an ecosystem's admins and owners (a webhook endpoint turned off, a
 * monitored site down or up, a Stripe subscription selling a price no plan has): a feed item and an `account` notification for each, through their own
 * customer records, which carry their account e-mail, so the notification's e-mail (on by default,
 * as each one's preferences say) reaches them and is in the messaging log. A site's `alertEmails`
 * get the notification too, through a record per address. All in the transaction of the event.
 */
export class AdminAlerts {
  constructor(
    private readonly customers: Pick<CustomerService, 'adminRecords' | 'contactRecords'>,
    private readonly feed: FeedWriter,
    private readonly notifications: Pick<NotificationsService, 'notify'>,
    /** A monitored site's `alertEmails`. */
    private readonly siteContacts: (tx: Db, ecosystemId: string, siteId: string) => Promise<string[]>,
  ) {}

  /** A monitored site went down. */
  siteDown(tx: Db, ecosystemId: string, site: Static<typeof siteDown.payload>): Promise<void> {
    return this.siteAlert(
      tx,
      ecosystemId,
      site,
      'down',
      `${site.name} is down: ${site.error}`,
      `${site.url} failed ${site.failures} checks in a row. Last error: ${site.error}.`,
    )
  }

  /** A monitored site is up again. */
  siteUp(tx: Db, ecosystemId: string, site: Static<typeof siteUp.payload>): Promise<void> {
    return this.siteAlert(tx, ecosystemId, site, 'up', `${site.name} is up again`, `${site.url} answered ${site.statusCode} as expected.`)
  }

  /** A Stripe subscription sells a price no plan carries. */
  subscriptionUnmatched(tx: Db, ecosystemId: string, s: Static<typeof subscriptionUnmatched.payload>): Promise<void> {
    const prices = s.priceIds.join(', ') || 'no price'
    return this.send(tx, {
      ecosystemId,
      source: 'billing',
      entityType: 'subscription',
      entityId: s.subscriptionId,
      action: 'unmatched',
      summary: `Stripe subscription ${s.subscriptionId} sells ${prices}, which no plan has`,
      body: `Stripe subscription ${s.subscriptionId} (customer ${s.customerId}, ${s.status}) sells ${prices}, but no plan of the ecosystem carries it as a stripePriceId. Until one does, the customer is on the default plan. Add the price to the plan it sells (PATCH /billing/plans/{key}); the next webhook of the subscription applies it.`,
      metadata: { customerId: s.customerId, priceIds: s.priceIds },
    })
  }

  /** A webhook endpoint was turned off after failing for 3 days. */
  webhookDisabled(tx: Db, ecosystemId: string, hook: Static<typeof webhookDisabled.payload>): Promise<void> {
    return this.send(tx, {
      ecosystemId,
      source: 'integrations',
      entityType: 'webhook',
      entityId: hook.webhookId,
      action: 'disabled',
      summary: `Webhook to ${new URL(hook.url).host} turned off: every delivery failed for 3 days`,
      body: `Every delivery to ${hook.url} has failed since ${hook.failingSince}, so the endpoint is now disabled. Fix the receiver, then set enabled to true; failed deliveries can be sent again from their list.`,
    })
  }

  private async siteAlert(
    tx: Db,
    ecosystemId: string,
    site: { siteId: string; url: string; statusCode: number | null },
    action: 'down' | 'up',
    summary: string,
    body: string,
  ) {
    const contacts = await this.siteContacts(tx, ecosystemId, site.siteId)
    await this.send(tx, {
      ecosystemId,
      source: 'monitored_sites',
      entityType: 'site',
      entityId: site.siteId,
      action,
      summary,
      body,
      metadata: { url: site.url, statusCode: site.statusCode },
      contacts,
    })
  }

  private async send(tx: Db, alert: AdminAlert): Promise<void> {
    const { ecosystemId, source, entityType, entityId, action, summary, metadata } = alert
    for (const customerId of await this.customers.adminRecords(tx, ecosystemId)) {
      await this.feed.record(tx, { ecosystemId, customerId, source, entityType, entityId, action, summary, metadata })
      await this.notifications.notify(tx, { ecosystemId, customerId, type: 'account', subject: summary, body: alert.body })
    }
    for (const customerId of await this.customers.contactRecords(tx, ecosystemId, alert.contacts ?? [])) {
      await this.notifications.notify(tx, { ecosystemId, customerId, type: 'account', subject: summary, body: alert.body })
    }
  }
}
