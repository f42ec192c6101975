import { defineModule } from '../module'
import { CUSTOMER_ERRORS } from './errors'
import { CUSTOMER_EVENTS, CUSTOMER_AUDIT } from './events'
import { purgeCustomerSessions } from './jobs'
import { customerRoutes } from './routes'
import { CustomerService } from './service'

declare module '../module' {
  interface Services {
    customer: CustomerService
  }
}

export default defineModule({
  name: 'customer',
  tags: {
    customer: 'End customers of an ecosystem: resolve or register by external id, customer tokens (`POST /customer/token`) with their own refresh and revoke.',
  },
  errors: CUSTOMER_ERRORS,
  events: CUSTOMER_EVENTS,
  audit: CUSTOMER_AUDIT,
  jobs: [purgeCustomerSessions],
  setup: (ctx) => {
    const customers = new CustomerService(ctx.deps, ctx.use('registry'), ctx.use('team'), ctx.bus, ctx.use('audit'))
    return { services: customers, routes: () => [customerRoutes(customers, ctx.guards)], listen: () => customers.sessions.listen() }
  },
})
