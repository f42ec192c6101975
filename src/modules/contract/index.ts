import { defineModule } from '../module'
import { CONTRACT_ERRORS } from './errors'
import { contractRoutes } from './routes'
import { ContractService } from './service'

export default defineModule({
  name: 'contract',
  tags: {
    contract:
      'Run-time tables of an ecosystem: admins define contracts (columns, access), customers read and write rows.',
  },
  errors: CONTRACT_ERRORS,
  setup: (ctx) => ({ routes: () => [contractRoutes(new ContractService(ctx.deps), ctx.guards)] }),
})
