import { defineModule } from '../module'
import { overviewRoutes } from './routes'
import { Overview } from './service'

export default defineModule({
  name: 'overview',
  setup: (ctx) => ({ routes: () => [overviewRoutes(new Overview(ctx.deps), ctx.guards)] }),
})
