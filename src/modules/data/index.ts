import { defineModule } from '../module'
import { documentSearch } from './search'
import { DATA_ERRORS } from './errors'
import { dataRoutes } from './routes'

export default defineModule({
  name: 'data',
  tags: {
    data:
      'Table-derived resources of the `data` schema (documents and their blocks): list, read, create, update, delete.',
  },
  errors: DATA_ERRORS,
  search: [documentSearch],
  setup: (ctx) => ({ routes: () => [dataRoutes(ctx.guards, ctx.deps)] }),
})
