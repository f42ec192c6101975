import { defineModule } from '../module'
import { pruneAudit } from './jobs'
import { auditRoutes } from './routes'
import { AuditLog } from './service'

export default defineModule({
  name: 'audit',
  jobs: [pruneAudit],
  setup: (ctx) => ({ routes: () => [auditRoutes(new AuditLog(ctx.deps), ctx.guards)] }),
})
