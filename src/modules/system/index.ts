import { defineModule } from '../module'
import { SYSTEM_ERRORS } from './errors'
import { systemRoutes } from './routes'
import { SystemService } from './service'

declare module '../module' {
  interface Services {
    system: SystemService
  }
}

export default defineModule({
  name: 'system',
  tags: {
    public:
      'What anyone may read without credentials: liveness, public persona and user profiles.',
  },
  errors: SYSTEM_ERRORS,
  setup: ({ deps }) => {
    const system = new SystemService(deps)
    return { services: system, routes: () => [systemRoutes(system)] }
  },
})
