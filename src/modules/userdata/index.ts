import { defineModule } from '../module'
import { noteSearch } from './search'
import { USERDATA_ERRORS } from './errors'
import { changeSink } from '../../platform/changes'
import { resourceTopic } from '../../platform/crud/routes'
import { USERDATA_EVENTS, userdataRowsChanged } from './events'
import { USERDATA_RESOURCES, userdataRoutes } from './routes'

export default defineModule({
  name: 'userdata',
  tags: {
    userdata:
      'Table-derived resources of the `userdata` schema (a customer’s own notes).',
  },
  errors: USERDATA_ERRORS,
  events: USERDATA_EVENTS,
  search: [noteSearch],
  setup: (ctx) => {
    const changes = changeSink(ctx.bus, userdataRowsChanged)
    return { topics: USERDATA_RESOURCES.map(resourceTopic), routes: () => [userdataRoutes(ctx.guards, { ...ctx.deps, changes })] }
  },
})
