import { defineModule } from '../module'
import { noteSearch } from './search'
import { USERDATA_ERRORS } from './errors'
import { userdataRoutes } from './routes'

export default defineModule({
  name: 'userdata',
  tags: {
    userdata:
      'Table-derived resources of the `userdata` schema (a customer’s own notes).',
  },
  errors: USERDATA_ERRORS,
  search: [noteSearch],
  setup: (ctx) => ({ routes: () => [userdataRoutes(ctx.guards, ctx.deps)] }),
})
