import { subscriptionUnmatched } from '../billing/events'
import { mentionCreated, replyReceived } from '../community/events'
import { webhookDisabled } from '../integrations/events'
import { type ModuleContext, subscriber } from '../module'
import { siteDown, siteUp } from '../monitored_sites/events'
import { AdminAlerts } from './admin-alerts'
import type { NotificationsService } from './service'

const { on } = subscriber<NotificationsService>()

/** What the service tells an ecosystem's admins and owners (admin-alerts.ts). */
const alerts = (notifications: NotificationsService, ctx: ModuleContext) =>
  new AdminAlerts(ctx.use('customer'), ctx.use('site').feed, notifications, (tx, ecosystemId, siteId) =>
    ctx.use('monitored_sites').alertEmails(tx, ecosystemId, siteId),
  )

/** The notifications (and admin alerts) events cause, written in the transaction of the change. */
export const NOTIFICATIONS_SUBSCRIPTIONS = [
  on(siteDown, "alerts the ecosystem's admins and the site's alert addresses", (own, ctx) => {
    const admins = alerts(own, ctx)
    return (tx, { ecosystemId, payload }) => admins.siteDown(tx, ecosystemId, payload)
  }),
  on(siteUp, "alerts the ecosystem's admins and the site's alert addresses", (own, ctx) => {
    const admins = alerts(own, ctx)
    return (tx, { ecosystemId, payload }) => admins.siteUp(tx, ecosystemId, payload)
  }),
  on(subscriptionUnmatched, "alerts the ecosystem's admins", (own, ctx) => {
    const admins = alerts(own, ctx)
    return (tx, { ecosystemId, payload }) => admins.subscriptionUnmatched(tx, ecosystemId, payload)
  }),
  on(webhookDisabled, "alerts the ecosystem's admins", (own, ctx) => {
    const admins = alerts(own, ctx)
    return (tx, { ecosystemId, payload }) => admins.webhookDisabled(tx, ecosystemId, payload)
  }),
  on(replyReceived, "notifies the thread's author", (notifications) => async (tx, { ecosystemId, payload: r }) => {
    await notifications.notify(tx, {
      ecosystemId,
      customerId: r.threadAuthorId,
      type: 'community_reply',
      threadId: r.threadId,
      replyId: r.replyId,
      actorId: r.authorId,
      subject: `New reply to “${r.threadTitle}”`,
      body: r.body,
    })
  }),
  on(mentionCreated, 'notifies the mentioned customer', (notifications) => async (tx, { ecosystemId, payload: m }) => {
    await notifications.notify(tx, {
      ecosystemId,
      customerId: m.customerId,
      type: 'community_mention',
      threadId: m.threadId,
      replyId: m.replyId,
      actorId: m.authorId,
      subject: 'You were mentioned',
      body: m.text,
    })
  }),
]
