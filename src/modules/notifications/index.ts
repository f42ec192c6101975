import { defineModule } from '../module'
import { mentionCreated, replyReceived } from '../community/events'
import { AdminAlerts } from './admin-alerts'
import { NOTIFICATION_ERRORS } from './errors'
import { notificationRoutes } from './routes'
import { changeSink } from '../../platform/changes'
import { NOTIFICATION_EVENTS, notificationRowsChanged } from './events'
import { NOTIFICATIONS_TOPIC, NotificationService, UNSUBSCRIBE_PATH } from './service'

declare module '../module' {
  interface Services {
    notifications: NotificationService
  }
}

export default defineModule({
  name: 'notifications',
  tags: {
    notifications:
      'In-app notifications, per-category preferences (in-app, e-mail), announcements and one-click unsubscribe.',
  },
  errors: NOTIFICATION_ERRORS,
  events: NOTIFICATION_EVENTS,
  http: { formBodyPaths: [UNSUBSCRIBE_PATH] },
  setup: (ctx) => {
    const messaging = ctx.use('messaging')
    const notifications = new NotificationService({ ...ctx.deps, changes: changeSink(ctx.bus, notificationRowsChanged) }, messaging)
    messaging.acceptConsent(notifications)
    const sites = ctx.use('monitored_sites')
    new AdminAlerts(ctx.use('customer'), ctx.use('site').feed, notifications, (tx, ecosystemId, siteId) => sites.alertEmails(tx, ecosystemId, siteId)).subscribe(ctx.bus)
    ctx.bus.on(replyReceived, async (tx, { ecosystemId, payload: r }) => {
      await notifications.notify(tx, { ecosystemId, customerId: r.threadAuthorId, type: 'community_reply', threadId: r.threadId, replyId: r.replyId, actorId: r.authorId, subject: `New reply to “${r.threadTitle}”`, body: r.body })
    })
    ctx.bus.on(mentionCreated, async (tx, { ecosystemId, payload: m }) => {
      await notifications.notify(tx, { ecosystemId, customerId: m.customerId, type: 'community_mention', threadId: m.threadId, replyId: m.replyId, actorId: m.authorId, subject: 'You were mentioned', body: m.text })
    })
    const topic = { topic: NOTIFICATIONS_TOPIC, level: 'customer' as const, description: 'What `GET /notifications` lists: the calling customer’s own notifications (a team member’s own customer record’s).' }
    return { topics: [topic], services: notifications, queues: notifications.queueHandlers(), routes: () => [notificationRoutes(notifications, ctx.guards)] }
  },
})
