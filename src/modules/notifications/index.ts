import { defineModule } from '../module'
import { NOTIFICATION_ERRORS } from './errors'
import { notificationRoutes } from './routes'
import { changeSink } from '../../platform/changes'
import { NOTIFICATION_EVENTS, notificationRowsChanged } from './events'
import { NOTIFICATIONS_TOPIC, NotificationsService, UNSUBSCRIBE_PATH } from './service'
import { NOTIFICATIONS_SUBSCRIPTIONS } from './subscriptions'

declare module '../module' {
  interface Services {
    notifications: NotificationsService
  }
}

export default defineModule({
  name: 'notifications',
  tags: {
    notifications: 'In-app notifications, per-category preferences (in-app, e-mail), announcements and one-click unsubscribe.',
  },
  errors: NOTIFICATION_ERRORS,
  events: NOTIFICATION_EVENTS,
  http: { formBodyPaths: [UNSUBSCRIBE_PATH] },
  subscriptions: NOTIFICATIONS_SUBSCRIPTIONS,
  setup: (ctx) => {
    const messaging = ctx.use('messaging')
    const notifications = new NotificationsService({ ...ctx.deps, changes: changeSink(ctx.bus, notificationRowsChanged) }, messaging)
    const topic = {
      topic: NOTIFICATIONS_TOPIC,
      level: 'customer' as const,
      description: 'What `GET /notifications` lists: the calling customer’s own notifications (a team member’s own customer record’s).',
    }
    return {
      topics: [topic],
      services: notifications,
      extends: { consent: notifications },
      queues: notifications.queueHandlers(),
      routes: () => [notificationRoutes(notifications, ctx.guards)],
    }
  },
})
