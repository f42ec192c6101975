import { defineModule } from '../module'
import { AUDIT_ERRORS } from './errors'
import { pruneAudit } from './jobs'
import { auditRoutes } from './routes'
import { AuditLog } from './service'

export default defineModule({
  name: 'audit',
  errors: AUDIT_ERRORS,
  jobs: [pruneAudit],
  setup: (ctx) => ({ routes: () => [auditRoutes(new AuditLog(ctx.deps), ctx.guards)] }),
})
