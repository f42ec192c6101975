import { defineModule } from '../module'
import { REGISTRY_ERRORS } from './errors'
import { IdentifierService } from './identifiers'
import { registryRoutes } from './routes'
import { RegistryService } from './service'

declare module '../module' {
  interface Services {
    registry: { registry: RegistryService; identifiers: IdentifierService }
  }
}

export default defineModule({
  name: 'registry',
  tags: {
    registry:
      'Organizations, ecosystems (tenants), namespaces and readable identifiers (rdids).',
  },
  errors: REGISTRY_ERRORS,
  setup: (ctx) => {
    const registry = new RegistryService(ctx.deps, ctx.use('team'))
    const identifiers = new IdentifierService(ctx.deps, registry.namespaces)
    identifiers.acceptEntityType('user', async (id) => ((await ctx.use('auth').accounts.profiles([id])).has(id) ? { userId: id } : null))
    return { services: { registry, identifiers }, routes: () => [registryRoutes(registry, identifiers, ctx.guards)], listen: () => registry.listen() }
  },
})
