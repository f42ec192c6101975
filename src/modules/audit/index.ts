import { defineModule } from '../module'
import { AUDIT_ERRORS } from './errors'
import { pruneAudit } from './jobs'
import { auditRoutes } from './routes'
import { AuditService } from './service'

export default defineModule({
  name: 'audit',
  errors: AUDIT_ERRORS,
  jobs: [pruneAudit],
  setup: (ctx) => ({ routes: () => [auditRoutes(new AuditService(ctx.deps), ctx.guards)] }),
})
