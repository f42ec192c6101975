import type { Deps } from '../../deps'
import type { ChangeSink } from '../../platform/changes'
import { ResourceService } from '../../platform/crud/resource'
import { notesResource } from './model'

/** The `userdata` schema's resources (a customer's notes), served by the table-derived resource service. */
export class UserdataService {
  readonly notes: ResourceService

  constructor(deps: Pick<Deps, 'db' | 'now'> & { changes: ChangeSink }) {
    this.notes = new ResourceService(deps, notesResource)
  }
}
