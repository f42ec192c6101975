import { defineModule } from '../module'
import { AUTH_ERRORS } from './errors'
import { AUTH_EVENTS, AUTH_AUDIT } from './events'
import { purgeSessions } from './jobs'
import { authRoutes } from './routes'
import { AuthService } from './service'
import { AUTH_SUBSCRIPTIONS } from './subscriptions'

declare module '../module' {
  interface Services {
    auth: AuthService
  }
}

export default defineModule({
  name: 'auth',
  tags: {
    auth: 'Accounts: register, sign in, refresh and revoke sessions (rotating single-use refresh tokens), profile, password and e-mail flows, API tokens (`eco_…`, shown once).',
  },
  errors: AUTH_ERRORS,
  events: AUTH_EVENTS,
  audit: AUTH_AUDIT,
  jobs: [purgeSessions],
  subscriptions: AUTH_SUBSCRIPTIONS,
  setup: (ctx) => {
    const { deps } = ctx
    const auth = new AuthService(
      deps,
      ctx.use('settings'),
      ctx.bus,
      () => ctx.extensions('tokenKinds'),
      (to, content) => ctx.use('messaging').sendInstanceEmail(to, content),
      ctx.use('audit'),
    )
    return {
      services: auth,
      queues: auth.emails.queueHandlers(),
      routes: () => authRoutes(auth, ctx.guards, deps.config),
      listen: async () => {
        const stops = await Promise.all([auth.sessions.listen(), auth.accounts.listen()])
        return async () => {
          await Promise.all(stops.map((stop) => stop()))
        }
      },
    }
  },
})
