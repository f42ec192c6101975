import { defineModule } from '../module'
import { AdminAlerts } from './admin-alerts'
import { NOTIFICATION_ERRORS } from './errors'
import { notificationRoutes } from './routes'
import { NotificationService, UNSUBSCRIBE_PATH } from './service'

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
  http: { formBodyPaths: [UNSUBSCRIBE_PATH] },
  setup: (ctx) => {
    const notifications = new NotificationService(ctx.deps, ctx.use('messaging'))
    new AdminAlerts(ctx.use('customer'), ctx.use('site').feed, notifications).subscribe(ctx.bus)
    return { services: notifications, queues: notifications.queueHandlers(), routes: () => [notificationRoutes(notifications, ctx.guards)] }
  },
})
