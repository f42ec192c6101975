import type { StreamCredential, Tenant } from '../../platform/tenancy'
import { defineModule } from '../module'
import { REALTIME_ERRORS } from './errors'
import { RealtimeHub } from './hub'
import { purgeRealtime } from './jobs'
import { realtimeRoutes } from './routes'
import { RealtimeService } from './service'
import { REALTIME_SUBSCRIPTIONS } from './subscriptions'
import { StreamTickets } from './tickets'

declare module '../module' {
  interface Services {
    realtime: RealtimeService
  }
}

export default defineModule({
  name: 'realtime',
  tags: {
    realtime:
      'Change streams (server-sent events) of table-derived resources, contract tables, community threads and replies, and notifications: authorized per row, resumable by cursor, across replicas.',
  },
  errors: REALTIME_ERRORS,
  jobs: [purgeRealtime],
  subscriptions: REALTIME_SUBSCRIPTIONS,
  setup: (ctx) => {
    const auth = ctx.use('auth')
    const customers = ctx.use('customer')
    /** Whether the session (or API token) behind a stream still holds, and an account is still a member. */
    const alive = async (credential: StreamCredential, tenant: Tenant): Promise<boolean> => {
      if (credential.kind === 'customer') return credential.sessionId !== null && customers.sessions.isAlive(credential.sessionId, credential.subjectId)
      const holds = credential.apiTokenId
        ? await auth.apiTokens.isValid(credential.apiTokenId)
        : credential.sessionId !== null && (await auth.sessions.isAlive(credential.sessionId, credential.subjectId))
      return holds && (await customers.roleOf(credential.subjectId, tenant.organizationId)) !== null
    }
    const hub = new RealtimeHub({ ...ctx.deps, alive })
    const tickets = new StreamTickets(ctx.deps, { alive, roleOf: (userId, organizationId) => customers.roleOf(userId, organizationId) })
    const realtime = new RealtimeService(hub, tickets, ctx.topics, ctx.deps.shutdown, ctx.deps.metrics)
    return { services: realtime, listen: () => hub.start(), routes: () => [realtimeRoutes(realtime, ctx.guards, ctx.deps.tokens, ctx.topics())] }
  },
})
