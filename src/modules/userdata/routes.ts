import type { Deps } from '../../deps'
import type { ChangeSink } from '../../platform/changes'
import { ResourceService } from '../../platform/crud/resource'
import { resourceRoutes } from '../../platform/crud/routes'
import type { Guards } from '../../platform/guards'
import { notesResource } from './resources'

export const USERDATA_RESOURCES = [notesResource] as const

export function userdataRoutes(guards: Guards, deps: Pick<Deps, 'db' | 'now'> & { changes: ChangeSink }) {
  return resourceRoutes(notesResource, new ResourceService(deps, notesResource), guards)
}
