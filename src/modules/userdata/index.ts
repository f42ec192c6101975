import { defineModule } from '../module'
import { noteSearch } from './search'
import { USERDATA_ERRORS } from './errors'
import { changeSink } from '../../platform/changes'
import { resourceTopic } from '../../platform/crud/routes'
import { USERDATA_EVENTS, userdataRowsChanged } from './events'
import { USERDATA_RESOURCES } from './model'
import { userdataRoutes } from './routes'
import { UserdataService } from './service'

export default defineModule({
  name: 'userdata',
  tags: {
    userdata: 'Table-derived resources of the `userdata` schema (a customer’s own notes).',
  },
  errors: USERDATA_ERRORS,
  events: USERDATA_EVENTS,
  resources: USERDATA_RESOURCES,
  search: [noteSearch],
  setup: (ctx) => {
    const userdata = new UserdataService({ ...ctx.deps, changes: changeSink(ctx.bus, userdataRowsChanged) })
    return { topics: USERDATA_RESOURCES.map(resourceTopic), routes: () => [userdataRoutes(userdata, ctx.guards)] }
  },
})
