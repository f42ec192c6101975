import { defineModule } from '../module'
import { MESSAGING_ERRORS } from './errors'
import { MESSAGING_EVENTS } from './events'
import { pruneSendClaims } from './jobs'
import { messagingRoutes } from './routes'
import { MessagingService, SMS_STATUS_PATH } from './service'

declare module '../module' {
  interface Services {
    messaging: MessagingService
  }
}

export default defineModule({
  name: 'messaging',
  tags: {
    messaging: 'E-mail and SMS: templates, sends through a durable queue, send results and the send log.',
  },
  errors: MESSAGING_ERRORS,
  events: MESSAGING_EVENTS,
  jobs: [pruneSendClaims],
  http: { formBodyPaths: [SMS_STATUS_PATH] },
  setup: (ctx) => {
    const messaging = new MessagingService(ctx.deps, ctx.use('site').sites, ctx.bus, () => ctx.extensions('consent'))
    return { services: messaging, routes: () => [messagingRoutes(messaging, ctx.guards)], close: () => messaging.close() }
  },
})
