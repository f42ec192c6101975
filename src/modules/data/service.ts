import type { Deps } from '../../deps'
import type { ChangeSink } from '../../platform/changes'
import { ResourceService } from '../../platform/crud/resource'
import { documentBlocksResource, documentsResource } from './model'

/** The `data` schema's resources (documents and their blocks), each served by the table-derived resource service. */
export class DataService {
  readonly documents: ResourceService
  readonly blocks: ResourceService

  constructor(deps: Pick<Deps, 'db' | 'now'> & { changes: ChangeSink }) {
    this.documents = new ResourceService(deps, documentsResource)
    this.blocks = new ResourceService(deps, documentBlocksResource)
  }
}
