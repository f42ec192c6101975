import { defineModule } from '../module'
import { accountEmailRoutes } from './routes/account-emails'
import { AccountEmails } from './account-emails'
import { AUTH_ERRORS } from './errors'
import { AUTH_EVENTS } from './events'
import { purgeSessions } from './jobs'
import { authRoutes } from './routes/accounts'
import { mfaAdminRoutes, mfaRoutes, passkeyRoutes } from './routes/mfa'
import { AuthService } from './service'

declare module '../module' {
  interface Services {
    auth: AuthService
  }
}

export default defineModule({
  name: 'auth',
  tags: {
    auth:
      'Accounts: register, sign in, refresh and revoke sessions (rotating single-use refresh tokens), profile, password and e-mail flows, API tokens (`eco_…`, shown once).',
  },
  errors: AUTH_ERRORS,
  events: AUTH_EVENTS,
  jobs: [purgeSessions],
  setup: (ctx) => {
    const { deps } = ctx
    const auth = new AuthService(deps, ctx.use('settings'), ctx.bus)
    const messaging = () => ctx.use('messaging')
    const emails = new AccountEmails(deps, auth.accounts, auth.mfa, (to, content) => messaging().sendInstanceEmail(to, content))
    emails.subscribe(ctx.bus)
    return {
      services: auth,
      queues: emails.queueHandlers(),
      routes: () => [authRoutes(auth, ctx.guards, deps), mfaRoutes(auth, ctx.guards, deps.config), passkeyRoutes(auth, ctx.guards, deps.config), mfaAdminRoutes(auth, ctx.guards), accountEmailRoutes(emails, ctx.guards, deps.config.trustProxy)],
      listen: async () => {
        const stops = await Promise.all([auth.sessions.listen(), auth.accounts.listen()])
        return async () => {
          await Promise.all(stops.map((stop) => stop()))
        }
      },
    }
  },
})
