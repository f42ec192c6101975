import { defineModule } from '../module'
import { REGISTRY_AUDIT } from './events'
import { REGISTRY_ERRORS } from './errors'
import { registryRoutes } from './routes'
import { RegistryService } from './service'

declare module '../module' {
  interface Services {
    registry: RegistryService
  }
}

export default defineModule({
  name: 'registry',
  tags: {
    registry: 'Organizations, ecosystems (tenants), namespaces and readable identifiers (rdids).',
  },
  errors: REGISTRY_ERRORS,
  audit: REGISTRY_AUDIT,
  setup: (ctx) => {
    const registry = new RegistryService(ctx.deps, ctx.use('team'), () => ctx.extensions('entityTypes'), ctx.use('audit'))
    const user = async (id: string) => ((await ctx.use('auth').accounts.profiles([id])).has(id) ? { userId: id } : null)
    return {
      services: registry,
      extends: { entityTypes: { user } },
      routes: () => [registryRoutes(registry, registry.identifiers, ctx.guards)],
      listen: () => registry.listen(),
    }
  },
})
