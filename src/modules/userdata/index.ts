import { defineModule } from '../module'
import { userdataRoutes } from './routes'

export default defineModule({
  name: 'userdata',
  tags: {
    userdata:
      'Table-derived resources of the `userdata` schema (a customer’s own notes).',
  },
  setup: (ctx) => ({ routes: () => [userdataRoutes(ctx.guards, ctx.deps)] }),
})
