import type { Tenant } from '../../platform/tenancy'
import { defineModule } from '../module'
import { CONTRACT_ERRORS } from './errors'
import { contractRoutes } from './routes'
import { changeSink } from '../../platform/changes'
import { CONTRACT_EVENTS, contractRowsChanged, CONTRACT_AUDIT } from './events'
import { CONTRACT_TOPIC, ContractService } from './service'

export default defineModule({
  name: 'contract',
  tags: {
    contract: 'Run-time tables of an ecosystem: admins define contracts (columns, access), customers read and write rows.',
  },
  errors: CONTRACT_ERRORS,
  events: CONTRACT_EVENTS,
  audit: CONTRACT_AUDIT,
  setup: (ctx) => {
    const contracts = new ContractService({ ...ctx.deps, changes: changeSink(ctx.bus, contractRowsChanged) }, ctx.use('audit'))
    const topic = {
      topic: `${CONTRACT_TOPIC}*`,
      level: 'customer' as const,
      description:
        'What `GET /contract/contracts/{name}/rows` lists: ecosystem admins and owners every row; customers the rows the contract’s `access.read` lets them read (`own`, `all`; none for `none`, 403 on subscribing).',
      authorize: (tenant: Tenant, name: string) => contracts.readable(tenant, name.slice(CONTRACT_TOPIC.length)),
      filterable: (tenant: Tenant, name: string) => contracts.filterable(tenant, name.slice(CONTRACT_TOPIC.length)),
    }
    return { topics: [topic], routes: () => [contractRoutes(contracts, ctx.guards)] }
  },
})
