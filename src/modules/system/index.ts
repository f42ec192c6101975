import { defineModule } from '../module'
import { SYSTEM_AUDIT } from './events'
import { SYSTEM_ERRORS } from './errors'
import { Backups } from './backups'
import { abandonedBackups, backupLeftovers, scheduledBackup } from './jobs'
import { backupRoutes, systemRoutes } from './routes'
import { SystemService } from './service'

declare module '../module' {
  interface Services {
    system: SystemService
  }
}

export default defineModule({
  name: 'system',
  tags: {
    public: 'What anyone may read without credentials: liveness, public persona and user profiles.',
  },
  errors: SYSTEM_ERRORS,
  audit: SYSTEM_AUDIT,
  jobs: [scheduledBackup, abandonedBackups, backupLeftovers],
  setup: (ctx) => {
    const { deps } = ctx
    const messaging = ctx.use('messaging')
    const backups = new Backups(deps, ctx.use('audit'), (to, content) => messaging.sendInstanceEmail(to, content))
    const system = new SystemService(deps, backups)
    return { services: system, queues: backups.queueHandlers(), routes: () => [systemRoutes(system), backupRoutes(backups, ctx.guards)] }
  },
})
