import { resourceRoutes } from '../../platform/crud/routes'
import type { Guards } from '../../platform/guards'
import { notesResource } from './model'
import type { UserdataService } from './service'

export function userdataRoutes(userdata: UserdataService, guards: Guards) {
  return resourceRoutes(notesResource, userdata.notes, guards)
}
