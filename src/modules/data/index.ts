import { defineModule } from '../module'
import { documentSearch } from './search'
import { DATA_ERRORS } from './errors'
import { changeSink } from '../../platform/changes'
import { resourceTopic } from '../../platform/crud/routes'
import { DATA_EVENTS, dataRowsChanged } from './events'
import { DATA_RESOURCES } from './model'
import { dataRoutes } from './routes'
import { DataService } from './service'

export default defineModule({
  name: 'data',
  tags: {
    data: 'Table-derived resources of the `data` schema (documents and their blocks): list, read, create, update, delete.',
  },
  errors: DATA_ERRORS,
  events: DATA_EVENTS,
  resources: DATA_RESOURCES,
  search: [documentSearch],
  setup: (ctx) => {
    const data = new DataService({ ...ctx.deps, changes: changeSink(ctx.bus, dataRowsChanged) })
    return { topics: DATA_RESOURCES.map(resourceTopic), routes: () => [dataRoutes(data, ctx.guards)] }
  },
})
