import { defineModule } from '../module'
import { AUDIT_ERRORS } from './errors'
import { pruneAudit } from './jobs'
import { auditRoutes } from './routes'
import { AuditService } from './service'
import { AUDIT_SUBSCRIPTIONS } from './subscriptions'

declare module '../module' {
  interface Services {
    audit: AuditService
  }
}

export default defineModule({
  name: 'audit',
  errors: AUDIT_ERRORS,
  jobs: [pruneAudit],
  subscriptions: AUDIT_SUBSCRIPTIONS,
  setup: (ctx) => {
    const audit = new AuditService(ctx.deps)
    return { services: audit, routes: () => [auditRoutes(audit, ctx.guards)] }
  },
})
