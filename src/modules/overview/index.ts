import { defineModule } from '../module'
import { overviewRoutes } from './routes'
import { OverviewService } from './service'

export default defineModule({
  name: 'overview',
  setup: (ctx) => ({ routes: () => [overviewRoutes(new OverviewService(ctx.deps), ctx.guards)] }),
})
